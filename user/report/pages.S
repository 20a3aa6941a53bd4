/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report's web pages (report/pages/), embedded at build time as
 * NUL-terminated strings; report/html.c puts them together (report/pages.h).
 * Paths are relative to the top of the tree, where make runs.
 */
	.macro page name, file
	.section .rodata.\name, "a"
	.global \name
	.type \name, @object
	.balign 16
\name:
	.incbin "\file"
	.byte 0
	.size \name, . - \name
	.endm

	page pj_page_html, "user/report/pages/page.html"
	page pj_page_common_css, "user/report/pages/common.css"
	page pj_page_common_js, "user/report/pages/common.js"
	page pj_page_flame_css, "user/report/pages/flame.css"
	page pj_page_flame_bar, "user/report/pages/flame_bar.html"
	page pj_page_flame_html, "user/report/pages/flame.html"
	page pj_page_flame_js, "user/report/pages/flame.js"
	page pj_page_tree_css, "user/report/pages/tree.css"
	page pj_page_tree_bar, "user/report/pages/tree_bar.html"
	page pj_page_tree_html, "user/report/pages/tree.html"
	page pj_page_tree_js, "user/report/pages/tree.js"
	page pj_page_heatmap_css, "user/report/pages/heatmap.css"
	page pj_page_heatmap_html, "user/report/pages/heatmap.html"
	page pj_page_heatmap_js, "user/report/pages/heatmap.js"

	.section .note.GNU-stack, "", @progbits

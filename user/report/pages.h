/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The files of report/pages/ as strings (report/pages.S embeds them at build
 * time). page.html is the skeleton shared by every page; the report fills
 * its @NAME@ slots (report/html.c).
 */
#ifndef PJ_USER_REPORT_PAGES_H
#define PJ_USER_REPORT_PAGES_H

extern const char pj_page_html[], pj_page_common_css[], pj_page_common_js[];
extern const char pj_page_flame_css[], pj_page_flame_bar[],
    pj_page_flame_html[], pj_page_flame_js[];
extern const char pj_page_tree_css[], pj_page_tree_bar[], pj_page_tree_html[],
    pj_page_tree_js[];
extern const char pj_page_heatmap_css[], pj_page_heatmap_html[],
    pj_page_heatmap_js[];

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/* The self-contained HTML pages: flame graph, tree view and heatmap. */
#ifndef PJ_USER_REPORT_HTML_H
#define PJ_USER_REPORT_HTML_H

#include <stdio.h>

#include "report/calltree.h"

/*
 * What one page puts in the shared skeleton (report/pages/page.html): its
 * style, bar, body and script, each a text in which @NAME@ is a file of
 * pages/ (@FLAME_JS@ is flame.js; report/html.c lists them).
 */
struct html_page {
	const char *style, *bar, *body, *script;
};

extern const struct html_page flame_page, tree_page, heatmap_page;

/* Writes a page's data (its @DATA@): 0, or -1 when out of memory. */
typedef int (*html_data_fn)(FILE *out, const void *ctx);

/* Writes page with title (HTML-escaped) and data(out, ctx). */
int html_page_write_data(FILE *out, const struct html_page *page,
			 const char *title, html_data_fn data, const void *ctx);

/*
 * Writes page with title (HTML-escaped) and the tree's data; base is the
 * --diff baseline or NULL. -1 when out of memory.
 */
int html_page_write(FILE *out, const struct html_page *page, const char *title,
		    const struct calltree *ct, const struct calltree *base,
		    bool by_total, double minfrac);

#endif

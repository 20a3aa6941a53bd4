/* SPDX-License-Identifier: GPL-2.0 */
/* The self-contained HTML pages of the flame graph and the tree view. */
#ifndef PJ_USER_REPORT_HTML_H
#define PJ_USER_REPORT_HTML_H

#include <stdio.h>

#include "report/calltree.h"

/* What one page adds to the shared skeleton (report/pages/page.html). */
struct html_page {
	const char *style, *bar, *body, *script;
};

extern const struct html_page flame_page, tree_page;

/*
 * Writes page with title (HTML-escaped) and the tree's data; base is the
 * --diff baseline or NULL. -1 when out of memory.
 */
int html_page_write(FILE *out, const struct html_page *page, const char *title,
		    const struct calltree *ct, const struct calltree *base,
		    bool by_total, double minfrac);

#endif

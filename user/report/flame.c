// SPDX-License-Identifier: GPL-2.0
/*
 * The flame graph: one self-contained HTML page (report/pages/flame.js) drawing
 * the call tree on a canvas, so that 100k unique stacks stay responsive.
 * Frames are colored by kind with async-profiler's palette; with --diff by
 * how their share of all samples grew (red) or shrank (blue) against the
 * baseline. --minwidth drops frames narrower than that percentage.
 */
#include <string.h>

#include "report/html.h"
#include "report/report.h"

int report_flame(FILE *out, const struct report *r)
{
	struct ct_titles t;
	struct calltree ct, base;
	char title[512];
	int ret = -1;

	ct_titles_init(&t);
	memset(&base, 0, sizeof(base));
	if (calltree_build(&ct, r, &t))
		goto out;
	if (r->base && calltree_build(&base, r->base, &t))
		goto out;
	if (r->o->title)
		snprintf(title, sizeof(title), "%s", r->o->title);
	else if (r->base)
		snprintf(title, sizeof(title),
			 "Differential flame graph: %s against %s", r->o->input,
			 r->o->diff);
	else
		report_title(r, "Flame graph", title, sizeof(title));
	ret = html_page_write(out, &flame_page, title, &ct,
			      r->base ? &base : NULL, false,
			      r->o->minwidth / 100.0);
out:
	calltree_free(&ct);
	calltree_free(&base);
	ct_titles_free(&t);
	return ret;
}

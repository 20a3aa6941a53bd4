// SPDX-License-Identifier: GPL-2.0
/*
 * The call tree from the roots, hottest children first, with inclusive
 * (total) and exclusive (self) percentages: as indented text, or as an HTML
 * page (report/pages/tree.js) whose nodes expand and collapse on click, with
 * a search that marks the matching frames and opens the paths to them.
 */
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "report/report.h"

static double pct(uint64_t v, uint64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0.0;
}

static int tree_text(FILE *out, const struct report *r,
		     const struct calltree *ct)
{
	uint32_t *order = malloc(((size_t)ct->n + 1) * sizeof(*order));
	uint32_t *depth = malloc(((size_t)ct->n + 1) * sizeof(*depth));
	uint64_t total = ct->nodes[0].total;
	long n;

	if (!order || !depth) {
		free(order);
		free(depth);
		return -1;
	}
	n = calltree_order(ct, true, r->o->minwidth / 100.0, order, depth);
	if (n >= 0) {
		fprintf(out, "%8s  %7s  %12s  frame\n", "total", "self",
			r->o->total ? r->unit : "samples");
		for (long i = 0; i < n; i++) {
			const struct ct_node *nd = &ct->nodes[order[i]];

			fprintf(out, "%7.2f%%  %6.2f%%  %12llu  %*s%s\n",
				pct(nd->total, total), pct(nd->self, total),
				(unsigned long long)nd->total,
				(int)(2 * depth[i]), "",
				ct->titles->name[nd->title]);
		}
	}
	free(order);
	free(depth);
	return n < 0 ? -1 : 0;
}

static int tree(FILE *out, const struct report *r, bool html)
{
	struct ct_titles t;
	struct calltree ct;
	char title[512];
	int ret = -1;

	ct_titles_init(&t);
	if (calltree_build(&ct, r, &t))
		goto out;
	if (r->o->title)
		snprintf(title, sizeof(title), "%s", r->o->title);
	else
		report_title(r, "Call tree", title, sizeof(title));
	ret = html ? html_page_write(out, &tree_page, title, &ct, NULL, true,
				     r->o->minwidth / 100.0)
		   : tree_text(out, r, &ct);
out:
	calltree_free(&ct);
	ct_titles_free(&t);
	return ret;
}

int report_tree(FILE *out, const struct report *r)
{
	return tree(out, r, false);
}

int report_tree_html(FILE *out, const struct report *r)
{
	return tree(out, r, true);
}

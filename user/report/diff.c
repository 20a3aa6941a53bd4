// SPDX-License-Identifier: GPL-2.0
/*
 * `--diff OLD` with the text format: the frames whose share of all samples
 * changed most between the baseline (OLD) and this profile. A frame's total
 * share counts each stack it appears in once (recursion is not counted
 * twice); its self share counts the stacks it is the leaf of. Frames match
 * by name. Shares are normalized by each profile's own total, so that two
 * recordings of different length compare.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "report/calltree.h"
#include "report/report.h"

#define NAME_LEN 4096

struct row {
	uint64_t total[2], self[2];
	size_t stamp; /* stack index + 1 that last counted total */
	uint32_t title;
	double key;
};

struct acc {
	struct ct_titles t;
	struct row *rows;
	uint32_t cap;
	char *name;
};

static struct row *row_of(struct acc *a, const struct report *r, uint32_t f,
			  uint32_t *cache)
{
	uint32_t ti = cache[f];

	if (ti == UINT32_MAX) {
		report_frame_name(r, f, REPORT_PLAIN, a->name, NAME_LEN);
		ti = ct_title_intern(&a->t, a->name, 0);
		if (ti == UINT32_MAX)
			return NULL;
		cache[f] = ti;
	}
	if (ti >= a->cap) {
		uint32_t old = a->cap;

		if (GROW(a->rows, a->cap, (size_t)ti + 1))
			return NULL;
		memset(a->rows + old, 0, (a->cap - old) * sizeof(*a->rows));
	}
	a->rows[ti].title = ti;
	return &a->rows[ti];
}

static int add(struct acc *a, const struct report *r, int which)
{
	size_t nids = (size_t)r->p->nframes + r->nlabels;
	uint32_t *cache = malloc((nids ? nids : 1) * sizeof(*cache));

	if (!cache)
		return -1;
	memset(cache, 0xff, (nids ? nids : 1) * sizeof(*cache));
	for (uint32_t i = 0; i < a->cap; i++)
		a->rows[i].stamp = 0;
	for (size_t i = 0; i < r->nstacks; i++) {
		const struct report_stack *s = &r->stacks[i];
		uint64_t c = report_count(r, s);
		struct row *w;

		for (uint32_t j = 0; j < s->nframes; j++) {
			w = row_of(a, r, s->frames[j], cache);
			if (!w)
				goto fail;
			if (w->stamp != i + 1) {
				w->stamp = i + 1;
				w->total[which] += c;
			}
		}
		w = row_of(a, r, report_leaf(r, s), cache);
		if (!w)
			goto fail;
		w->self[which] += c;
	}
	free(cache);
	return 0;
fail:
	free(cache);
	return -1;
}

static double share(uint64_t v, uint64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0.0;
}

static int by_key(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->key != y->key)
		return x->key > y->key ? -1 : 1;
	return x->title < y->title ? -1 : x->title > y->title;
}

int report_diff_text(FILE *out, const struct report *r)
{
	const struct report *b = r->base;
	uint64_t tot[2] = { report_total(b), report_total(r) };
	struct acc a = { 0 };
	size_t n = 0;
	int ret = -1;

	ct_titles_init(&a.t);
	a.name = malloc(NAME_LEN);
	if (!a.name || add(&a, b, 0) || add(&a, r, 1))
		goto out;
	for (uint32_t i = 0; i < a.t.n; i++) {
		struct row *w = &a.rows[i];
		double dt =
		    share(w->total[1], tot[1]) - share(w->total[0], tot[0]);
		double ds =
		    share(w->self[1], tot[1]) - share(w->self[0], tot[0]);

		w->key = fmax(fabs(dt), fabs(ds));
		if (w->key > 0)
			a.rows[n++] = *w;
	}
	qsort(a.rows, n, sizeof(*a.rows), by_key);
	fprintf(out,
		"--- perfjava differential report ---\n"
		"%-20s: %s (%llu %s)\n%-20s: %s (%llu %s)\n"
		"%-20s: %s\n\n",
		"Baseline", r->o->diff, (unsigned long long)tot[0],
		r->o->total ? b->unit : "samples", "Profile", r->o->input,
		(unsigned long long)tot[1], r->o->total ? r->unit : "samples",
		"Shares", "percent of each profile's total");
	fprintf(out, "%8s %8s %8s  %8s %8s %8s  %s\n", "total", "", "", "self",
		"", "", "");
	fprintf(out, "%8s %8s %8s  %8s %8s %8s  %s\n", "old%", "new%", "change",
		"old%", "new%", "change", "frame");
	for (size_t i = 0; i < n && i < r->o->top; i++) {
		const struct row *w = &a.rows[i];
		double to = share(w->total[0], tot[0]);
		double tn = share(w->total[1], tot[1]);
		double so = share(w->self[0], tot[0]);
		double sn = share(w->self[1], tot[1]);

		fprintf(out, "%8.2f %8.2f %+8.2f  %8.2f %8.2f %+8.2f  %s\n", to,
			tn, tn - to, so, sn, sn - so, a.t.name[w->title]);
	}
	if (!n)
		fprintf(out, "(no frame changed its share)\n");
	ret = 0;
out:
	free(a.rows);
	free(a.name);
	ct_titles_free(&a.t);
	return ret;
}

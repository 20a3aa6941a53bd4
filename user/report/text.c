// SPDX-License-Identifier: GPL-2.0
/*
 * The text report: a summary, the hottest stacks and the hottest leaf frames,
 * in async-profiler's layout:
 *
 *   --- 123450000 ns (45.67%), 1234 samples
 *     [ 0] leaf
 *     [ 1] caller
 *
 *             ns  percent  samples  top
 *     ----------  -------  -------  ---
 *      123450000   45.67%     1234  leaf
 */
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

#define NAME_MAX_LEN 4096

static double pct(const struct report *r, uint64_t w)
{
	return r->total_weight ? 100.0 * (double)w / (double)r->total_weight
			       : 0.0;
}

static const struct report *sort_r;

static int by_weight(const void *a, const void *b)
{
	const struct report_stack *x = &sort_r->stacks[*(const size_t *)a];
	const struct report_stack *y = &sort_r->stacks[*(const size_t *)b];

	if (x->weight != y->weight)
		return x->weight > y->weight ? -1 : 1;
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void stacks(FILE *out, const struct report *r, char *name)
{
	size_t *idx = malloc((r->nstacks ? r->nstacks : 1) * sizeof(*idx));
	size_t n = r->nstacks < r->o->top ? r->nstacks : r->o->top;

	if (!idx)
		return;
	for (size_t i = 0; i < r->nstacks; i++)
		idx[i] = i;
	sort_r = r;
	qsort(idx, r->nstacks, sizeof(*idx), by_weight);
	for (size_t i = 0; i < n; i++) {
		const struct report_stack *s = &r->stacks[idx[i]];

		fprintf(out, "--- %llu %s (%.2f%%), %llu sample%s\n",
			(unsigned long long)s->weight, r->unit,
			pct(r, s->weight), (unsigned long long)s->samples,
			s->samples == 1 ? "" : "s");
		for (uint32_t j = 0; j < s->nframes; j++)
			fprintf(out, "  [%2u] %s\n", j,
				report_frame_name(
				    r, s->frames[s->nframes - 1 - j],
				    REPORT_PLAIN, name, NAME_MAX_LEN));
		fprintf(out, "\n");
	}
	free(idx);
}

struct leaf {
	char *name;
	uint64_t weight, samples;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct leaf *)a)->name,
		      ((const struct leaf *)b)->name);
}

static int leaf_by_weight(const void *a, const void *b)
{
	const struct leaf *x = a, *y = b;

	if (x->weight != y->weight)
		return x->weight > y->weight ? -1 : 1;
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The flat table: self weight of each leaf frame name. */
static int flat(FILE *out, const struct report *r, char *name)
{
	size_t nids = (size_t)r->p->nframes + r->nlabels, n = 0, m = 0;
	struct leaf *byid = calloc(nids ? nids : 1, sizeof(*byid));
	struct leaf *l = NULL;
	int ret = -1;

	if (!byid)
		return -1;
	for (size_t i = 0; i < r->nstacks; i++) {
		const struct report_stack *s = &r->stacks[i];
		uint32_t leaf = report_leaf(r, s);

		byid[leaf].weight += s->weight;
		byid[leaf].samples += s->samples;
	}
	for (size_t i = 0; i < nids; i++)
		if (byid[i].samples)
			n++;
	l = calloc(n ? n : 1, sizeof(*l));
	if (!l)
		goto out;
	for (size_t i = 0; i < nids; i++) {
		if (!byid[i].samples)
			continue;
		l[m] = byid[i];
		report_frame_name(r, (uint32_t)i, REPORT_PLAIN, name,
				  NAME_MAX_LEN);
		l[m].name = strdup(name);
		if (!l[m++].name)
			goto out;
	}
	/* Frames with the same name (e.g. in two modules) are one row. */
	qsort(l, m, sizeof(*l), by_name);
	n = 0;
	for (size_t i = 0; i < m; i++) {
		if (n && !strcmp(l[n - 1].name, l[i].name)) {
			l[n - 1].weight += l[i].weight;
			l[n - 1].samples += l[i].samples;
			free(l[i].name);
			l[i].name = NULL;
			continue;
		}
		l[n++] = l[i];
	}
	m = n;
	qsort(l, m, sizeof(*l), leaf_by_weight);
	fprintf(out, "%12s  percent  samples  top\n", r->unit);
	fprintf(out, "  ----------  -------  -------  ---\n");
	for (size_t i = 0; i < m && i < r->o->top; i++)
		fprintf(out, "%12llu  %6.2f%%  %7llu  %s\n",
			(unsigned long long)l[i].weight, pct(r, l[i].weight),
			(unsigned long long)l[i].samples, l[i].name);
	ret = 0;
out:
	if (l)
		for (size_t i = 0; i < m; i++)
			free(l[i].name);
	free(l);
	free(byid);
	return ret;
}

int report_text(FILE *out, const struct report *r)
{
	char *name = malloc(NAME_MAX_LEN);
	int ret;

	if (!name)
		return -1;
	report_header(out, r);
	if (!r->total_samples)
		fprintf(out, "(no samples)\n\n");
	ret = r->o->processes && r->total_samples
		  ? report_processes_text(out, r)
		  : 0;
	if (!ret) {
		stacks(out, r, name);
		ret = flat(out, r, name);
	}
	free(name);
	return ret;
}

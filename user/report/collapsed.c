// SPDX-License-Identifier: GPL-2.0
/*
 * The collapsed ("folded") report of Brendan Gregg's FlameGraph tools: one
 * line per unique stack, frames root first separated by ';', then a space
 * and the count (samples, or the weight with --total). Frame names carry
 * async-profiler's suffixes (_[j] _[i] _[0] _[1] _[k]) and never contain ';'.
 * Stacks that fold to the same line are merged; lines are sorted.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "report/report.h"

#define NAME_MAX_LEN 4096

struct line {
	char *text;
	uint64_t count;
};

static int by_text(const void *a, const void *b)
{
	return strcmp(((const struct line *)a)->text,
		      ((const struct line *)b)->text);
}

static char *fold(const struct report *r, const struct report_stack *s,
		  char *name)
{
	size_t len = 0, cap = 256;
	char *t = malloc(cap);

	if (!t)
		return NULL;
	t[0] = 0;
	for (uint32_t j = 0; j < s->nframes; j++) {
		size_t n;

		report_frame_name(r, s->frames[j], REPORT_FOLDED, name,
				  NAME_MAX_LEN);
		n = strlen(name);
		if (GROW(t, cap, len + n + 2)) {
			free(t);
			return NULL;
		}
		if (j)
			t[len++] = ';';
		memcpy(t + len, name, n + 1);
		len += n;
	}
	return t;
}

int report_collapsed(FILE *out, const struct report *r)
{
	struct line *l = calloc(r->nstacks ? r->nstacks : 1, sizeof(*l));
	char *name = malloc(NAME_MAX_LEN);
	size_t n = 0, nl = r->nstacks; /* entries of l to free */
	int ret = -1;

	if (!l || !name)
		goto out;
	for (size_t i = 0; i < r->nstacks; i++) {
		const struct report_stack *s = &r->stacks[i];

		l[i].text = fold(r, s, name);
		l[i].count = r->o->total ? s->weight : s->samples;
		if (!l[i].text)
			goto out;
	}
	qsort(l, r->nstacks, sizeof(*l), by_text);
	for (size_t i = 0; i < r->nstacks; i++) {
		if (n && !strcmp(l[n - 1].text, l[i].text)) {
			l[n - 1].count += l[i].count;
			free(l[i].text);
			continue;
		}
		l[n++] = l[i];
	}
	nl = n;
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s %llu\n", l[i].text,
			(unsigned long long)l[i].count);
	ret = 0;
out:
	if (l)
		for (size_t i = 0; i < nl; i++)
			free(l[i].text);
	free(l);
	free(name);
	return ret;
}

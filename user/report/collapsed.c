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

/* Each frame's folded name, made once: stacks share most of their frames. */
struct names {
	const struct report *r;
	char **name; /* by frame id, NULL until first used */
	uint32_t *len;
	char *buf;
};

static int by_text(const void *a, const void *b)
{
	return strcmp(((const struct line *)a)->text,
		      ((const struct line *)b)->text);
}

static const char *name_of(struct names *nm, uint32_t f, uint32_t *len)
{
	if (!nm->name[f]) {
		size_t n;

		report_frame_name(nm->r, f, REPORT_FOLDED, nm->buf,
				  NAME_MAX_LEN);
		n = strlen(nm->buf);
		nm->name[f] = malloc(n + 1);
		if (!nm->name[f])
			return NULL;
		memcpy(nm->name[f], nm->buf, n + 1);
		nm->len[f] = (uint32_t)n;
	}
	*len = nm->len[f];
	return nm->name[f];
}

static char *fold(struct names *nm, const struct report_stack *s)
{
	size_t len = 0, cap = 0;
	char *t = NULL;

	for (uint32_t j = 0; j < s->nframes; j++) {
		uint32_t n;
		const char *name = name_of(nm, s->frames[j], &n);

		if (!name || GROW(t, cap, len + n + 2)) {
			free(t);
			return NULL;
		}
		if (j)
			t[len++] = ';';
		memcpy(t + len, name, n);
		len += n;
	}
	if (!t)
		return strdup("");
	t[len] = 0;
	return t;
}

int report_collapsed(FILE *out, const struct report *r)
{
	struct line *l = calloc(r->nstacks ? r->nstacks : 1, sizeof(*l));
	size_t nids = (size_t)r->p->nframes + r->nlabels;
	struct names nm = { .r = r,
			    .name = calloc(nids ? nids : 1, sizeof(char *)),
			    .len = calloc(nids ? nids : 1, sizeof(uint32_t)),
			    .buf = malloc(NAME_MAX_LEN) };
	size_t n = 0, nl = r->nstacks; /* entries of l to free */
	int ret = -1;

	if (!l || !nm.name || !nm.len || !nm.buf)
		goto out;
	for (size_t i = 0; i < r->nstacks; i++) {
		const struct report_stack *s = &r->stacks[i];

		l[i].text = fold(&nm, s);
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
	for (size_t i = 0; nm.name && i < nids; i++)
		free(nm.name[i]);
	free(nm.name);
	free(nm.len);
	free(nm.buf);
	return ret;
}

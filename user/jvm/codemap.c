// SPDX-License-Identifier: GPL-2.0
/*
 * The JIT code map (jvm/codemap.h): kept sorted by start address and not
 * overlapping. A new entry replaces whatever it overlaps; an unload removes
 * its entry.
 */
#include <stdlib.h>
#include <string.h>

#include "jvm/codemap.h"

static void remove_at(struct codemap *cm, size_t i)
{
	memmove(&cm->e[i], &cm->e[i + 1], (cm->n - i - 1) * sizeof(*cm->e));
	cm->n--;
}

/* Index of the first entry with end > addr. */
static size_t lower(const struct codemap *cm, uint64_t addr)
{
	size_t lo = 0, hi = cm->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (cm->e[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int codemap_add(struct codemap *cm, uint64_t start, uint64_t size,
		uint64_t method, int type, const char *name)
{
	struct codemap_entry e = {
		.start = start,
		.end = start + size,
		.method = method,
		.type = type,
		.name = name,
	};
	size_t i;

	if (!size || e.end < start)
		return -1;
	i = lower(cm, e.start);
	while (i < cm->n && cm->e[i].start < e.end)
		remove_at(cm, i); /* replaced: the old code is gone */
	if (cm->n == cm->cap) {
		size_t cap = cm->cap ? cm->cap * 2 : 1024;
		struct codemap_entry *n = realloc(cm->e, cap * sizeof(*n));

		if (!n)
			return -1;
		cm->e = n;
		cm->cap = cap;
	}
	memmove(&cm->e[i + 1], &cm->e[i], (cm->n - i) * sizeof(*cm->e));
	cm->e[i] = e;
	cm->n++;
	return 0;
}

void codemap_remove(struct codemap *cm, uint64_t start, uint64_t method)
{
	size_t i = lower(cm, start);

	if (i < cm->n && cm->e[i].start == start && cm->e[i].method == method)
		remove_at(cm, i);
}

void codemap_retype(struct codemap *cm, uint64_t method, int type)
{
	for (size_t i = 0; method && i < cm->n; i++)
		if (cm->e[i].method == method)
			cm->e[i].type = type;
}

const struct codemap_entry *codemap_find(const struct codemap *cm,
					 uint64_t addr)
{
	size_t i;

	if (!cm)
		return NULL;
	i = lower(cm, addr);
	if (i >= cm->n || cm->e[i].start > addr)
		return NULL;
	return &cm->e[i];
}

int codemap_type_at(const struct codemap *cm, uint64_t addr, const char **name)
{
	const struct codemap_entry *e = codemap_find(cm, addr);

	if (!e)
		return 0;
	if (name)
		*name = e->name;
	return e->type;
}

void codemap_free(struct codemap *cm)
{
	free(cm->e);
	memset(cm, 0, sizeof(*cm));
}

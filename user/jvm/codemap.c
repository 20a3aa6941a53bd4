// SPDX-License-Identifier: GPL-2.0
/*
 * The JIT code map the agent streams (jvm/client.h): compiled methods, stubs and
 * the interpreter, kept sorted by start address and not overlapping. A new
 * entry replaces whatever it overlaps; an unload removes its entry.
 */
#include <stdlib.h>
#include <string.h>

#include "jvm/client_internal.h"

static void code_remove_at(struct agent *a, size_t i)
{
	memmove(&a->code[i], &a->code[i + 1],
		(a->ncode - i - 1) * sizeof(*a->code));
	a->ncode--;
}

/* Index of the first entry with end > addr. */
static size_t code_lower(const struct agent *a, uint64_t addr)
{
	size_t lo = 0, hi = a->ncode;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (a->code[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void agent_code_load(struct agent *a, const char *p, uint32_t len)
{
	struct pja_code c;
	struct code e;
	size_t i;

	if (len < sizeof(c))
		goto bad;
	memcpy(&c, p, sizeof(c));
	if (c.name_len > len - sizeof(c) || !c.size ||
	    c.start + c.size < c.start)
		goto bad;
	e.start = c.start;
	e.end = c.start + c.size;
	e.method = c.method;
	e.type = c.type;
	e.name = agent_intern(a, p + sizeof(c), c.name_len);
	i = code_lower(a, e.start);
	while (i < a->ncode && a->code[i].start < e.end)
		code_remove_at(a, i); /* replaced: the old code is gone */
	if (a->ncode >= AGENT_MAX_CODE)
		goto bad;
	if (a->ncode == a->code_cap) {
		size_t cap = a->code_cap ? a->code_cap * 2 : 1024;
		struct code *n = realloc(a->code, cap * sizeof(*n));

		if (!n)
			goto bad;
		a->code = n;
		a->code_cap = cap;
	}
	memmove(&a->code[i + 1], &a->code[i],
		(a->ncode - i) * sizeof(*a->code));
	a->code[i] = e;
	a->ncode++;
	a->stats.code_loads++;
	return;
bad:
	a->stats.dropped++;
}

void agent_code_unload(struct agent *a, const char *p, uint32_t len)
{
	struct pja_code_unload u;
	size_t i;

	if (len < sizeof(u)) {
		a->stats.dropped++;
		return;
	}
	memcpy(&u, p, sizeof(u));
	i = code_lower(a, u.start);
	if (i < a->ncode && a->code[i].start == u.start &&
	    a->code[i].method == u.method)
		code_remove_at(a, i);
}

int agent_code_at(const struct agent *a, uint64_t addr, const char **name)
{
	size_t i;

	if (!a)
		return 0;
	i = code_lower(a, addr);
	if (i >= a->ncode || a->code[i].start > addr)
		return 0;
	if (name)
		*name = a->code[i].name;
	return a->code[i].type;
}

int agent_code_entry(const struct agent *a, size_t i, uint64_t *start,
		     uint64_t *size, const char **name)
{
	if (!a || i >= a->ncode)
		return 0;
	*start = a->code[i].start;
	*size = a->code[i].end - a->code[i].start;
	*name = a->code[i].name;
	return a->code[i].type;
}

// SPDX-License-Identifier: GPL-2.0
/* An open-addressing index over the caller's array; see lib/idtable.h. */
#include <stdlib.h>

#include "lib/idtable.h"

#define IDTABLE_FIRST 1024

/* Doubles t (or makes its first slots), rehashing its n entries. */
static int grow(struct idtable *t, idtable_hash_fn *hash_of, const void *ctx)
{
	size_t ncap = t->slots ? (t->mask + 1) * 2 : IDTABLE_FIRST;
	uint32_t *s;

	if (ncap > (size_t)UINT32_MAX + 1)
		return -1;
	s = calloc(ncap, sizeof(*s));
	if (!s)
		return -1;
	for (size_t k = 0; t->slots && k <= t->mask; k++) {
		uint32_t v = t->slots[k];
		size_t j;

		if (!v)
			continue;
		for (j = hash_of(ctx, v - 1) & (ncap - 1); s[j];
		     j = (j + 1) & (ncap - 1))
			;
		s[j] = v;
	}
	free(t->slots);
	t->slots = s;
	t->mask = ncap - 1;
	return 0;
}

int idtable_add(struct idtable *t, uint64_t h, uint32_t i,
		idtable_hash_fn *hash_of, const void *ctx)
{
	size_t j;

	/* Load under 1/2; when growing fails, up to 3/4 still goes. */
	if (!t->slots || ((size_t)t->n + 1) * 2 > t->mask + 1) {
		if (grow(t, hash_of, ctx) &&
		    (!t->slots || ((size_t)t->n + 1) * 4 > (t->mask + 1) * 3))
			return -1;
	}
	for (j = idtable_first(t, h); t->slots[j]; j = idtable_next(t, j))
		;
	t->slots[j] = i + 1;
	t->n++;
	return 0;
}

void idtable_free(struct idtable *t)
{
	free(t->slots);
	t->slots = NULL;
	t->mask = 0;
	t->n = 0;
}

// SPDX-License-Identifier: GPL-2.0
/* Each Java thread's native base with --native-base; see pipeline/bases.h. */
#include <stdlib.h>

#include "pipeline/bases.h"
#include "pipeline/merge.h"

#define MAX_BASES 65536 /* threads with a base; more get none */

struct merge_base *bases_of(struct bases *b, uint32_t tid)
{
	union u64map_val *slot;

	if (!b->on)
		return NULL;
	slot = b->m.n < MAX_BASES ? u64map_slot(&b->m, (uint64_t)tid + 1)
				  : u64map_find(&b->m, (uint64_t)tid + 1);
	if (slot && !slot->p)
		slot->p = calloc(1, sizeof(struct merge_base));
	return slot ? slot->p : NULL;
}

void bases_forget(struct bases *b)
{
	union u64map_val *v;
	uint64_t k;

	for (uint32_t i = 0; u64map_next(&b->m, &i, &k, &v);)
		free(v->p);
	u64map_free(&b->m);
}

// SPDX-License-Identifier: GPL-2.0
/* Each Java thread's native base with --native-base; see record/bases.h. */
#include <stdlib.h>

#include "record/bases.h"
#include "record/merge.h"

#define MAX_BASES 65536 /* threads with a base; more get none */

struct merge_base *bases_of(struct bases *b, uint32_t tid)
{
	void **slot;

	if (!b->on)
		return NULL;
	slot = umap_slot(&b->m, (uint64_t)tid + 1, b->m.n < MAX_BASES);
	if (slot && !*slot)
		*slot = calloc(1, sizeof(struct merge_base));
	return slot ? *slot : NULL;
}

void bases_forget(struct bases *b)
{
	for (size_t i = 0; i < b->m.cap; i++)
		if (b->m.k && b->m.k[i])
			free(b->m.v[i]);
	free(b->m.k);
	free(b->m.v);
	b->m = (struct umap){ 0 };
}

// SPDX-License-Identifier: GPL-2.0
/*
 * record --native-base: each Java thread's native base (the frames below its
 * outermost Java frame), kept across its samples so that all of them end the
 * same way (record/merge.h). Frame ids are the file's: --loop forgets them
 * with each new file.
 */
#include <stdlib.h>

#include "record/record.h"

#define MAX_BASES 65536 /* threads with a base; more get none */

struct merge_base *record_thread_base(struct recorder *rec, uint32_t tid)
{
	void **slot;

	if (!rec->o.native_base)
		return NULL;
	slot =
	    umap_slot(&rec->bases, (uint64_t)tid + 1, rec->bases.n < MAX_BASES);
	if (slot && !*slot)
		*slot = calloc(1, sizeof(struct merge_base));
	return slot ? *slot : NULL;
}

void record_forget_bases(struct recorder *rec)
{
	for (size_t i = 0; i < rec->bases.cap; i++)
		if (rec->bases.k && rec->bases.k[i])
			free(rec->bases.v[i]);
	free(rec->bases.k);
	free(rec->bases.v);
	rec->bases = (struct umap){ 0 };
}

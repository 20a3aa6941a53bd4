// SPDX-License-Identifier: GPL-2.0
/* Folding samples into weighted unique stacks (see report/stackfold.h). */
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "lib/hash.h"
#include "report/stackfold.h"

void stackfold_init(struct stackfold *f)
{
	memset(f, 0, sizeof(*f));
}

static uint64_t key_hash(uint32_t stack, uint32_t pid, uint32_t tid)
{
	return hash_u64(((uint64_t)tid << 32 | stack) ^ hash_u64(pid));
}

static uint64_t entry_hash(const void *ctx, uint32_t i)
{
	const struct fold_entry *e = &((const struct stackfold *)ctx)->ents[i];

	return key_hash(e->stack, e->pid, e->tid);
}

int stackfold_add(struct stackfold *f, uint32_t stack, uint32_t pid,
		  uint32_t tid, uint64_t weight, uint64_t samples,
		  uint64_t count)
{
	uint64_t h = key_hash(stack, pid, tid);
	uint32_t v;

	for (size_t j = idtable_first(&f->index, h);
	     (v = idtable_at(&f->index, j)); j = idtable_next(&f->index, j)) {
		struct fold_entry *e = &f->ents[v - 1];

		if (e->stack == stack && e->tid == tid && e->pid == pid) {
			e->weight += weight;
			e->samples += samples;
			e->count += count;
			f->last = v - 1;
			return 0;
		}
	}
	if (f->n + 1 > UINT32_MAX - 1 || GROW(f->ents, f->cap, f->n + 1))
		return -1;
	f->ents[f->n] =
	    (struct fold_entry){ stack, pid, tid, weight, samples, count };
	if (idtable_add(&f->index, h, (uint32_t)f->n, entry_hash, f))
		return -1;
	f->last = f->n++;
	return 0;
}

void stackfold_free(struct stackfold *f)
{
	free(f->ents);
	idtable_free(&f->index);
	stackfold_init(f);
}

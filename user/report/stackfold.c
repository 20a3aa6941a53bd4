// SPDX-License-Identifier: GPL-2.0
/* Folding samples into weighted unique stacks (see report/stackfold.h). */
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "report/stackfold.h"

void stackfold_init(struct stackfold *f)
{
	memset(f, 0, sizeof(*f));
}

static size_t slot_of(const struct stackfold *f, uint32_t stack, uint32_t tid)
{
	uint64_t h = ((uint64_t)tid << 32 | stack) * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 32) & f->mask;
}

static int rehash(struct stackfold *f)
{
	size_t ncap = f->mask ? (f->mask + 1) * 2 : 1024;
	uint32_t *s = calloc(ncap, sizeof(*s));

	if (!s)
		return -1;
	free(f->slots);
	f->slots = s;
	f->mask = ncap - 1;
	for (size_t i = 0; i < f->n; i++) {
		size_t j = slot_of(f, f->ents[i].stack, f->ents[i].tid);

		while (s[j])
			j = (j + 1) & f->mask;
		s[j] = (uint32_t)(i + 1);
	}
	return 0;
}

int stackfold_add(struct stackfold *f, uint32_t stack, uint32_t tid,
		  uint64_t weight)
{
	struct fold_entry *e;
	size_t j;

	if ((f->n + 1) * 2 > f->mask && rehash(f))
		return -1;
	for (j = slot_of(f, stack, tid); f->slots[j]; j = (j + 1) & f->mask) {
		e = &f->ents[f->slots[j] - 1];
		if (e->stack == stack && e->tid == tid) {
			e->weight += weight;
			e->samples++;
			return 0;
		}
	}
	if (f->n + 1 > UINT32_MAX - 1 || GROW(f->ents, f->cap, f->n + 1))
		return -1;
	f->ents[f->n] = (struct fold_entry){ stack, tid, weight, 1 };
	f->slots[j] = (uint32_t)++f->n;
	return 0;
}

void stackfold_free(struct stackfold *f)
{
	free(f->ents);
	free(f->slots);
	stackfold_init(f);
}

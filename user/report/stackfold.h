/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Folding samples into weighted unique stacks: a hash map from (stack id,
 * pid, tid) to the sum of weights and the number of samples, which keeps
 * its entries in order of first appearance.
 */
#ifndef PJ_USER_STACKFOLD_H
#define PJ_USER_STACKFOLD_H

#include <stddef.h>
#include <stdint.h>

#include "lib/idtable.h"

struct fold_entry {
	uint32_t stack, pid, tid;
	uint64_t weight, samples;
	uint64_t count; /* the occurrences the samples stand for */
};

struct stackfold {
	struct fold_entry *ents;
	size_t n, cap;
	struct idtable index; /* (stack, pid, tid) -> entry */
	size_t last; /* the entry of the last sample added */
};

void stackfold_init(struct stackfold *f);
/* Adds a sample standing for samples of them (a JFR batch) and count
 * occurrences; -1 when out of memory. */
int stackfold_add(struct stackfold *f, uint32_t stack, uint32_t pid,
		  uint32_t tid, uint64_t weight, uint64_t samples,
		  uint64_t count);
void stackfold_free(struct stackfold *f);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record --native-base: each Java thread's native base (the frames below its
 * outermost Java frame), kept across its samples so that all of them end the
 * same way (pipeline/merge.h). Frame ids are the file's: --loop forgets them
 * with each new file.
 */
#ifndef PJ_USER_PIPELINE_BASES_H
#define PJ_USER_PIPELINE_BASES_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/u64map.h"

struct merge_base;

struct bases {
	bool on; /* --native-base */
	struct u64map m; /* tid + 1 -> struct merge_base */
};

/* tid's native base with --native-base, else NULL. */
struct merge_base *bases_of(struct bases *b, uint32_t tid);
/* All of them forgotten (a new file's frame ids, or the end). */
void bases_forget(struct bases *b);

#endif

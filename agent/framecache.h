/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PJ_AGENT_FRAMECACHE_H
#define PJ_AGENT_FRAMECACHE_H

#include "pja.h"

/* framecache.c: a caller's frame as the walk steps over it (vmwalk.c), by
 * its return address. */
struct pja_step {
	uint64_t blob; /* the code blob (struct pja_blob's at) */
	uint64_t tag; /* a compiled method's jmethodID; a stub's name */
	unsigned int words; /* its frame's size (PJA_STEP_WORDS at most) */
	unsigned int flags; /* PJA_STEP_NMETHOD, PJA_STEP_NATIVE */
};
#define PJA_STEP_WORDS 0xffffu
#define PJA_STEP_NMETHOD 0x10000u /* a compiled Java method's */
#define PJA_STEP_NATIVE 0x20000u /* a native method's wrapper */
/* 1 and *e when the table holds pc, else 0. */
int framecache_get(uint64_t pc, struct pja_step *e);
/* Remembers *e for pc, unless another writer holds its entry. */
void framecache_put(uint64_t pc, const struct pja_step *e);

#endif

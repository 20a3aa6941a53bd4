/* SPDX-License-Identifier: GPL-2.0 */
/* A ring sample's user frames through the unwinder (unwind/unwind.h): the
 * glue between the perf record parser and unwind/, which knows no record. */
#ifndef PJ_USER_RECORD_USTACK_H
#define PJ_USER_RECORD_USTACK_H

#include "record/perf_parse.h"
#include "unwind/unwind.h"

/*
 * The user frames of rs, leaf first, into out (at most max): CFI over the
 * sample's stack copy, joined with the kernel's frame-pointer chain
 * fips[0..nf) where the copy ended (unwind_join; prefer_cfi with -g dwarf,
 * whose copy is large). *end says how CFI ended; UNWIND_BAD and the chain
 * as it is when the sample has no user registers.
 */
unsigned int unwind_user(struct unwinder *u, bool prefer_cfi,
			 const struct pj_raw_sample *rs, const uint64_t *fips,
			 unsigned int nf, uint64_t *out, unsigned int max,
			 enum unwind_end *end);

#endif

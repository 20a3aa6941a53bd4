/* SPDX-License-Identifier: GPL-2.0 */
/* A ring sample's user frames through the unwinder (unwind/unwind.h): the
 * glue between the perf record parser and unwind/, which knows no record. */
#ifndef PJ_USER_PIPELINE_USTACK_H
#define PJ_USER_PIPELINE_USTACK_H

#include "rings/perf_parse.h"
#include "unwind/unwind.h"

/* The frames CFI found, before the join: each one's pc, stack pointer and
 * rbp (0: not known), leaf first. Valid until the next unwind_user. */
struct ustack_cfi {
	const uint64_t *ips, *sps, *bps;
	unsigned int n;
};

/*
 * The user frames of rs, leaf first, into out (at most max): CFI over the
 * sample's stack copy, joined with the kernel's frame-pointer chain
 * fips[0..nf) where the copy ended (unwind_join; prefer_cfi with -g dwarf,
 * whose copy is large; stop_at_jit ends CFI at the first frame in JIT
 * code, unwind_out's stop_at_anon). *end says how CFI ended; UNWIND_BAD and the chain
 * as it is when the sample has no user registers. cfi (when not NULL)
 * gets the CFI frames (none without registers).
 */
unsigned int unwind_user(struct unwinder *u, bool prefer_cfi, bool stop_at_jit,
			 const struct pj_raw_sample *rs, const uint64_t *fips,
			 unsigned int nf, uint64_t *out, unsigned int max,
			 enum unwind_end *end, struct ustack_cfi *cfi);

struct codemap;
struct stack_copy;

/*
 * Where the Java frames of a stack copy (stack, len bytes from the first CFI
 * frame's stack pointer up) start: the first frame CFI found whose pc is in
 * the JVM's generated code (cm, or anonymous executable memory: code the
 * agent has not told of yet), with the copy from its stack pointer up, into
 * out (the agent walks the Java frames there: pipeline/offjava.c).
 * out->stack stays NULL when no frame is, or its stack lies outside the copy.
 */
void ustack_java_copy(const struct unwinder *u, const struct ustack_cfi *cfi,
		      const struct codemap *cm, const uint8_t *stack,
		      uint64_t len, struct stack_copy *out);

/*
 * When CFI found no such frame in the copy (out->stack NULL): the first
 * frame of the kernel's frame-pointer chain fips[0..nf) (fips[0] the pc) in
 * the JVM's code, found by following rs's rbp through its copy, each link
 * checked against the chain. Either a copy from that frame up (as above),
 * or, when the chain leaves the copy first, the chain's remaining return
 * addresses and the first link outside the copy (out->nchain, out->fp):
 * the agent follows them in the live stack (PJA_COPY_CHAIN).
 */
void ustack_java_chain(const struct unwinder *u, const struct codemap *cm,
		       const struct pj_raw_sample *rs, const uint64_t *fips,
		       unsigned int nf, struct stack_copy *out);

#endif

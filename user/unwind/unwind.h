/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Unwinding a sample's user stack in the reader, out of the target: the
 * registers and the top of the stack the kernel copied into the sample
 * (PERF_SAMPLE_REGS_USER, PERF_SAMPLE_STACK_USER) are walked with the call
 * frame information of the mapped files (.eh_frame, .debug_frame, also from
 * separate debug files) through libdw's Dwfl unwinder. Where no CFI covers
 * the code (JIT code), libdw continues by frame pointer from the registers
 * the CFI recovered. One unwinder per process; the files' CFI stays cached in
 * it between samples. x86-64 only.
 */
#ifndef PJ_USER_UNWIND_H
#define PJ_USER_UNWIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The user registers a sample carries (sample_regs_user): the general
 * registers, ip and sp (asm/perf_regs.h numbering), no segment registers. */
#define UNWIND_REGS_MASK 0xff01ffULL
/* DWARF register numbers of x86-64: rax rdx rcx rbx rsi rdi rbp rsp
 * r8..r15, then the return address column (the pc). */
#define UNWIND_NREGS 17
#define UNWIND_DW_BP 6
#define UNWIND_DW_SP 7
#define UNWIND_DW_PC 16

/* How a stack's unwinding ended. */
enum unwind_end {
	UNWIND_COMPLETE, /* the outermost frame (or the frame limit) */
	UNWIND_CUT, /* needed stack beyond the copied part */
	UNWIND_NO_CFI, /* code that neither CFI nor frame pointer unwinds */
	UNWIND_BAD, /* no registers, or a stack that loops */
	UNWIND_NO_COPY, /* the kernel copied no stack (it could not) */
	UNWIND_NEND
};

struct unwinder;

struct unwind_out {
	uint64_t *ips; /* leaf first: the pc, then return addresses */
	uint64_t *sps; /* each frame's stack pointer (may be NULL) */
	unsigned int max, n;
	enum unwind_end end;
	uint64_t *bps; /* each frame's rbp, 0 when not known (may be NULL) */
	/* end at the first frame in anonymous executable memory (a JIT's
	 * code, which no CFI describes), kept: end UNWIND_NO_CFI */
	bool stop_at_anon;
};

/* NULL on allocation failure. Files are read below /proc/PID/root. */
struct unwinder *unwinder_new(pid_t pid);
void unwinder_free(struct unwinder *u);

/*
 * Converts the sample's registers (regs[i] for each bit of mask, lowest bit
 * first, perf_regs.h numbering) to DWARF order. false when sp or ip is
 * missing.
 */
bool unwind_regs_from_perf(const uint64_t *regs, unsigned int nregs,
			   uint64_t mask, uint64_t dw[UNWIND_NREGS]);

/*
 * Unwinds one sample of thread tid: dw the registers (DWARF order), stack the
 * len bytes copied from dw[UNWIND_DW_SP] up. Fills out->ips (and out->sps)
 * with at most out->max frames. Never fails: a damaged copy or registers
 * give fewer frames.
 */
void unwind_sample(struct unwinder *u, pid_t tid, const uint64_t *dw,
		   const void *stack, size_t len, struct unwind_out *out);

/* Whether addr lies in anonymous executable memory (a JIT's code), as far
 * as the last maps read tell. */
bool unwind_addr_anon(const struct unwinder *u, uint64_t addr);
/* Whether addr lies in executable memory of any kind, likewise. */
bool unwind_addr_code(const struct unwinder *u, uint64_t addr);

/* Statistics of the unwinder's work (for tests and the summary). */
struct unwind_counts {
	uint64_t fast; /* samples unwound by the rows kept (unwind/rules.c) */
	uint64_t libdw; /* by libdw, a row needing it */
	uint64_t checked, differ; /* PERFJAVA_UNWIND_CHECK: both ways */
};
const struct unwind_counts *unwinder_counts(const struct unwinder *u);
/* Tests: the check mode on or off (default: PERFJAVA_UNWIND_CHECK). */
void unwinder_set_check(struct unwinder *u, bool check);
unsigned int unwinder_modules(const struct unwinder *u);
unsigned int unwinder_reloads(const struct unwinder *u);

/*
 * The default mode's join: the frames CFI found in a small stack copy
 * (dips/dsps, nd of them, ending as end says) with the kernel's
 * frame-pointer chain (fips, nf, fips[0] the sampled pc) that started at
 * frame pointer bp; stack/sp/len the copy, to follow the chain's links in
 * it. The chain's second entry was read at bp + 8, so the CFI frame whose
 * stack pointer is bp + 16 is where both agree (likewise further up): the
 * CFI frames below the deepest such frame are kept, then the chain from
 * there. Without a common frame: all CFI frames if CFI reached the
 * outermost frame, the chain is empty or prefer_cfi; the chain alone if CFI
 * found only the pc; else CFI's frames, followed by the chain from its
 * second entry when bp lies beyond the last CFI frame (and that entry can be
 * a return address), since a bp below it that no CFI frame has is no frame
 * pointer. Writes at most max addresses to out and returns how many.
 */
unsigned int unwind_join(const uint64_t *dips, const uint64_t *dsps,
			 unsigned int nd, enum unwind_end end,
			 const uint64_t *fips, unsigned int nf, uint64_t bp,
			 const void *stack, uint64_t sp, size_t len,
			 bool prefer_cfi, uint64_t *out, unsigned int max);

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * The default mode's join of CFI frames with the kernel's frame-pointer
 * chain (see unwind_join in unwind/unwind.h). Pure: no libdw, table-tested.
 *
 * The kernel's chain reads each return address at fp + 8 and the next frame
 * pointer at fp, starting from the sampled bp. A CFI frame whose stack
 * pointer is fp + 16 and whose pc is that return address is the same frame
 * seen both ways. The join is made at the deepest such frame, so that frames
 * the chain skipped (a function without frame pointer that did not touch bp,
 * and its callers up to the frame that did) come from CFI.
 *
 * Without a common frame, the sampled bp says which to believe. Below the
 * stack pointer, or inside the stack CFI walked where no frame of CFI's
 * lies, it is no frame pointer but a register a function without one used
 * for data (libc's open keeps the path there): the chain read from it is
 * junk, and CFI's frames stand alone. Beyond where CFI stopped (a cut copy),
 * it is the frame of a function further out: CFI's frames, then the chain
 * from its first return address.
 */
#include <string.h>

#include "unwind/unwind.h"

#define JOIN_MAX_LINKS 512
/* Farther above the stack pointer than any thread's stack reaches. */
#define JOIN_MAX_STACK (256ull << 20)
/* The lowest and highest address user code is mapped at (x86-64). */
#define USER_CODE_MIN 0x10000ull
#define USER_CODE_MAX 0x800000000000ull

static bool read_word(const uint8_t *stack, uint64_t sp, size_t len,
		      uint64_t addr, uint64_t *v)
{
	if (!stack || len < 8 || addr < sp || addr - sp > len - 8)
		return false;
	memcpy(v, stack + (addr - sp), 8);
	return true;
}

/* Whether the chain's first link, read at bp + 8, continues CFI's frames
 * (nd > 1 of them, the last at stack pointer last_sp) from further out. */
static bool chain_beyond(uint64_t bp, uint64_t sp, uint64_t last_sp,
			 uint64_t ret)
{
	return bp >= last_sp && bp - sp < JOIN_MAX_STACK &&
	       ret >= USER_CODE_MIN && ret < USER_CODE_MAX;
}

unsigned int unwind_join(const uint64_t *dips, const uint64_t *dsps,
			 unsigned int nd, enum unwind_end end,
			 const uint64_t *fips, unsigned int nf, uint64_t bp,
			 const void *stack, uint64_t sp, size_t len,
			 bool prefer_cfi, uint64_t *out, unsigned int max)
{
	unsigned int j, k, n = 0, bj = 0, bk = 0;
	uint64_t fp = bp;

	if (end == UNWIND_COMPLETE && nd > 1)
		nf = 0; /* CFI reached the outermost frame: all of it */
	/* fips[k] was read at fp_(k-1) + 8. */
	for (k = 1; k < nf && k < JOIN_MAX_LINKS; k++) {
		for (j = 1; j < nd; j++)
			if (dsps[j] == fp + 16 && dips[j] == fips[k]) {
				bj = j;
				bk = k;
				break;
			}
		if (!read_word(stack, sp, len, fp, &fp))
			break;
	}
	if (!bj && nf > 1 && nd <= 1) {
		/* CFI found the pc alone: the frame-pointer chain as it is. */
		for (k = 0; k < nf && n < max; k++)
			out[n++] = fips[k];
		return n;
	}
	if (!bj) {
		/* No common frame: CFI's frames, then the chain when it goes
		 * on from beyond them (see above). */
		bj = nd;
		if (nf > 1 && !prefer_cfi &&
		    chain_beyond(bp, sp, dsps[nd - 1], fips[1]))
			bk = 1;
	}
	for (j = 0; j < bj && n < max; j++)
		out[n++] = dips[j];
	if (bk)
		for (k = bk; k < nf && n < max; k++)
			out[n++] = fips[k];
	return n;
}

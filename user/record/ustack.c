// SPDX-License-Identifier: GPL-2.0
/*
 * A ring sample's user frames from its registers and stack copy: CFI joined
 * with the kernel's frame-pointer chain. See record/ustack.h.
 */
#include <string.h>

#include "record/ustack.h"

#define SAMPLE_MAX_FRAMES 1024

unsigned int unwind_user(struct unwinder *u, bool prefer_cfi,
			 const struct pj_raw_sample *rs, const uint64_t *fips,
			 unsigned int nf, uint64_t *out, unsigned int max,
			 enum unwind_end *end)
{
	static uint64_t dips[SAMPLE_MAX_FRAMES], dsps[SAMPLE_MAX_FRAMES];
	struct unwind_out o = { dips, dsps, SAMPLE_MAX_FRAMES, 0, UNWIND_BAD };
	uint64_t dw[UNWIND_NREGS];
	unsigned int n;

	*end = UNWIND_BAD;
	if (!u || !rs->regs_abi || !rs->nregs ||
	    !unwind_regs_from_perf(rs->regs, rs->nregs, UNWIND_REGS_MASK, dw)) {
		/* No user registers (a kernel thread): the chain as it is. */
		n = nf < max ? nf : max;
		memcpy(out, fips, n * sizeof(*out));
		return n;
	}
	unwind_sample(u, (pid_t)rs->tid, dw, rs->stack, rs->stack_size, &o);
	*end = o.end;
	return unwind_join(dips, dsps, o.n, o.end, fips, nf, dw[UNWIND_DW_BP],
			   rs->stack, dw[UNWIND_DW_SP], rs->stack_size,
			   prefer_cfi, out, max);
}

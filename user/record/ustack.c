// SPDX-License-Identifier: GPL-2.0
/*
 * A ring sample's user frames from its registers and stack copy: CFI joined
 * with the kernel's frame-pointer chain. See record/ustack.h.
 */
#include <string.h>

#include "jvm/codemap.h"
#include "jvm/stacks.h"
#include "record/ustack.h"

#define SAMPLE_MAX_FRAMES 1024

unsigned int unwind_user(struct unwinder *u, bool prefer_cfi,
			 const struct pj_raw_sample *rs, const uint64_t *fips,
			 unsigned int nf, uint64_t *out, unsigned int max,
			 enum unwind_end *end, struct ustack_cfi *cfi)
{
	static uint64_t dips[SAMPLE_MAX_FRAMES], dsps[SAMPLE_MAX_FRAMES],
	    dbps[SAMPLE_MAX_FRAMES];
	struct unwind_out o = { dips, dsps,	  SAMPLE_MAX_FRAMES,
				0,    UNWIND_BAD, dbps };
	uint64_t dw[UNWIND_NREGS];
	unsigned int n;

	*end = UNWIND_BAD;
	if (cfi)
		*cfi = (struct ustack_cfi){ dips, dsps, dbps, 0 };
	if (!u || !rs->regs_abi || !rs->nregs ||
	    !unwind_regs_from_perf(rs->regs, rs->nregs, UNWIND_REGS_MASK, dw)) {
		/* No user registers (a kernel thread): the chain as it is. */
		n = nf < max ? nf : max;
		memcpy(out, fips, n * sizeof(*out));
		return n;
	}
	unwind_sample(u, (pid_t)rs->tid, dw, rs->stack, rs->stack_size, &o);
	*end = o.end;
	if (cfi)
		cfi->n = o.n;
	return unwind_join(dips, dsps, o.n, o.end, fips, nf, dw[UNWIND_DW_BP],
			   rs->stack, dw[UNWIND_DW_SP], rs->stack_size,
			   prefer_cfi, out, max);
}

void ustack_java_copy(const struct unwinder *u, const struct ustack_cfi *cfi,
		      const struct codemap *cm, const uint8_t *stack,
		      uint64_t len, struct stack_copy *out)
{
	uint64_t base;

	if (!cm || !cfi->n || !len)
		return;
	base = cfi->sps[0];
	for (unsigned int i = 0; i < cfi->n; i++) {
		uint64_t sp = cfi->sps[i];

		if (!codemap_find(cm, cfi->ips[i]) &&
		    !unwind_addr_anon(u, cfi->ips[i]))
			continue;
		if (sp < base || sp - base >= len)
			return;
		out->pc = cfi->ips[i];
		out->sp = sp;
		out->fp = cfi->bps[i];
		out->stack = stack + (sp - base);
		out->len = (uint32_t)(len - (sp - base));
		out->top = i == 0;
		return;
	}
}

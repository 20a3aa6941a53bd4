// SPDX-License-Identifier: GPL-2.0
/*
 * A ring sample's user frames from its registers and stack copy: CFI joined
 * with the kernel's frame-pointer chain. See pipeline/ustack.h.
 */
#include <string.h>

#include "jvm/codemap.h"
#include "jvm/stacks.h"
#include "pipeline/ustack.h"

#define SAMPLE_MAX_FRAMES 1024

unsigned int unwind_user(struct unwinder *u, bool prefer_cfi, bool stop_at_jit,
			 const struct pj_raw_sample *rs, const uint64_t *fips,
			 unsigned int nf, uint64_t *out, unsigned int max,
			 enum unwind_end *end, struct ustack_cfi *cfi)
{
	static uint64_t dips[SAMPLE_MAX_FRAMES], dsps[SAMPLE_MAX_FRAMES],
	    dbps[SAMPLE_MAX_FRAMES];
	struct unwind_out o = { dips,	    dsps, SAMPLE_MAX_FRAMES, 0,
				UNWIND_BAD, dbps, stop_at_jit };
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

/* The stack word at addr of a copy of len bytes from base: false when the
 * copy does not hold it. */
static bool copy_word(const uint8_t *stack, uint64_t base, uint64_t len,
		      uint64_t addr, uint64_t *w)
{
	if (len < 8 || addr < base || addr - base > len - 8)
		return false;
	memcpy(w, stack + (addr - base), 8);
	return true;
}

/* Follows rbp (*fp) through the copy, each link's return address checked
 * against fips[i] (the kernel read the same words), up to the link of
 * fips[k] (*inside true) or the first link outside the copy (*fp that
 * link, fips[i] its return address). i, or 0 when a link differs or the
 * chain ends. */
static unsigned int follow(const uint8_t *stack, uint64_t base, uint64_t len,
			   const uint64_t *fips, unsigned int nf,
			   unsigned int k, uint64_t *fp, bool *inside)
{
	uint64_t next, ret;
	unsigned int i;

	*inside = false;
	for (i = 1; i < nf && copy_word(stack, base, len, *fp, &next) &&
		    copy_word(stack, base, len, *fp + 8, &ret);
	     i++) {
		if (ret != fips[i])
			return 0;
		if (i == k) {
			*inside = true;
			return i;
		}
		if (next <= *fp)
			return 0;
		*fp = next;
	}
	return i < nf ? i : 0;
}

void ustack_java_chain(const struct unwinder *u, const struct codemap *cm,
		       const struct pj_raw_sample *rs, const uint64_t *fips,
		       unsigned int nf, struct stack_copy *out)
{
	const uint8_t *stack = rs->stack;
	uint64_t dw[UNWIND_NREGS], base, len = rs->stack_size, fp, next;
	unsigned int k = nf, i, n;
	bool inside;

	if (!cm || nf < 2 || !stack || !rs->regs_abi || !rs->nregs ||
	    !unwind_regs_from_perf(rs->regs, rs->nregs, UNWIND_REGS_MASK, dw))
		return;
	base = dw[UNWIND_DW_SP];
	fp = dw[UNWIND_DW_BP];
	if (out->stack) { /* the chain beyond the copy, for a walk that
			     reaches its end */
		i = follow(stack, base, len, fips, nf, nf, &fp, &inside);
		if (!i || inside)
			return;
		n = nf - i < PJA_CHAIN_MAX ? nf - i : PJA_CHAIN_MAX;
		out->link = fp;
		out->nchain = n;
		memcpy(out->chain, fips + i, n * sizeof(*fips));
		return;
	}
	for (k = 1; k < nf; k++)
		if (codemap_find(cm, fips[k]) ||
		    (u && unwind_addr_anon(u, fips[k])))
			break;
	if (k >= nf)
		return;
	i = follow(stack, base, len, fips, nf, k, &fp, &inside);
	if (!i)
		return;
	if (inside) { /* the JVM's frame is in the copy after all */
		if (fp + 16 - base >= len ||
		    !copy_word(stack, base, len, fp, &next))
			return;
		out->pc = fips[k];
		out->sp = fp + 16;
		out->fp = next;
		out->stack = stack + (out->sp - base);
		out->len = (uint32_t)(len - (out->sp - base));
		out->top = false;
		return;
	}
	if (k - i + 1 > PJA_CHAIN_MAX)
		return;
	out->pc = 0;
	out->sp = 0;
	out->fp = fp;
	out->nchain = k - i + 1;
	memcpy(out->chain, fips + i, out->nchain * sizeof(*fips));
}

// SPDX-License-Identifier: GPL-2.0
/* A sample's user frames; see pipeline/userframes.h. */
#include <string.h>

#include "events/lbr.h"
#include "jvm/codemap.h"
#include "lib/addr.h"
#include "pipeline/decode.h"
#include "pipeline/proc.h"
#include "pipeline/sample.h"
#include "pipeline/userframes.h"
#include "pipeline/ustack.h"

/*
 * The user frames by CFI over the sample's stack copy, joined with the
 * kernel's chain (d->u[0..nf)) where the copy ends. Counts how unwinding
 * ended. An off-CPU sample of a JVM's thread also gets its Java copy.
 */
static unsigned int user_frames(struct decoder *d, const struct proc *p,
				const struct pj_raw_sample *rs, unsigned int nf,
				struct sample *out)
{
	const struct codemap *code = p->agent ? agent_codemap(p->agent) : NULL;
	bool java = code && out->offcpu;
	/* A JVM's sample the walk will give the Java frames of: CFI only
	 * for the native frames above them. JVM code (JIT code, stubs, the
	 * interpreter) has no CFI: unwinding on from there would follow the
	 * frame pointer as the kernel's chain did, and take CFI again only
	 * at the native callers below the Java frames, which a walked stack
	 * leaves out (merge.c, without --native-base). That unwind was 40 %
	 * of the reader's time at 1 kHz on the Workload. */
	bool walked = !java && d->walk_skips_cfi && code && !out->no_walk;
	struct ustack_cfi cfi;
	struct unwind_counts before;
	const struct unwind_counts *after;
	enum unwind_end end;
	unsigned int n;

	if (walked && nf && rs->regs_abi &&
	    (codemap_find(code, d->u[0]) ||
	     unwind_addr_anon(p->unw, d->u[0]))) {
		/* the pc in JVM code: the kernel's chain as it is */
		d->st.unwind[UNWIND_NO_CFI]++;
		return nf < DECODE_MAX_CHAIN ? nf : DECODE_MAX_CHAIN;
	}
	memcpy(d->f, d->u, nf * sizeof(uint64_t));
	before = *unwinder_counts(p->unw);
	n = unwind_user(p->unw, d->dwarf, walked, rs, d->f, nf, d->u,
			DECODE_MAX_CHAIN, &end, java ? &cfi : NULL);
	after = unwinder_counts(p->unw);
	d->st.unwc.fast += after->fast - before.fast;
	d->st.unwc.libdw += after->libdw - before.libdw;
	d->st.unwc.checked += after->checked - before.checked;
	d->st.unwc.differ += after->differ - before.differ;
	if (end < UNWIND_NEND && rs->regs_abi)
		d->st.unwind[end]++;
	if (java) {
		ustack_java_copy(p->unw, &cfi, code, rs->stack, rs->stack_size,
				 &out->jcopy);
		ustack_java_chain(p->unw, code, rs, d->f, nf, &out->jcopy);
	}
	return n;
}

void userframes_of(struct decoder *d, const struct proc *p, struct sample *out)
{
	const struct pj_raw_sample *rs = &d->rs;
	unsigned int nu = out->nu;

	if (p && p->unw && (rs->regs_abi || nu))
		nu = user_frames(d, p, rs, nu, out);
	if (d->lbr && rs->nbranch) /* -g lbr: user frames from the LBR */
		nu = lbr_user_frames(rs->ip, rs->branches, rs->nbranch, d->u,
				     DECODE_MAX_CHAIN);
	if (!rs->nr && rs->ip && !nu) {
		if (addr_is_kernel(rs->ip))
			d->k[out->nk++] = rs->ip;
		else
			d->u[nu++] = rs->ip;
	}
	out->nu = nu;
}

// SPDX-License-Identifier: GPL-2.0
/* A ring sample decoded once; see record/decode.h. */
#include <string.h>

#include "events/lbr.h"
#include "events/tracepoint.h"
#include "lib/addr.h"
#include "record/decode.h"
#include "record/perf_parse.h"
#include "record/proc.h"
#include "record/ring.h"
#include "record/sample.h"
#include "record/ustack.h"
#include "record/wall.h"

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
	struct ustack_cfi cfi;
	enum unwind_end end;
	unsigned int n;

	memcpy(d->f, d->u, nf * sizeof(uint64_t));
	n = unwind_user(p->unw, d->dwarf, rs, d->f, nf, d->u, DECODE_MAX_CHAIN,
			&end, java ? &cfi : NULL);
	if (end < UNWIND_NEND && rs->regs_abi)
		d->st.unwind[end]++;
	if (java) {
		ustack_java_copy(p->unw, &cfi, code, rs->stack, rs->stack_size,
				 &out->jcopy);
		ustack_java_chain(p->unw, code, rs, d->f, nf, &out->jcopy);
	}
	return n;
}

/* A tracepoint's fields, decoded once: the text of the sample's info, for
 * the stages after (an off-CPU wait's prev_state). */
static void tracepoint_fields(struct decoder *d, const struct pj_raw_sample *rs,
			      struct sample *out)
{
	if (out->s.event < d->nevents && d->evs[out->s.event].tracepoint &&
	    tp_decode(d->tp, rs->raw, rs->raw_size, d->tp_text,
		      sizeof(d->tp_text)) >= 0)
		out->tp = d->tp_text;
}

int decode_sample(struct decoder *d, const struct ring *r,
		  const struct perf_event_header *hdr, struct sample *out)
{
	struct pj_raw_sample rs;
	struct callchain_iter it;
	enum callchain_ctx ctx;
	unsigned int nk = 0, nu = 0;
	uint64_t ip;

	if (sample_parse_regs(hdr, r->sample_type, r->branch_sample_type,
			      r->regs_user, &rs)) {
		d->st.bad_records++;
		return -1;
	}
	memset(out, 0, sizeof(*out));
	out->s.time = rs.time;
	out->s.period = rs.period;
	out->s.tid = rs.tid;
	out->s.pid = rs.pid;
	out->s.cpu = rs.cpu;
	out->s.event = ring_event_index(r, rs.id);
	if (!(r->sample_type & PERF_SAMPLE_PERIOD) && out->s.event < d->nevents)
		out->s.period = d->evs[out->s.event].period; /* open_threads */
	out->fd = out->s.event < r->nevents ? r->keys[out->s.event] : -1;
	out->offcpu = wall_is_offcpu(d->wall, out->s.event);
	out->nread = rs.nread < 2 ? rs.nread : 2;
	memcpy(out->read, rs.read, sizeof(out->read));
	callchain_iter_init(&it, rs.ips, rs.nr);
	while (callchain_next(&it, &ip, &ctx)) {
		if (ctx == CC_NONE)
			ctx = addr_is_kernel(ip) ? CC_KERNEL : CC_USER;
		if (ctx == CC_KERNEL && nk < DECODE_MAX_CHAIN)
			d->k[nk++] = ip;
		else if (ctx == CC_USER && nu < DECODE_MAX_CHAIN && !d->lbr)
			d->u[nu++] = ip;
	}
	if (rs.raw_size && d->tp)
		tracepoint_fields(d, &rs, out);
	out->kips = d->k;
	out->nk = nk;
	out->uips = d->u;
	out->nu = nu;
	d->rs = rs; /* for decode_user, while the record is in its ring */
	return 0;
}

void decode_user(struct decoder *d, const struct proc *p, struct sample *out)
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

void decode_new_file(struct decoder *d)
{
	d->st.bad_records = 0;
	memset(d->st.unwind, 0, sizeof(d->st.unwind));
}

// SPDX-License-Identifier: GPL-2.0
/* A ring sample decoded once; see pipeline/decode.h. */
#include <string.h>

#include "events/tracepoint.h"
#include "lib/addr.h"
#include "pipeline/decode.h"
#include "pipeline/sample.h"
#include "pipeline/wall.h"
#include "rings/perf_parse.h"
#include "rings/ring.h"

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
	out->no_walk = r->alt == RING_ALT_SIGNAL &&
		       rs.id == r->twin_id; /* event 0 */
	if (!(r->sample_type & PERF_SAMPLE_PERIOD) && out->s.event < d->nevents)
		out->s.period = d->evs[out->s.event].period; /* open_threads */
	out->fd = out->s.event < r->nevents ? r->keys[out->s.event] : -1;
	out->offcpu = wall_is_offcpu(d->wall, out->s.event);
	out->nread = rs.nread < 2 ? rs.nread : 2;
	out->read_cpu = r->ncpus > 0;
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
	d->rs = rs; /* for its user frames, while the record is in its ring */
	return 0;
}

void decode_new_file(struct decoder *d)
{
	d->st.bad_records = 0;
	memset(d->st.unwind, 0, sizeof(d->st.unwind));
}

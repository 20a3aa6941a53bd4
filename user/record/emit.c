// SPDX-License-Identifier: GPL-2.0
/* A sample merged once and written; see record/emit.h. */
#include <string.h>

#include "record/emit.h"
#include "record/merge.h"
#include "record/record.h"
#include "record/sample.h"

/* smp's kernel frames: named here, once per address (sym/symbolize.h). */
static const uint32_t *kernel_frames(struct recorder *rec,
				     const struct sample *smp)
{
	if (smp->kframes || !smp->nk)
		return smp->kframes;
	for (unsigned int i = 0; i < smp->nk && i < MERGE_MAX_FRAMES; i++)
		rec->emit_kframes[i] =
		    symbolize_kernel(&rec->sym, smp->kips[i]);
	return rec->emit_kframes;
}

uint32_t emit_stack(struct recorder *rec, const struct sample *smp,
		    const struct java_part *j, const char *why, uint32_t leaf,
		    int *marker)
{
	uint32_t *out = rec->emit_frames;
	struct merge_sink k;
	struct merge_in in = {
		.kframes = kernel_frames(rec, smp),
		.nk = smp->nk < MERGE_MAX_FRAMES ? smp->nk : MERGE_MAX_FRAMES,
		.uips = smp->uips,
		.nu = smp->nu,
		.code = agent_codemap(rec->agent),
		.walk_status = j ? j->status : MERGE_NO_WALK,
		.jf = j ? j->jf : NULL,
		.nj = j ? j->nj : 0,
		.held = j && j->held,
		.at_sample = j && j->at_sample,
		.root = why ? why : smp->root,
		.self_lo = rec->self_lo,
		.self_hi = rec->self_hi,
		.base = record_thread_base(rec, smp->s.tid),
	};
	unsigned int n, at = leaf ? 1 : 0;

	merge_sink_symbolizer(&k, &rec->sym);
	n = merge_stack(&k, &in, out + at, MERGE_MAX_FRAMES - at, marker);
	if (leaf)
		out[0] = leaf - 1;
	return pj_writer_stack(rec->w, out, n + at);
}

void emit_write(struct recorder *rec, struct sample *smp, uint32_t stack)
{
	smp->s.stack = stack;
	if (smp->tp)
		smp->s.info = pj_writer_string(rec->w, smp->tp);
	if (smp->s.vthread)
		record_vthread_name(rec, smp->s.vthread);
	pj_writer_sample(rec->w, &smp->s);
	rec->st.samples++;
	if (smp->s.event < RING_MAX_EVENTS)
		rec->st.event_samples[smp->s.event]++;
}

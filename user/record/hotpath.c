// SPDX-License-Identifier: GPL-2.0
/* A ring record's way through the reader; see record/hotpath.h. */
#include <perf/event.h>

#include "pipeline/cpuwalk.h"
#include "pipeline/decode.h"
#include "pipeline/emit.h"
#include "pipeline/jnames.h"
#include "pipeline/sample.h"
#include "pipeline/switchcost.h"
#include "pipeline/userframes.h"
#include "pipeline/wall.h"
#include "record/hotpath.h"
#include "record/recorder.h"
#include "record/sideband.h"

#define AGENT_THREAD_MARKER "[perfjava: agent thread]"

void record_on_sample(struct recorder *rec, struct ring *r,
		      const struct perf_event_header *hdr)
{
	struct sample smp;
	struct proc *p;

	if (decode_sample(&rec->dec, r, hdr, &smp))
		return;
	/* (-p, -- CMD: a task carried by older rings, its own since, is
	 * dropped: family.h; -a, -C: a process is made at its first sample) */
	if (rec->owner->elsewhere(rec, r, &smp.s))
		return;
	p = rec->owner->proc_of(rec, &smp.s);
	userframes_of(&rec->dec, p, &smp);
	switchcost_sample(&rec->sc, &smp);
	/* perfjava's own (the agent's thread, the agent's code): left out
	 * here, before it is walked or waits; with --self the agent's thread
	 * is labelled, not walked */
	if (!rec->em.keep_self && emit_own(&rec->em, p, &smp)) {
		emit_count_own(&rec->em, &smp);
		return;
	}
	if (p && p->agent && jnames_is_agent(p->agent, smp.s.tid))
		smp.root = AGENT_THREAD_MARKER;
	if (smp.offcpu) {
		wall_switch_out(rec->wall, &smp);
		return;
	}
	wall_clock_sample(rec->wall, &smp);
	if (p && p->agent && !smp.root && !smp.no_walk &&
	    cpuwalk_hold(&rec->cw, p, r, &smp))
		return;
	emit_write(&rec->em, &smp,
		   emit_stack(&rec->em, &smp, NULL, NULL, 0, NULL));
}

void record_on_record(void *ctx, struct ring *r,
		      const struct perf_event_header *hdr)
{
	struct recorder *rec = ctx;

	if (hdr->type == PERF_RECORD_SAMPLE) {
		if (hdr->size > rec->sample_max) /* the drain's pace, run.c */
			rec->sample_max = hdr->size;
		record_on_sample(ctx, r, hdr);
	} else {
		record_on_sideband(ctx, r, hdr);
	}
}

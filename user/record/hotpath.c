// SPDX-License-Identifier: GPL-2.0
/*
 * A ring record's way through the reader. A sample is decoded once
 * (record/decode.h); a JVM's sample then waits for its Java walk
 * (record/cpuwalk.h), a switch-out for the end of its wait
 * (record/wall.h), both in the pending stage (record/pending.h); any other
 * is merged and written at once (record/emit.h). Other records open
 * threads, end waits, and count what was lost.
 */
#include <perf/event.h>

#include "record/cpuwalk.h"
#include "record/decode.h"
#include "record/emit.h"
#include "record/record.h"
#include "record/sample.h"
#include "record/wall.h"

#define AGENT_THREAD_MARKER "[perfjava: agent thread]"

static void on_sample(struct recorder *rec, struct ring *r,
		      const struct perf_event_header *hdr)
{
	struct sample smp;

	if (decode_sample(rec, r, hdr, &smp))
		return;
	if (rec->agent) {
		record_find_self(rec);
		if (record_java_name(rec,
				     smp.s.tid)) /* not the application's */
			smp.root = AGENT_THREAD_MARKER;
	}
	if (wall_is_offcpu(rec, smp.s.event)) {
		wall_switch_out(rec, &smp);
		return;
	}
	if (rec->agent && !smp.root && cpuwalk_hold(rec, r, &smp))
		return;
	emit_write(rec, &smp, emit_stack(rec, &smp, NULL, NULL, 0, NULL));
}

void record_on_record(void *ctx, struct ring *r,
		      const struct perf_event_header *hdr)
{
	struct recorder *rec = ctx;
	const struct perf_record_fork *fk;
	const struct perf_record_lost *lost;
	const struct perf_record_comm *comm;
	unsigned int bad;

	switch (hdr->type) {
	case PERF_RECORD_SAMPLE:
		on_sample(rec, r, hdr);
		break;
	case PERF_RECORD_FORK:
		fk = (const void *)hdr;
		if ((pid_t)fk->pid == rec->o.pid &&
		    !threads_find(&rec->th, fk->tid))
			threads_add(&rec->th, (pid_t)fk->tid, &bad);
		break;
	case PERF_RECORD_EXIT:
		fk = (const void *)hdr;
		if ((pid_t)fk->tid == r->tid)
			r->exited = true;
		break;
	case PERF_RECORD_SWITCH:
		wall_switch(rec, r, hdr);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		switchcost_lost(r);
		break;
	case PERF_RECORD_LOST:
		lost = (const void *)hdr;
		rec->st.lost += lost->lost;
		switchcost_lost(r);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		rec->st.lost +=
		    ((const struct perf_record_lost_samples *)hdr)->lost;
		switchcost_lost(r);
		break;
	case PERF_RECORD_COMM:
		comm = (const void *)hdr;
		/* a -p target that exec'd runs another program: the end (a
		 * launched command's execs are its own: followed) */
		if ((hdr->misc & PERF_RECORD_MISC_COMM_EXEC) &&
		    (pid_t)comm->pid == rec->o.pid && !rec->launch)
			rec->target_exec = true;
		if ((pid_t)comm->pid == rec->o.pid &&
		    !record_has_java_name(rec, comm->tid))
			pj_writer_thread(rec->w, comm->tid, comm->pid,
					 comm->comm);
		break;
	default:
		break;
	}
}

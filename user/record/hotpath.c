// SPDX-License-Identifier: GPL-2.0
/* A ring record's way through the reader; see record/hotpath.h. */
#include <perf/event.h>

#include "lib/clock.h"
#include "record/cpuwalk.h"
#include "record/decode.h"
#include "record/emit.h"
#include "record/hotpath.h"
#include "record/machine.h"
#include "record/recorder.h"
#include "record/sample.h"
#include "record/switchcost.h"
#include "record/wall.h"

#define AGENT_THREAD_MARKER "[perfjava: agent thread]"

static void on_sample(struct recorder *rec, struct ring *r,
		      const struct perf_event_header *hdr)
{
	struct sample smp;
	struct proc *p;
	bool new_proc;

	if (decode_sample(&rec->dec, r, hdr, &smp))
		return;
	/* -a: a thread with a ring of its own (a JVM's) has its samples
	 * there; -C: those on the CPUs given */
	if (rec->mach &&
	    (ring_is_cpu(r)
		 ? threads_find(&rec->th, (pid_t)smp.s.tid) != NULL
		 : rec->o.cpus.n && !idlist_has(&rec->o.cpus, (int)smp.s.cpu)))
		return;
	p = procs_get(&rec->procs, (pid_t)smp.s.pid);
	if (rec->mach) { /* -a: a process recorded from its first sample */
		p = machine_proc(rec, (pid_t)smp.s.pid, (pid_t)smp.s.tid,
				 &new_proc);
		/* again, with its unwinder */
		if (new_proc && p->unw &&
		    decode_sample(&rec->dec, r, hdr, &smp))
			return;
	}
	switchcost_sample(&rec->sc, &smp);
	/* the agent's thread is not the application's */
	if (emit_java_name(&rec->em, smp.s.pid, smp.s.tid))
		smp.root = AGENT_THREAD_MARKER;
	if (wall_is_offcpu(rec->wall, smp.s.event)) {
		wall_switch_out(rec->wall, &smp);
		return;
	}
	wall_clock_sample(rec->wall, &smp);
	if (p && p->agent && !smp.root && cpuwalk_hold(&rec->cw, p, r, &smp))
		return;
	emit_write(&rec->em, &smp,
		   emit_stack(&rec->em, &smp, NULL, NULL, 0, NULL));
}

void record_on_record(void *ctx, struct ring *r,
		      const struct perf_event_header *hdr)
{
	struct recorder *rec = ctx;
	const struct perf_record_fork *fk;
	const struct perf_record_comm *comm;
	struct proc *p;
	unsigned int bad;

	switch (hdr->type) {
	case PERF_RECORD_SAMPLE:
		on_sample(rec, r, hdr);
		break;
	case PERF_RECORD_FORK:
		fk = (const void *)hdr;
		/* a new thread of a process followed */
		p = procs_get(&rec->procs, (pid_t)fk->pid);
		if (p && p->follow && !p->ended &&
		    !threads_find(&rec->th, fk->tid))
			threads_add(&rec->th, p->pid, (pid_t)fk->tid, &bad);
		break;
	case PERF_RECORD_EXIT:
		fk = (const void *)hdr;
		machine_exit(rec, (pid_t)fk->pid, (pid_t)fk->tid, now_ns());
		if ((pid_t)fk->tid == r->tid)
			r->exited = true;
		break;
	case PERF_RECORD_MMAP2:
		machine_mmap(rec, hdr);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		wall_switch(rec->wall, r, hdr);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		switchcost_lost(&rec->sc, (uint32_t)r->tid);
		break;
	case PERF_RECORD_LOST:
		rec->lost += ((const struct perf_record_lost *)hdr)->lost;
		switchcost_lost(&rec->sc, (uint32_t)r->tid);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		rec->lost +=
		    ((const struct perf_record_lost_samples *)hdr)->lost;
		switchcost_lost(&rec->sc, (uint32_t)r->tid);
		break;
	case PERF_RECORD_COMM:
		comm = (const void *)hdr;
		p = procs_get(&rec->procs, (pid_t)comm->pid);
		if (!p)
			break;
		if (rec->mach) {
			machine_comm(rec, p, comm->tid, comm->comm,
				     hdr->misc & PERF_RECORD_MISC_COMM_EXEC);
			break;
		}
		/* a -p target that exec'd runs another program: its end (a
		 * launched command's execs are its own: followed) */
		if ((hdr->misc & PERF_RECORD_MISC_COMM_EXEC) && p->target &&
		    !rec->launch)
			p->exec = true;
		if (!jnames_has(&rec->em.names, comm->tid))
			pj_writer_thread(rec->w, comm->tid, comm->pid,
					 comm->comm);
		break;
	default:
		break;
	}
}

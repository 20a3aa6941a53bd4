// SPDX-License-Identifier: GPL-2.0
/* The records beside the samples; see record/sideband.h. */
#include <stddef.h>
#include <string.h>

#include <perf/event.h>

#include "lib/clock.h"
#include "pipeline/switchcost.h"
#include "pipeline/wall.h"
#include "record/agents.h"
#include "record/family.h"
#include "record/machine.h"
#include "record/recorder.h"
#include "record/sideband.h"

void record_on_sideband(struct recorder *rec, struct ring *r,
			const struct perf_event_header *hdr)
{
	const struct perf_record_fork *fk;
	const struct perf_record_comm *comm;
	struct proc *p;
	unsigned int bad;
	bool exec;

	switch (hdr->type) {
	case PERF_RECORD_FORK:
		fk = (const void *)hdr;
		if (!rec->mach) { /* a new task of a target's (family.h) */
			family_fork(rec, r, hdr);
			break;
		}
		/* -a: a new thread of a JVM followed */
		p = procs_get(&rec->procs, (pid_t)fk->pid);
		if (p && rproc(p)->follow && !rproc(p)->ended &&
		    !threads_find(&rec->th, fk->tid))
			threads_add(&rec->th, p->pid, (pid_t)fk->tid, &bad);
		break;
	case PERF_RECORD_EXIT:
		fk = (const void *)hdr;
		machine_exit(rec, (pid_t)fk->pid, (pid_t)fk->tid, now_ns());
		family_exit(rec, hdr);
		if ((pid_t)fk->tid == r->tid)
			r->exited = true;
		break;
	case PERF_RECORD_MMAP2:
		machine_mmap(rec, hdr);
		if ((p = family_mmap(rec, hdr)) != NULL)
			agents_want(rec, p);
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
		exec = hdr->misc & PERF_RECORD_MISC_COMM_EXEC;
		if (hdr->size < sizeof(comm->header) + 8 + 1 ||
		    !memchr(comm->comm, 0,
			    hdr->size -
				offsetof(struct perf_record_comm, comm)))
			break; /* (the kernel's: never) */
		if (rec->mach) {
			machine_comm(rec, (pid_t)comm->pid, comm->tid,
				     comm->comm, exec);
			break;
		}
		p = family_proc(rec, (pid_t)comm->pid, 0);
		if (!p)
			break;
		/* a -p target that exec'd runs another program: its end (a
		 * launched command's execs are its own: followed) */
		if (exec && rproc(p)->target && !rec->launch)
			rproc(p)->exec = true;
		family_comm(rec, p, comm->tid, comm->comm, exec);
		if (!jnames_has(&rec->em.names, comm->tid))
			pj_writer_thread(rec->w, comm->tid, comm->pid,
					 comm->comm);
		break;
	default:
		break;
	}
}

// SPDX-License-Identifier: GPL-2.0
/* Each JVM's agent; see record/agents.h. */
#include <stdio.h>

#include "lib/clock.h"
#include "lib/procfs.h"
#include "profile/io.h"
#include "record/agents.h"
#include "record/recorder.h"

int agents_attach(struct recorder *rec, struct proc *p, char *err, size_t len)
{
	const char *path = rec->o.agent_path ? rec->o.agent_path
					     : agent_default_path();
	struct agent *a;

	ksig_prepare(&p->ks, rec->evs, rec->nevents, p->pid, cpuwalk_done,
		     &rec->cw);
	if (agent_start(p->pid, path, &a, err, len))
		return -1;
	recorder_set_agent(rec, p, a);
	rec->th.changed = true; /* its socket polled */
	self_find(&p->self, p->pid, now_ns());
	/* (-p: before its events open, whose kind depends on it: the
	 * kernel's SIGTRAP at the sample, pipeline/ksig.h) */
	ksig_setup(&p->ks, p->agent);
	return 0;
}

void agents_start(struct recorder *rec, struct proc *p)
{
	char err[512];

	if (!p->java || rec->o.no_java)
		return;
	if (rec->launch) { /* a launched JVM's agent connects by itself */
		ksig_prepare(&p->ks, rec->evs, rec->nevents, p->pid,
			     cpuwalk_done, &rec->cw);
		return;
	}
	if (!agents_attach(rec, p, err, sizeof(err)))
		return;
	rproc(p)->java_failed = true;
	if (proc_gone(p->pid))
		snprintf(err, sizeof(err), "JVM %d exited during the attach",
			 p->pid);
	fprintf(stderr,
		"perfjava: java frames unavailable%s: %s; recording native "
		"frames only\n",
		rec->procs.n > 1 ? " for one JVM" : "", err);
	if (!rec->mach) /* -a: the others have theirs */
		pj_writer_meta(rec->w, "java_error", err);
}

void agents_stopped(struct recorder *rec, struct proc *p, const char *why)
{
	ksig_off(&p->ks, why);
	pending_agent_gone(&rec->pend, p->pid);
	offjava_agent_gone(&rec->oj, p->pid);
	agent_get_stats(p->agent, &rproc(p)->ast);
	/* the first target's JVM, as its command line is (record/header.c) */
	if (p == recorder_first(rec) && agent_vm_info(p->agent, false)) {
		pj_writer_meta(rec->w, "jvm_name",
			       agent_vm_info(p->agent, false));
		pj_writer_meta(rec->w, "jvm_version",
			       agent_vm_info(p->agent, true) ?: "");
	}
	agent_stop(p->agent);
	recorder_set_agent(rec, p, NULL);
	rec->th.changed = true;
}

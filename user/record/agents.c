// SPDX-License-Identifier: GPL-2.0
/* Each JVM's agent; see record/agents.h. */
#include <stdio.h>
#include <sys/resource.h>

#include "lib/clock.h"
#include "lib/procfs.h"
#include "profile/io.h"
#include "record/agents.h"
#include "record/family.h"
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

void agents_want(struct recorder *rec, struct proc *p)
{
	if (rec->o.no_java || p->agent || rproc(p)->java_failed)
		return;
	p->java = true;
	rproc(p)->attach_wanted = true;
	rproc(p)->attach_at = now_ns(); /* at once: its samples wait */
	rproc(p)->java_at = rproc(p)->attach_at;
	/* its samples will wait for the reader (record/record.c) */
	setpriority(PRIO_PROCESS, 0, -10);
	/* held by its pidfd, whoever gets its pid next (a target is) */
	if (!rproc(p)->target && !rproc(p)->tgt.pid &&
	    target_open(&rproc(p)->tgt, p->pid))
		rproc(p)->ended = true; /* gone already */
}

int agents_try(struct recorder *rec, struct proc *p, uint64_t now,
	       uint64_t every, unsigned int tries, char *err, size_t len)
{
	if (!rproc(p)->attach_at) /* found now: its JVM starts */
		rproc(p)->attach_at = now + every;
	if (now < rproc(p)->attach_at)
		return 0;
	if (!agents_attach(rec, p, err, len))
		return 1;
	rproc(p)->attach_at = now + every;
	if (proc_gone(p->pid)) {
		/* (a target's end is its pidfd's: record/run.c) */
		rproc(p)->ended |= !rproc(p)->target;
		return 0;
	}
	if (++rproc(p)->attach_tries < tries)
		return 0;
	rproc(p)->java_failed = true;
	return -1;
}

void agents_tick(struct recorder *rec, uint64_t now)
{
	char err[512];

	for (unsigned int i = 0; !rec->o.no_java && i < rec->procs.n; i++) {
		struct proc *p = rec->procs.v[i];
		int r;

		if (!rproc(p)->attach_wanted || p->agent ||
		    rproc(p)->java_failed || rproc(p)->ended)
			continue;
		r = agents_try(rec, p, now, WANT_RETRY_NS, WANT_TRIES, err,
			       sizeof(err));
		if (r > 0) {
			rproc(p)->attach_wanted = false;
			family_promote(rec, p); /* its threads' own rings */
			if (!rec->o.quiet)
				fprintf(stderr,
					"%sperfjava: JVM %d attached %.2f s "
					"after it loaded libjvm.so\n",
					rec->launch ? "" : "\n", p->pid,
					(double)(now_ns() - rproc(p)->java_at) /
					    1e9);
		} else if (r < 0 && !rec->o.quiet) {
			fprintf(stderr,
				"\nperfjava: java frames unavailable for JVM "
				"%d: %s\n",
				p->pid, err);
		}
	}
}

// SPDX-License-Identifier: GPL-2.0
/* Each JVM's agent; see record/agents.h. */
#include <poll.h>
#include <stdio.h>
#include <unistd.h>

#include "lib/clock.h"
#include "lib/procfs.h"
#include "profile/io.h"
#include "record/agents.h"
#include "record/recorder.h"
#include "rings/threads.h"

/* A JVM that cannot be asked yet (starting) is tried again this often,
 * for this long after it was wanted; one the targets started more often
 * (its samples have native frames alone until then: record/family.h). */
#define ATTACH_RETRY_NS 1000000000ULL
#define CHILD_RETRY_NS 200000000ULL
#define ATTACH_WINDOW_NS 10000000000ULL
/* An attach in flight is given up this long after it started (each of
 * its steps has its own bound, 5 s, inside: jvm/client.c). */
#define ATTACH_DEADLINE_NS 20000000000ULL
/* -a: how long the JVMs running may take to get their agent before the
 * events open (a process that claims to be one delays nothing past it;
 * the ones that answer have their Java frames from the start) */
#define SETTLE_NS 3000000000ULL
/* -p: how long a JVM's agent may take to answer the walk ring's offer
 * before its events open (it answers before its replay; a deaf agent
 * costs this once, its samples' walks then asked for) */
#define AWAIT_READY_MS 500
/* Failures said in a line each; beyond, counted in the summary. */
#define ATTACH_SAID_MAX 16

static const char *agent_path(const struct recorder *rec)
{
	return rec->o.agent_path ? rec->o.agent_path : agent_default_path();
}

/* p's walks at the sample prepared, before its agent is asked for. */
static void prepare(struct recorder *rec, struct proc *p)
{
	ksig_prepare(&p->ks, rec->evs, rec->nevents, p->pid, cpuwalk_done,
		     &rec->cw);
}

void agents_follow(struct recorder *rec, struct proc *p)
{
	unsigned int bad;

	if (!p->java || !p->agent || rproc(p)->follow || rproc(p)->ended)
		return;
	rproc(p)->follow = true; /* FORK records and rescans from now on */
	threads_scan(&rec->th, p->pid, &bad);
}

/* p's agent a is in: its socket polled, its code looked for, its walks at
 * the sample set up; at -a its threads get rings of their own. */
static void adopted(struct recorder *rec, struct proc *p, struct agent *a)
{
	recorder_set_agent(rec, p, a);
	rec->th.changed = true; /* its socket polled */
	self_find(&p->self, p->pid, now_ns());
	/* (-p: before its events open, whose kind depends on it: the
	 * kernel's SIGTRAP at the sample, pipeline/ksig.h) */
	ksig_setup(&p->ks, p->agent);
	if (rec->mach)
		agents_follow(rec, p);
}

int agents_attach(struct recorder *rec, struct proc *p, char *err, size_t len)
{
	struct agent *a;

	prepare(rec, p);
	if (agent_start(p->pid, agent_path(rec), &a, err, len))
		return -1;
	adopted(rec, p, a);
	/* (-p: its events open next, routed once the agent has answered) */
	ksig_await(&p->ks, a, AWAIT_READY_MS);
	return 0;
}

void agents_start(struct recorder *rec, struct proc *p)
{
	char err[512];

	if (!p->java || rec->o.no_java)
		return;
	if (rec->launch) { /* a launched JVM's agent connects by itself */
		prepare(rec, p);
		return;
	}
	if (rec->mach) { /* -a: beside the poll loop (agents_settle) */
		agents_want(rec, p);
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
	pj_writer_meta(rec->w, "java_error", err);
}

/* p's attach failed for good (why): said once, up to ATTACH_SAID_MAX
 * lines a recording; a JVM that exited meanwhile is not a failure. */
static void given_up(struct recorder *rec, struct proc *p, const char *why)
{
	struct agents *ag = &rec->ag;

	rproc(p)->want = false;
	if (proc_gone(p->pid)) {
		rproc(p)->ended = rec->mach != NULL; /* -a: recorded no more */
		return;
	}
	rproc(p)->java_failed = true;
	ag->failed++;
	if (ag->said >= ATTACH_SAID_MAX)
		return;
	ag->said++;
	fprintf(stderr,
		"%sperfjava: java frames unavailable for JVM %d: %s%s\n",
		rec->start_ns && isatty(2) ? "\n" : "", p->pid, why,
		ag->said == ATTACH_SAID_MAX ? " (further JVMs that fail are "
					      "counted in the summary)"
					    : "");
}

void agents_want(struct recorder *rec, struct proc *p)
{
	struct rproc *r = rproc(p);

	if (!p->java || rec->o.no_java || p->agent || r->want || r->attaching ||
	    r->java_failed || r->ended)
		return;
	if (!r->uid_known && !proc_uid(p->pid, &r->uid))
		r->uid_known = true;
	r->want = true;
	r->want_since = now_ns();
	r->attach_tries = 0;
	agents_tick(rec, r->want_since); /* due at attach_at (0: now) */
}

/* Places in flight: all, and of uid. */
static unsigned int in_flight(const struct agents *ag, const uid_t *uid)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < AGENTS_ATTACHING; i++)
		n += ag->v[i].child && (!uid || ag->uid[i] == *uid);
	return n;
}

/* p's attach started in place i; false when it could not be (said). */
static bool start(struct recorder *rec, struct proc *p, unsigned int i,
		  uint64_t now)
{
	struct agents *ag = &rec->ag;
	char err[512];

	prepare(rec, p);
	if (attacher_start(&ag->v[i], p->pid, agent_path(rec),
			   now + ATTACH_DEADLINE_NS, err, sizeof(err))) {
		given_up(rec, p, err);
		return false;
	}
	ag->uid[i] = rproc(p)->uid;
	rproc(p)->attaching = true;
	rproc(p)->attach_tries++;
	rec->th.changed = true; /* its fd polled */
	return true;
}

/* The places whose child is gone are free again; those past their
 * deadline are given up. */
static void reap(struct recorder *rec, uint64_t now)
{
	struct agents *ag = &rec->ag;

	for (unsigned int i = 0; i < AGENTS_ATTACHING; i++) {
		struct attacher *at = &ag->v[i];
		struct proc *p;
		char why[160];

		if (!at->child)
			continue;
		if (at->fd < 0) { /* given up already: waits to be reaped */
			attacher_reaped(at);
			continue;
		}
		if (now < at->deadline)
			continue;
		p = procs_get(&rec->procs, at->pid);
		attacher_cancel(at);
		rec->th.changed = true;
		if (!p)
			continue;
		rproc(p)->attaching = false;
		snprintf(why, sizeof(why),
			 "its attach did not end within %llu s; given up",
			 ATTACH_DEADLINE_NS / 1000000000ULL);
		given_up(rec, p, why);
	}
}

void agents_tick(struct recorder *rec, uint64_t now)
{
	struct agents *ag = &rec->ag;
	unsigned int i = 0;

	reap(rec, now);
	for (unsigned int k = 0;
	     k < rec->procs.n && in_flight(ag, NULL) < AGENTS_ATTACHING; k++) {
		struct proc *p = rec->procs.v[k];
		struct rproc *r = rproc(p);

		if (!r->want || r->attaching || now < r->attach_at ||
		    in_flight(ag, &r->uid) >= AGENTS_ATTACHING_UID)
			continue;
		if (p->agent || r->ended) {
			r->want = false;
			continue;
		}
		while (ag->v[i].child) /* a free place: in_flight said so */
			i++;
		start(rec, p, i, now);
	}
}

int agents_attach_fd(const struct recorder *rec, unsigned int i)
{
	/* (a free place is zeroed: its fd is no fd) */
	return i < AGENTS_ATTACHING && rec->ag.v[i].child ? rec->ag.v[i].fd
							  : -1;
}

struct proc *agents_attach_done(struct recorder *rec, unsigned int i)
{
	struct attacher *at = &rec->ag.v[i];
	struct proc *p = procs_get(&rec->procs, at->pid);
	uint64_t retry = p && rproc(p)->java_at ? CHILD_RETRY_NS
						: ATTACH_RETRY_NS;
	struct agent *a;
	char err[512];
	int r;

	if (agents_attach_fd(rec, i) < 0)
		return NULL;
	r = attacher_take(at, &a, err, sizeof(err));
	rec->th.changed = true; /* its fd no more */
	if (!p) { /* (a JVM is never forgotten: cannot be) */
		if (!r)
			agent_stop(a);
		return NULL;
	}
	rproc(p)->attaching = false;
	if (!r && (p->agent || rproc(p)->ended)) {
		agent_stop(a);
		rproc(p)->want = false;
	} else if (!r) {
		rproc(p)->want = false;
		adopted(rec, p, a);
		return p;
	} else if (r == ATTACH_NOT_YET &&
		   now_ns() + retry < rproc(p)->want_since + ATTACH_WINDOW_NS &&
		   !proc_gone(p->pid)) {
		rproc(p)->attach_at = now_ns() + retry;
	} else {
		given_up(rec, p, err);
	}
	return NULL;
}

void agents_settle(struct recorder *rec, int sigfd)
{
	uint64_t end = now_ns() + SETTLE_NS;

	for (;;) {
		struct pollfd pf[AGENTS_ATTACHING + 1];
		unsigned int n = 0, idx[AGENTS_ATTACHING];
		uint64_t now = now_ns();

		for (unsigned int i = 0; i < AGENTS_ATTACHING; i++)
			if (agents_attach_fd(rec, i) >= 0) {
				pf[n] = (struct pollfd){ rec->ag.v[i].fd,
							 POLLIN, 0 };
				idx[n++] = i;
			}
		if (!n || now >= end)
			return;
		pf[n] = (struct pollfd){ sigfd, POLLIN, 0 };
		if (poll(pf, n + 1, (int)((end - now) / 1000000) + 1) < 0 ||
		    pf[n].revents)
			return; /* a signal: the poll loop reads it */
		for (unsigned int k = 0; k < n; k++)
			if (pf[k].revents)
				agents_attach_done(rec, idx[k]);
		agents_tick(rec, now_ns());
	}
}

void agents_abandon(struct recorder *rec)
{
	struct agents *ag = &rec->ag;

	for (unsigned int i = 0; i < AGENTS_ATTACHING; i++) {
		struct proc *p = procs_get(&rec->procs, ag->v[i].pid);

		if (!ag->v[i].child)
			continue;
		if (ag->v[i].fd >= 0 && p)
			rproc(p)->attaching = false;
		attacher_cancel(&ag->v[i]);
		ag->v[i].child = 0; /* reaped or not, not waited for */
	}
	for (unsigned int k = 0; k < rec->procs.n; k++) {
		struct proc *p = rec->procs.v[k];

		if (rproc(p)->want)
			given_up(rec, p,
				 rproc(p)->attach_tries
				     ? "the recording ended before its attach "
				       "did (it was still starting, or did not "
				       "answer yet)"
				     : "the recording ended before its "
				       "attach could start");
	}
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

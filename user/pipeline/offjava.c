// SPDX-License-Identifier: GPL-2.0
/*
 * The Java frames of off-CPU stacks: see pipeline/offjava.h. A wait of a
 * JVM's thread is held (pipeline/pending.h) with the parts of its switch-out
 * stack; it is merged when it ends (pipeline/merge.c, as a sampled walk is
 * merged: the native frames of the blocking call stay below the Java native
 * method), with the agent's Java frames when they are the wait's, else with
 * a marker at the root.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jvm/stacks.h"
#include "lib/clock.h"
#include "lib/grow.h"
#include "perfjava/agent_proto.h"
#include "pipeline/emit.h"
#include "pipeline/merge.h"
#include "pipeline/offjava.h"
#include "pipeline/offstate.h"
#include "pipeline/pending.h"
#include "pipeline/proc.h"

#define WOKE_MARKER "[java: woke before the walk]"
#define LIMITED_MARKER "[java: not asked: over the rate limit]"
#define NO_ANSWER_MARKER "[java: no answer from the agent]"
#define FIRST_SEEN_MARKER "[user stack unknown: blocked when first seen]"
#define TRUNCATED_MARKER "[java: deeper than the stack copy]"

/* Where the Java stack of a held wait stands (struct held's mark). */
enum offjava_ask {
	ASK_NONE = 0, /* not asked (yet) */
	ASK_LIMITED, /* not asked: over the rate or the outstanding limit */
	ASK_SENT, /* asked, no answer yet */
	ASK_COPY, /* its stack copy sent, no answer yet */
	ASK_ANSWERED,
	ASK_LOST, /* asked, and the answer will not come */
	ASK_NOT_JAVA, /* not asked: not a Java thread a moment ago */
};

static void answered(void *ctx, struct held *h);
static bool expired(void *ctx, struct held *h, bool force);
static void leave(void *ctx, struct held *h);
static void agent_gone(void *ctx, struct held *h);
static void on_answer(void *ctx, const struct agent_stack *a);

static const struct wait_kind java_wait = {
	.name = "off-CPU Java stack",
	.deadline_ns = OFFJAVA_DEADLINE_NS,
	.answered = answered,
	.expired = expired,
	.leave = leave,
	.agent_gone = agent_gone,
};

/* Whether the agent said a moment before t that tid is no Java thread. */
static bool not_java(const struct offjava *oj, uint32_t tid, uint64_t t)
{
	uint32_t ms;

	return u64map_get(&oj->not_java, (uint64_t)tid + 1, &ms) &&
	       t < oj->start_ns + (uint64_t)(ms - 1) * 1000000 +
		       OFFJAVA_NOT_JAVA_NS;
}

static void want(struct offjava *oj, struct held *h)
{
	if (oj->nwant < OFFJAVA_MAX_WANT &&
	    !GROW(oj->want, oj->wantcap, oj->nwant + 1))
		oj->want[oj->nwant++] = h->id;
	else
		h->mark = ASK_LIMITED;
}

/* The agent of h's JVM, or NULL. */
static struct agent *agent_of(const struct offjava *oj, const struct held *h)
{
	const struct proc *p = procs_get(oj->em->procs, (pid_t)h->smp.s.pid);

	return p ? p->agent : NULL;
}

/* Sends the copy of h's stack, whose Java frames the agent walks as they
 * were at its switch-out: true when sent. */
static bool ask_copy(struct offjava *oj, struct held *h,
		     const struct stack_copy *c)
{
	struct agent *a = agent_of(oj, h);

	if (oj->copies_out >= OFFJAVA_COPIES_OUT || !a)
		return false;
	agent_on_stack(a, on_answer, oj);
	if (agent_ask_copy(a, (pid_t)h->smp.s.tid, h->smp.s.time, c, h->id))
		return false;
	h->mark = ASK_COPY;
	h->flag2 = true; /* its copy was sent */
	pending_asked(h, now_ns());
	/* a copy does not go stale: an agent busy with its start (the
	 * replay of code and threads) or held at a safepoint answers late */
	h->deadline = h->asked + OFFJAVA_COPY_DEADLINE_NS;
	oj->copies_out++;
	oj->st.copies++;
	if (!c->stack)
		oj->st.chains++;
	return true;
}

uint64_t offjava_hold(struct offjava *oj, const struct sample *smp,
		      bool first_seen)
{
	static int off = -1;
	bool nj = not_java(oj, smp->s.tid, smp->s.time);
	struct held *h;

	/* benchmarks only: PERFJAVA_OFFCPU_JAVA=0 asks for nothing */
	if (off < 0)
		off = getenv("PERFJAVA_OFFCPU_JAVA") &&
		      !strcmp(getenv("PERFJAVA_OFFCPU_JAVA"), "0");
	if (off)
		return 0;
	h = pending_hold(oj->pend, &java_wait, oj, smp,
			 PENDING_END | PENDING_JAVA, 0);
	if (!h)
		return 0;
	h->flag = first_seen;
	h->smp.jcopy.stack = NULL; /* the decoder's, not the held's */
	/* a copy sent is waited for, even from a thread taken for no Java
	 * thread a moment ago (one that was still starting, say) */
	if ((smp->jcopy.stack || smp->jcopy.nchain) &&
	    ask_copy(oj, h, &smp->jcopy))
		return h->id;
	if (nj) {
		h->needs &= ~PENDING_JAVA;
		h->mark = ASK_NOT_JAVA;
	} else {
		want(oj, h);
	}
	return h->id;
}

/* h's question is answered or given up. */
static void sent_done(struct offjava *oj, const struct held *h)
{
	if (h->mark == ASK_SENT)
		oj->outstanding--;
	else if (h->mark == ASK_COPY)
		oj->copies_out--;
}

/* Whether the bucket has a request left now. */
static bool take_token(struct offjava *oj, uint64_t now)
{
	if (oj->refill_at) {
		oj->tokens +=
		    (double)(now - oj->refill_at) * OFFJAVA_RATE / 1e9;
		if (oj->tokens > OFFJAVA_BURST)
			oj->tokens = OFFJAVA_BURST;
	} else {
		oj->tokens = OFFJAVA_BURST;
	}
	oj->refill_at = now;
	if (oj->tokens < 1 || oj->outstanding >= OFFJAVA_OUTSTANDING)
		return false;
	oj->tokens -= 1;
	return true;
}

static void on_answer(void *ctx, const struct agent_stack *a)
{
	struct java_answer ans = {
		.status = a->status,
		.frames = a->frames,
		.n = a->status == AGENT_WALK_OK ? a->n : 0,
		.walk_time = a->walk_time,
		.state = a->state,
		.exact = a->copy,
		.truncated = a->truncated,
	};
	struct offjava *oj = ctx;
	struct held *h = pending_get(oj->pend, a->cookie);

	/* given up already; but a late answer to its copy is still of the
	 * switch-out's moment, whatever was asked since */
	if (!h || h->kind != &java_wait ||
	    (h->mark != ASK_SENT && h->mark != ASK_COPY &&
	     !(a->copy && h->flag2 && (h->needs & PENDING_JAVA))))
		return;
	if (a->copy && h->mark != ASK_COPY) {
		sent_done(oj, h); /* what was asked after: given up */
		h->mark = ASK_COPY;
		h->asked = h->asked ? h->asked : now_ns();
		oj->copies_out++; /* answered() takes it back */
		oj->st.late_copies++;
	}
	if (a->walk_time > a->start_time && a->copy)
		oj->st.copy_walk_ns += a->walk_time - a->start_time;
	else if (a->walk_time > a->start_time)
		oj->st.walk_ns += a->walk_time - a->start_time;
	if (a->copy)
		oj->st.copies_answered++;
	pending_answer(oj->pend, a->cookie, &ans);
}

void offjava_ask(struct offjava *oj, struct procs *ps)
{
	size_t keep = 0;
	uint64_t now;

	if (!oj->nwant)
		return;
	now = now_ns();
	for (size_t i = 0; i < oj->nwant; i++) {
		struct held *h = pending_get(oj->pend, oj->want[i]);
		struct proc *p;
		struct agent *a;

		/* still blocked as far as the reader knows: ask */
		if (!h || !(h->needs & PENDING_END) || h->mark != ASK_NONE)
			continue;
		p = procs_get(ps, (pid_t)h->smp.s.pid);
		a = p ? p->agent : NULL;
		if (!agent_has_stacks(a)) {
			/* (an agent still to come: it waits) */
			oj->want[keep++] = oj->want[i];
			continue;
		}
		agent_on_stack(a, on_answer, oj);
		if (!take_token(oj, now)) {
			oj->want[keep++] = oj->want[i]; /* asked later, if
							   it still waits */
			continue;
		}
		if (agent_ask_stack(a, (pid_t)h->smp.s.tid, h->smp.s.time,
				    h->id)) {
			h->mark = ASK_LIMITED;
			continue;
		}
		h->mark = ASK_SENT;
		pending_asked(h, now);
		oj->outstanding++;
		oj->st.asked++;
	}
	oj->nwant = keep;
}

/* The answer for h: kept until its wait ends. */
static void answered(void *ctx, struct held *h)
{
	struct offjava *oj = ctx;
	/* an agent that knew no thread of that tid took no walk time */
	uint64_t at = h->ans.walk_time ? h->ans.walk_time : now_ns();
	uint32_t ms =
	    (uint32_t)((at > oj->start_ns ? at - oj->start_ns : 0) / 1000000);

	sent_done(oj, h);
	h->mark = ASK_ANSWERED;
	oj->st.answered++;
	/* a stack copy that could not be walked: while the thread still
	 * waits, its stack is asked of the agent as for a wait without one */
	if (h->ans.exact && h->ans.status != AGENT_WALK_OK &&
	    (h->needs & PENDING_END)) {
		oj->st.copy_failed++;
		h->needs |= PENDING_JAVA;
		h->mark = ASK_NONE;
		h->asked = 0;
		want(oj, h);
		return;
	}
	if (h->ans.exact && h->ans.truncated)
		oj->st.truncated++;
	/* a thread the agent knows no Java thread of (a compiler or GC
	 * thread, hidden from JVMTI; one still starting) is not asked again
	 * for a while, however late the answer: its waits are no Java waits,
	 * not waits that woke before the walk (their stack copies are still
	 * sent). One found with Java frames, in a copy or not, is asked
	 * again at once. */
	if (h->ans.exact) {
		if (h->ans.status == AGENT_WALK_OK && h->ans.n)
			u64map_del(&oj->not_java, (uint64_t)h->smp.s.tid + 1);
		return;
	}
	if (h->ans.status == AGENT_WALK_NOT_JAVA)
		u64map_put(&oj->not_java, (uint64_t)h->smp.s.tid + 1, ms + 1);
	else if (h->needs & PENDING_END)
		u64map_del(&oj->not_java, (uint64_t)h->smp.s.tid + 1);
}

/* No answer in time: asked again while the thread still waits (an agent
 * busy with its start, say). */
static bool expired(void *ctx, struct held *h, bool force)
{
	struct offjava *oj = ctx;

	sent_done(oj, h);
	h->mark = ASK_LOST;
	if (force || !(h->needs & PENDING_END) ||
	    oj->nwant >= OFFJAVA_MAX_WANT ||
	    GROW(oj->want, oj->wantcap, oj->nwant + 1))
		return false;
	h->mark = ASK_NONE;
	h->asked = 0;
	oj->want[oj->nwant++] = h->id;
	oj->st.reasked++;
	return true;
}

/* The marker at the root when h has no Java frames, or NULL. */
bool offjava_wanted(const struct offjava *oj, const struct sample *smp)
{
	const struct proc *p = procs_get(oj->em->procs, (pid_t)smp->s.pid);

	return oj->java && p && p->java;
}

static const char *why_not(struct offjava *oj, const struct held *h,
			   bool *accept, int *status)
{
	*accept = false;
	*status = MERGE_NO_WALK;
	switch (h->mark) {
	case ASK_ANSWERED:
		if (h->ans.status == AGENT_WALK_NOT_JAVA) {
			oj->st.not_java++;
			return NULL;
		}
		if (h->ans.status != AGENT_WALK_OK) {
			oj->st.failed++;
			*status = h->ans.status; /* merge's marker says why */
			return NULL;
		}
		/* a switch-in before the walk ended: another moment (a walk
		 * of the switch-out's own stack copy is of its moment) */
		if (!h->ans.exact && h->end && h->end <= h->ans.walk_time) {
			oj->st.woke++;
			return WOKE_MARKER;
		}
		*accept = true;
		*status = AGENT_WALK_OK;
		return NULL;
	case ASK_NOT_JAVA:
		oj->st.not_java++;
		return NULL;
	case ASK_LIMITED:
		oj->st.limited++;
		return LIMITED_MARKER;
	case ASK_SENT:
	case ASK_COPY:
	case ASK_LOST:
		oj->st.no_answer++;
		return NO_ANSWER_MARKER;
	default: /* back before the reader saw it go */
		oj->st.woke++;
		return WOKE_MARKER;
	}
}

/* h's stack, merged with its Java frames when accept, else with why at
 * the root; the state leaf on top. Its id; *marker as merge_stack's. */
static uint32_t merged(struct offjava *oj, const struct held *h, bool accept,
		       int status, const char *why, int *marker)
{
	struct java_part j = {
		.status = status,
		.jf = accept ? h->ans.frames : NULL,
		.nj = accept ? h->ans.n : 0,
		.held = accept,
	};
	int st = h->smp.state;

	if (accept && !h->ans.n)
		j.status = AGENT_WALK_NOT_JAVA;
	/* a JVM's futex is a sleep, a wait for work or a lock's: its
	 * frames tell */
	if (accept)
		st =
		    offstate_of_java(st, h->ans.frames, h->ans.n, h->ans.state);
	return emit_stack(oj->em, &h->smp, &j, why,
			  offstate_leaf(oj->os, oj->em->w, st), marker);
}

static void leave(void *ctx, struct held *h)
{
	struct offjava *oj = ctx;
	uint64_t ns = pending_waited(h);
	bool accept;
	int status, marker;
	const char *why;
	uint32_t stack;

	sent_done(oj, h); /* its answer will find no one */
	if (!ns) /* its end was lost: no weight */
		return;
	why = why_not(oj, h, &accept, &status);
	if (h->flag && !accept && !h->smp.nu)
		why = FIRST_SEEN_MARKER;
	else if (accept && h->ans.truncated && h->ans.exact)
		why = TRUNCATED_MARKER;
	else if (!agent_of(oj, h) && h->mark == ASK_NONE)
		why = NULL; /* no agent: nothing was to be asked */
	if (accept && h->premerged) { /* merged when the agent went */
		stack = h->premerged - 1;
		marker = h->premarker;
	} else {
		stack = merged(oj, h, accept, status, why, &marker);
	}
	if (accept && marker == MERGE_MOVED_ON)
		oj->st.not_merged++;
	else if (accept)
		oj->st.accepted++;
	oj->st.intervals++;
	h->smp.s.period = ns;
	emit_write(oj->em, &h->smp, stack);
}

/*
 * The names of the agent's frames go with it (a JVM that exits leaves
 * before the waits still open are written): the stack of each answered
 * wait is merged now, to be used if the wait is still taken as the walk's
 * when it ends.
 */
static void agent_gone(void *ctx, struct held *h)
{
	if (h->mark == ASK_ANSWERED && h->ans.status == AGENT_WALK_OK &&
	    !h->premerged)
		h->premerged =
		    merged(ctx, h, true, AGENT_WALK_OK, NULL, &h->premarker) +
		    1;
	h->ans.n = 0;
}

void offjava_agent_gone(struct offjava *oj, pid_t pid)
{
	size_t keep = 0;

	for (size_t i = 0; i < oj->nwant; i++) {
		const struct held *h = pending_get(oj->pend, oj->want[i]);

		if (h && (pid_t)h->smp.s.pid != pid)
			oj->want[keep++] = oj->want[i];
	}
	oj->nwant = keep;
}

void offjava_forget(struct offjava *oj)
{
	oj->nwant = 0;
	oj->outstanding = 0;
	oj->copies_out = 0;
	u64map_free(&oj->not_java);
}

void offjava_free(struct offjava *oj)
{
	offjava_forget(oj);
	free(oj->want);
	oj->want = NULL;
	oj->wantcap = 0;
}

void offjava_write_stats(const struct offjava *oj, struct pj_writer *w)
{
	const struct offjava_stats *st = &oj->st;

	if (!st->intervals)
		return;
	pj_writer_stat(w, "offcpu_java_intervals", st->intervals);
	pj_writer_stat(w, "offcpu_java_asked", st->asked);
	pj_writer_stat(w, "offcpu_java_answered", st->answered);
	pj_writer_stat(w, "offcpu_java_reasked", st->reasked);
	pj_writer_stat(w, "offcpu_java_accepted", st->accepted);
	pj_writer_stat(w, "offcpu_java_woke", st->woke);
	pj_writer_stat(w, "offcpu_java_limited", st->limited);
	pj_writer_stat(w, "offcpu_java_no_answer", st->no_answer);
	pj_writer_stat(w, "offcpu_java_not_java", st->not_java);
	pj_writer_stat(w, "offcpu_java_failed", st->failed);
	pj_writer_stat(w, "offcpu_java_not_merged", st->not_merged);
	pj_writer_stat(w, "offcpu_java_walk_ns", st->walk_ns);
	pj_writer_stat(w, "offcpu_java_copies", st->copies);
	pj_writer_stat(w, "offcpu_java_copies_answered", st->copies_answered);
	pj_writer_stat(w, "offcpu_java_chains", st->chains);
	pj_writer_stat(w, "offcpu_java_copy_failed", st->copy_failed);
	pj_writer_stat(w, "offcpu_java_truncated", st->truncated);
	pj_writer_stat(w, "offcpu_java_copy_walk_ns", st->copy_walk_ns);
	pj_writer_stat(w, "offcpu_java_late_copies", st->late_copies);
}

void offjava_summary(const struct offjava *oj)
{
	const struct offjava_stats *st = &oj->st;
	uint64_t asked_answered = st->answered - st->copies_answered;

	if (!st->intervals)
		return;
	fprintf(
	    stderr,
	    "perfjava: off-CPU Java stacks: %llu of %llu waits; %llu "
	    "walked in their switch-out's stack copy (%.1f us each, %llu "
	    "by its frame-pointer chain beyond it, %llu not walkable there, "
	    "%llu deeper than it), %llu asked of the "
	    "agent (%.1f us each; %llu woke before the walk, %llu over "
	    "the rate limit, %llu unanswered); %llu failed, %llu not Java, "
	    "%llu not merged\n",
	    (unsigned long long)st->accepted, (unsigned long long)st->intervals,
	    (unsigned long long)st->copies,
	    st->copies_answered ? st->copy_walk_ns / 1e3 / st->copies_answered
				: 0.0,
	    (unsigned long long)st->chains, (unsigned long long)st->copy_failed,
	    (unsigned long long)st->truncated, (unsigned long long)st->asked,
	    asked_answered ? st->walk_ns / 1e3 / asked_answered : 0.0,
	    (unsigned long long)st->woke, (unsigned long long)st->limited,
	    (unsigned long long)st->no_answer, (unsigned long long)st->failed,
	    (unsigned long long)st->not_java,
	    (unsigned long long)st->not_merged);
}

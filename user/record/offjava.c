// SPDX-License-Identifier: GPL-2.0
/*
 * The Java frames of off-CPU stacks: see record/offjava.h. An interval of a
 * JVM's thread keeps the parts of its switch-out stack; it is merged when it
 * ends (record/merge.c, as a sampled walk is merged: the native frames of
 * the blocking call stay below the Java native method), with the agent's
 * Java frames when they are the wait's, else with a marker at the root.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jvm/stacks.h"
#include "lib/clock.h"
#include "lib/grow.h"
#include "perfjava/agent_proto.h"
#include "record/offjava.h"
#include "record/record.h"
#include "record/wall_internal.h"

#define WOKE_MARKER "[java: woke before the walk]"
#define LIMITED_MARKER "[java: not asked: over the rate limit]"
#define NO_ANSWER_MARKER "[java: no answer from the agent]"
#define FIRST_SEEN_MARKER "[user stack unknown: blocked when first seen]"

static void on_answer(void *ctx, const struct agent_stack *a);

int offjava_keep(struct recorder *rec, struct interval *iv, const uint32_t *kf,
		 unsigned int nk, const uint64_t *up, unsigned int nu)
{
	struct wall *w = rec->wall;
	static int off = -1;

	/* benchmarks only: PERFJAVA_OFFCPU_JAVA=0 asks for nothing */
	if (off < 0)
		off = getenv("PERFJAVA_OFFCPU_JAVA") &&
		      !strcmp(getenv("PERFJAVA_OFFCPU_JAVA"), "0");
	iv->java = false;
	if (off)
		return -1;
	if (GROW(iv->kf, iv->kcap, nk + 1) || GROW(iv->up, iv->ucap, nu + 1))
		return -1;
	memcpy(iv->kf, kf, nk * sizeof(*kf));
	if (nu)
		memcpy(iv->up, up, nu * sizeof(*up));
	iv->nk = nk;
	iv->nu = nu;
	iv->java = true;
	iv->cookie = 0;
	iv->nj = 0;
	iv->pre_stack = 0;
	iv->jstate = 0;
	iv->ask = ASK_NONE;
	if (iv->not_java_at &&
	    iv->out < iv->not_java_at + OFFJAVA_NOT_JAVA_NS) {
		iv->ask = ASK_NOT_JAVA;
		return 0;
	}
	if (w->nwant < OFFJAVA_MAX_WANT &&
	    !GROW(w->want, w->wantcap, w->nwant + 1))
		w->want[w->nwant++] = iv->tid;
	else
		iv->ask = ASK_LIMITED;
	return 0;
}

/* Whether the bucket has a request left now. */
static bool take_token(struct wall *w, uint64_t now)
{
	if (w->refill_at) {
		w->tokens += (double)(now - w->refill_at) * OFFJAVA_RATE / 1e9;
		if (w->tokens > OFFJAVA_BURST)
			w->tokens = OFFJAVA_BURST;
	} else {
		w->tokens = OFFJAVA_BURST;
	}
	w->refill_at = now;
	if (w->tokens < 1 || w->outstanding >= OFFJAVA_OUTSTANDING)
		return false;
	w->tokens -= 1;
	return true;
}

void offjava_ask(struct recorder *rec)
{
	struct wall *w = rec->wall;
	size_t keep = 0;
	uint64_t now;

	if (!w || !w->nwant || !agent_has_stacks(rec->agent))
		return; /* (an agent still to come: they wait) */
	if (!w->handler_set) {
		agent_on_stack(rec->agent, on_answer, rec);
		w->handler_set = true;
	}
	now = now_ns();
	for (size_t i = 0; i < w->nwant; i++) {
		struct interval *iv = wall_find(w, w->want[i], false);

		/* still blocked as far as the reader knows: ask */
		if (!iv || !iv->open || !iv->java || iv->ask != ASK_NONE)
			continue;
		if (!take_token(w, now)) {
			w->want[keep++] = w->want[i]; /* asked later, if
							 it still waits */
			continue;
		}
		iv->cookie = (uint64_t)iv->tid << 32 | ++w->seq;
		if (agent_ask_stack(rec->agent, (pid_t)iv->tid, iv->out,
				    iv->cookie)) {
			iv->ask = ASK_LIMITED;
			continue;
		}
		iv->ask = ASK_SENT;
		iv->asked_at = now;
		w->outstanding++;
		w->st.asked++;
	}
	w->nwant = keep;
}

/* The answer a for iv: kept until iv ends (or written, if it has). */
static void take(struct wall *w, struct interval *iv,
		 const struct agent_stack *a)
{
	iv->ask = ASK_ANSWERED;
	iv->status = a->status;
	iv->jstate = a->state;
	iv->walk_time = a->walk_time;
	iv->nj = 0;
	if (a->status == AGENT_WALK_OK && a->n &&
	    !GROW(iv->jf, iv->jcap, a->n)) {
		memcpy(iv->jf, a->frames, a->n * sizeof(*iv->jf));
		iv->nj = a->n;
	}
	iv->not_java_at = a->status == AGENT_WALK_NOT_JAVA ? a->walk_time : 0;
	if (a->walk_time > a->start_time)
		w->st.walk_ns += a->walk_time - a->start_time;
	w->st.answered++;
}

static void free_parts(struct interval *iv)
{
	free(iv->kf);
	free(iv->up);
	free(iv->jf);
	iv->kf = NULL;
	iv->up = NULL;
	iv->jf = NULL;
	iv->kcap = iv->ucap = iv->jcap = 0;
}

/* Writes late interval i and takes it off the list. */
static void write_late(struct recorder *rec, size_t i)
{
	struct wall *w = rec->wall;
	struct interval iv = w->late[i];

	w->late[i] = w->late[--w->nlate];
	offjava_write(rec, &iv);
	free_parts(&iv);
}

static void on_answer(void *ctx, const struct agent_stack *a)
{
	struct recorder *rec = ctx;
	struct wall *w = rec->wall;
	struct interval *iv;

	if (!w || !a->cookie)
		return;
	iv = wall_find(w, (uint32_t)(a->cookie >> 32), false);
	if (iv && iv->java && iv->ask == ASK_SENT && iv->cookie == a->cookie) {
		w->outstanding--;
		take(w, iv, a);
		return;
	}
	for (size_t i = 0; i < w->nlate; i++) {
		if (w->late[i].cookie != a->cookie ||
		    w->late[i].ask != ASK_SENT)
			continue;
		w->outstanding--;
		take(w, &w->late[i], a);
		write_late(rec, i);
		return;
	}
	/* given up already */
}

bool offjava_late(struct recorder *rec, struct interval *iv)
{
	struct wall *w = rec->wall;

	if (iv->ask != ASK_SENT || w->nlate >= OFFJAVA_MAX_LATE ||
	    GROW(w->late, w->latecap, w->nlate + 1))
		return false;
	w->late[w->nlate++] = *iv;
	/* its parts are the late copy's now */
	iv->kf = NULL;
	iv->up = NULL;
	iv->jf = NULL;
	iv->kcap = iv->ucap = iv->jcap = 0;
	iv->nk = iv->nu = iv->nj = 0;
	iv->java = false;
	return true;
}

/* The marker at the root when iv has no Java frames, or NULL. */
static const char *why_not(struct wall *w, const struct interval *iv,
			   bool *accept, int *status)
{
	*accept = false;
	*status = MERGE_NO_WALK;
	switch (iv->ask) {
	case ASK_ANSWERED:
		if (iv->status == AGENT_WALK_NOT_JAVA) {
			w->st.not_java++;
			return NULL;
		}
		if (iv->status != AGENT_WALK_OK) {
			w->st.failed++;
			*status = iv->status; /* merge's marker says why */
			return NULL;
		}
		/* a switch-in before the walk ended: another moment */
		if (iv->in && iv->in <= iv->walk_time) {
			w->st.woke++;
			return WOKE_MARKER;
		}
		*accept = true;
		*status = AGENT_WALK_OK;
		return NULL;
	case ASK_NOT_JAVA:
		w->st.not_java++;
		return NULL;
	case ASK_LIMITED:
		w->st.limited++;
		return LIMITED_MARKER;
	case ASK_SENT:
	case ASK_LOST:
		w->st.no_answer++;
		return NO_ANSWER_MARKER;
	default: /* back before the reader saw it go */
		w->st.woke++;
		return WOKE_MARKER;
	}
}

/* iv's stack, merged with its Java frames when accept, else with why at
 * the root; the state leaf on top. Its id; *marker as merge_stack's. */
static uint32_t merged(struct recorder *rec, struct interval *iv, bool accept,
		       int status, const char *why, int *marker)
{
	struct merge_sink k;
	struct merge_in in = {
		.kframes = iv->kf,
		.nk = iv->nk,
		.uips = iv->up,
		.nu = iv->nu,
		.code = agent_codemap(rec->agent),
		.walk_status = status,
		.self_lo = rec->self_lo,
		.self_hi = rec->self_hi,
		.jf = accept ? iv->jf : NULL,
		.nj = accept ? iv->nj : 0,
		.held = accept,
		.root = why,
	};
	unsigned int n;
	int st = iv->kstate;

	if (accept && !iv->nj)
		in.walk_status = AGENT_WALK_NOT_JAVA;
	merge_sink_symbolizer(&k, &rec->sym);
	n = merge_stack(&k, &in, rec->scratch_out, MERGE_MAX_FRAMES, marker);
	/* a JVM sleeps on a futex, as it waits for a lock: its state tells */
	if (accept && (iv->jstate & PJA_TSTATE_SLEEPING) &&
	    (st == WALL_LOCK || st == WALL_BLOCKED))
		st = WALL_SLEEP;
	return wall_state_stack(rec, st, rec->scratch_out, n);
}

void offjava_write(struct recorder *rec, struct interval *iv)
{
	struct wall *w = rec->wall;
	bool accept;
	int status, marker;
	const char *why = why_not(w, iv, &accept, &status);

	if (iv->first_seen && !accept)
		why = FIRST_SEEN_MARKER;
	else if (!rec->agent && iv->ask == ASK_NONE)
		why = NULL; /* no agent: nothing was to be asked */
	if (accept && iv->pre_stack) { /* merged when the agent went */
		iv->s.stack = iv->pre_stack - 1;
		marker = iv->pre_marker;
	} else {
		iv->s.stack = merged(rec, iv, accept, status, why, &marker);
	}
	if (accept && marker == MERGE_MOVED_ON)
		w->st.not_merged++;
	else if (accept)
		w->st.accepted++;
	w->st.intervals++;
	wall_write_interval(rec, iv);
	iv->java = false;
}

void offjava_tick(struct recorder *rec, uint64_t now, bool force)
{
	struct wall *w = rec->wall;

	if (!w || !w->outstanding)
		return;
	for (size_t i = 0; i < w->nlate;) {
		if (force || now >= w->late[i].asked_at + OFFJAVA_DEADLINE_NS) {
			w->outstanding--;
			w->late[i].ask = ASK_LOST;
			write_late(rec, i);
			continue;
		}
		i++;
	}
	for (size_t i = 0; i < w->n; i++) {
		struct interval *iv = &w->v[i];

		if (!iv->java || iv->ask != ASK_SENT ||
		    (!force && now < iv->asked_at + OFFJAVA_DEADLINE_NS))
			continue;
		w->outstanding--;
		iv->ask = ASK_LOST;
		/* still waiting (an agent busy with its start, say): again */
		if (!force && iv->open && w->nwant < OFFJAVA_MAX_WANT &&
		    !GROW(w->want, w->wantcap, w->nwant + 1)) {
			iv->ask = ASK_NONE;
			w->want[w->nwant++] = iv->tid;
			w->st.reasked++;
		}
	}
}

void offjava_finish(struct recorder *rec)
{
	struct wall *w = rec->wall;
	uint64_t end = now_ns() + 250000000ULL;

	offjava_ask(rec);
	while (w && w->outstanding && rec->agent && now_ns() < end) {
		struct pollfd p = { agent_fd(rec->agent), POLLIN, 0 };

		if (agent_flush(rec->agent))
			break;
		if (poll(&p, 1, 10) > 0 &&
		    agent_process(rec->agent, record_walk_done, rec))
			break;
	}
}

void offjava_agent_gone(struct recorder *rec)
{
	struct wall *w = rec->wall;

	if (!w)
		return;
	offjava_tick(rec, 0, true);
	/*
	 * The names of the agent's frames go with it (a JVM that exits leaves
	 * before the waits still open are written): the stack of each answered
	 * wait is merged now, to be used if the wait is still taken as the
	 * walk's when it ends.
	 */
	for (size_t i = 0; i < w->n; i++) {
		struct interval *iv = &w->v[i];

		if (iv->java && iv->ask == ASK_ANSWERED &&
		    iv->status == AGENT_WALK_OK && !iv->pre_stack)
			iv->pre_stack = merged(rec, iv, true, AGENT_WALK_OK,
					       NULL, &iv->pre_marker) +
					1;
		iv->nj = 0;
	}
	w->handler_set = false;
	w->nwant = 0;
}

void offjava_forget(struct recorder *rec)
{
	struct wall *w = rec->wall;

	for (size_t i = 0; i < w->nlate; i++)
		free_parts(&w->late[i]);
	w->nlate = 0;
	w->outstanding = 0;
	w->nwant = 0;
	for (size_t i = 0; i < w->n; i++) {
		free_parts(&w->v[i]);
		w->v[i].nk = w->v[i].nu = w->v[i].nj = 0;
		w->v[i].java = false;
	}
}

void offjava_write_stats(struct recorder *rec)
{
	const struct offjava_stats *st = rec->wall ? &rec->wall->st : NULL;

	if (!st || !st->intervals)
		return;
	pj_writer_stat(rec->w, "offcpu_java_intervals", st->intervals);
	pj_writer_stat(rec->w, "offcpu_java_asked", st->asked);
	pj_writer_stat(rec->w, "offcpu_java_answered", st->answered);
	pj_writer_stat(rec->w, "offcpu_java_reasked", st->reasked);
	pj_writer_stat(rec->w, "offcpu_java_accepted", st->accepted);
	pj_writer_stat(rec->w, "offcpu_java_woke", st->woke);
	pj_writer_stat(rec->w, "offcpu_java_limited", st->limited);
	pj_writer_stat(rec->w, "offcpu_java_no_answer", st->no_answer);
	pj_writer_stat(rec->w, "offcpu_java_not_java", st->not_java);
	pj_writer_stat(rec->w, "offcpu_java_failed", st->failed);
	pj_writer_stat(rec->w, "offcpu_java_not_merged", st->not_merged);
	pj_writer_stat(rec->w, "offcpu_java_walk_ns", st->walk_ns);
}

void offjava_summary(const struct recorder *rec)
{
	const struct offjava_stats *st = rec->wall ? &rec->wall->st : NULL;

	if (!st || !st->intervals || rec->o.quiet)
		return;
	fprintf(
	    stderr,
	    "perfjava: off-CPU Java stacks: %llu of %llu waits (%llu asked; "
	    "%llu woke before the walk, %llu over the rate limit, %llu "
	    "unanswered, %llu failed, %llu not Java, %llu not merged); "
	    "%.1f us per walk\n",
	    (unsigned long long)st->accepted, (unsigned long long)st->intervals,
	    (unsigned long long)st->asked, (unsigned long long)st->woke,
	    (unsigned long long)st->limited, (unsigned long long)st->no_answer,
	    (unsigned long long)st->failed, (unsigned long long)st->not_java,
	    (unsigned long long)st->not_merged,
	    st->answered ? st->walk_ns / 1e3 / st->answered : 0.0);
}

// SPDX-License-Identifier: GPL-2.0
/* The Java walk of a JVM's sample; see record/cpuwalk.h. */
#include <poll.h>

#include "lib/clock.h"
#include "lib/grow.h"
#include "record/cpuwalk.h"
#include "record/emit.h"
#include "record/merge.h"
#include "record/offjava.h"
#include "record/pending.h"
#include "record/record.h"

static void add_latency(struct record_stats *st, uint64_t ns)
{
	if (GROW(st->lat, st->caplat, st->nlat + 1))
		return;
	st->lat[st->nlat++] = ns;
}

/*
 * The cross-check of a walk against the sample: the compiled method the
 * kernel sampled (the first JIT code in its callchain, named by the code map)
 * should be the agent's first compiled frame. They differ when the thread
 * moved on between the sample and the walk.
 */
static void check_walk(struct recorder *rec, const struct held *h)
{
	const struct java_frame *frames = h->ans.frames;
	const char *sampled = NULL;
	unsigned int i;

	for (i = 0; i < h->smp.nu && !sampled; i++) {
		int t = codemap_type_at(agent_codemap(rec->agent),
					h->smp.uips[i], &sampled);

		if (t != PJ_FRAME_JIT && t != PJ_FRAME_C1 &&
		    t != PJ_FRAME_JAVA_NATIVE)
			sampled = NULL;
	}
	if (!sampled)
		return;
	for (i = 0; i < h->ans.n; i++) {
		/* a native method's frame is its compiled wrapper's */
		if (frames[i].type != PJ_FRAME_JIT &&
		    frames[i].type != PJ_FRAME_C1 &&
		    frames[i].type != PJ_FRAME_JAVA_NATIVE)
			continue;
		rec->st.checked++;
		rec->st.agreed += java_same_method(frames[i].name, sampled);
		return;
	}
	rec->st.checked++; /* no compiled frame in the walk: it moved on */
}

static void answered(struct recorder *rec, struct held *h)
{
	if (h->ans.status != AGENT_WALK_OK)
		return;
	if (h->ans.walk_time >= h->smp.s.time)
		add_latency(&rec->st, h->ans.walk_time - h->smp.s.time);
	check_walk(rec, h);
}

static bool expired(struct recorder *rec, struct held *h, bool force)
{
	rec->st.no_answer++;
	return false;
}

static void leave(struct recorder *rec, struct held *h)
{
	struct java_part j = {
		.status = h->ans.status,
		.jf = h->ans.frames,
		.nj = h->ans.n,
		.at_sample = h->flag, /* its walk came from its signal */
	};
	int marker;
	uint32_t stack;

	if (j.status >= 0 && j.status <= AGENT_WALK_LOST)
		rec->st.walks[j.status]++;
	stack = emit_stack(rec, &h->smp, &j, NULL, 0, &marker);
	if (marker == MERGE_MOVED_ON)
		rec->st.moved_on++;
	emit_write(rec, &h->smp, stack);
}

static const struct wait_kind walk_wait = {
	.name = "Java walk",
	.max = RECORD_PENDING, /* the oldest gives up its place */
	.deadline_ns = RECORD_WALK_DEADLINE_NS,
	.answered = answered,
	.expired = expired,
	.leave = leave,
};

void cpuwalk_done(void *ctx, uint64_t cookie, int status,
		  const struct java_frame *frames, unsigned int n,
		  uint64_t walk_time_ns)
{
	struct java_answer a = { status, frames, n, walk_time_ns, 0 };

	pending_answer(ctx, cookie, &a);
}

bool cpuwalk_hold(struct recorder *rec, const struct ring *r,
		  const struct sample *smp)
{
	uint64_t id = pending_hold(rec, &walk_wait, smp, PENDING_JAVA);
	struct held *h = pending_get(rec, id);

	if (!h)
		return false;
	pending_asked(rec, h, now_ns());
	if (ksig_sample_routed(rec, r, &smp->s)) {
		/* its walk was taken at the sample: wait for it (ksig.c) */
		h->ttid = agent_target_tid(rec->agent, (pid_t)smp->s.tid);
		h->flag = true;
		ksig_wait(rec, id);
		return true;
	}
	if (agent_request(rec->agent, (pid_t)smp->s.tid, smp->s.time, id) < 0)
		cpuwalk_done(rec, id, AGENT_WALK_LOST, NULL, 0, 0);
	return true;
}

void record_finish_waits(struct recorder *rec)
{
	uint64_t end = now_ns() + 250000000ULL;

	offjava_ask(rec);
	while (rec->agent && pending_in_flight(rec) && now_ns() < end) {
		struct pollfd p = { agent_fd(rec->agent), POLLIN, 0 };

		if (agent_flush(rec->agent))
			break;
		if (poll(&p, 1, 10) > 0 &&
		    agent_process(rec->agent, cpuwalk_done, rec))
			break;
		ksig_collect(rec);
		ksig_match(rec);
	}
	pending_expire(rec, 0, true);
}

// SPDX-License-Identifier: GPL-2.0
/* The Java walk of a JVM's sample; see pipeline/cpuwalk.h. */
#include <string.h>

#include "lib/clock.h"
#include "pipeline/cpuwalk.h"
#include "pipeline/emit.h"
#include "pipeline/ksig.h"
#include "pipeline/merge.h"
#include "pipeline/pending.h"
#include "pipeline/proc.h"

/*
 * The cross-check of a walk against the sample: the compiled method the
 * kernel sampled (the first JIT code in its callchain, named by the code map)
 * should be the agent's first compiled frame. They differ when the thread
 * moved on between the sample and the walk.
 */
static void check_walk(struct cpuwalk *cw, const struct held *h)
{
	const struct java_frame *frames = h->ans.frames;
	const struct proc *p = procs_get(cw->em->procs, (pid_t)h->smp.s.pid);
	const struct codemap *code = p ? agent_codemap(p->agent) : NULL;
	const char *sampled = NULL;
	unsigned int i;

	for (i = 0; i < h->smp.nu && !sampled; i++) {
		int t = codemap_type_at(code, h->smp.uips[i], &sampled);

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
		cw->st.checked++;
		cw->st.agreed += java_same_method(frames[i].name, sampled);
		return;
	}
	cw->st.checked++; /* no compiled frame in the walk: it moved on */
}

static void answered(void *ctx, struct held *h)
{
	struct cpuwalk *cw = ctx;

	if (h->ans.status != AGENT_WALK_OK)
		return;
	if (h->ans.walk_time >= h->smp.s.time)
		loghist_add(&cw->st.lat, h->ans.walk_time - h->smp.s.time);
	check_walk(cw, h);
}

static bool expired(void *ctx, struct held *h, bool force)
{
	struct cpuwalk *cw = ctx;

	cw->st.no_answer++;
	return false;
}

static void leave(void *ctx, struct held *h)
{
	struct cpuwalk *cw = ctx;
	struct java_part j = {
		.status = h->ans.status,
		.jf = h->ans.frames,
		.nj = h->ans.n,
		.at_sample = h->flag, /* its walk came from its signal */
	};
	int marker;
	uint32_t stack;

	if (j.status >= 0 && j.status <= AGENT_WALK_LOST)
		cw->st.walks[j.status]++;
	stack = emit_stack(cw->em, &h->smp, &j, NULL, 0, &marker);
	if (marker == MERGE_MOVED_ON)
		cw->st.moved_on++;
	emit_write(cw->em, &h->smp, stack);
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
	struct cpuwalk *cw = ctx;
	struct java_answer a = { status, frames, n, walk_time_ns, 0 };

	pending_answer(cw->pend, cookie, &a);
}

bool cpuwalk_hold(struct cpuwalk *cw, struct proc *p, const struct ring *r,
		  const struct sample *smp)
{
	struct held *h =
	    pending_hold(cw->pend, &walk_wait, cw, smp, PENDING_JAVA, now_ns());

	if (!h)
		return false;
	if (ksig_sample_routed(&p->ks, r, &smp->s)) {
		/* its walk was taken at the sample: wait for it (ksig.c) */
		h->ttid = agent_target_tid(p->agent, (pid_t)smp->s.tid);
		h->flag = true;
		ksig_wait(&p->ks, h->id);
	} else if (agent_request(p->agent, (pid_t)smp->s.tid, smp->s.time,
				 h->id) < 0) {
		cpuwalk_done(cw, h->id, AGENT_WALK_LOST, NULL, 0, 0);
	}
	return true;
}

bool cpuwalk_latency(struct cpuwalk *cw, uint64_t *p50, uint64_t *p99,
		     uint64_t *max)
{
	const struct loghist *h = &cw->st.lat;

	*max = h->max;
	return loghist_quantile(h, 0.5, p50) && loghist_quantile(h, 0.99, p99);
}

void cpuwalk_new_file(struct cpuwalk *cw)
{
	memset(&cw->st, 0, sizeof(cw->st));
}

void cpuwalk_free(struct cpuwalk *cw)
{
	memset(&cw->st, 0, sizeof(cw->st));
}

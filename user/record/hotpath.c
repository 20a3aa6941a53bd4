// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's hot path: ring records become samples. A sample of a JVM
 * waits in a pending slot for its Java frames; all others are merged and
 * written at once.
 */
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <perf/event.h>

#include "events/lbr.h"
#include "lib/addr.h"
#include "lib/grow.h"
#include "lib/clock.h"
#include "record/record.h"
#include "record/perf_parse.h"
#include "record/wall.h"
#include "events/tracepoint.h"
#include "sym/usym.h"
#include "record/ustack.h"

static void write_sample(struct recorder *rec, struct pj_sample *s,
			 const struct merge_in *in)
{
	struct merge_sink k;
	unsigned int n;
	int marker;

	merge_sink_symbolizer(&k, &rec->sym);
	n = merge_stack(&k, in, rec->scratch_out, MERGE_MAX_FRAMES, &marker);
	if (marker == MERGE_MOVED_ON)
		rec->st.moved_on++;
	if (wall_is_offcpu(rec, s->event)) { /* written when its wait ends */
		wall_hold(rec, s, rec->scratch_out, n);
		return;
	}

	s->stack = pj_writer_stack(rec->w, rec->scratch_out, n);
	pj_writer_sample(rec->w, s);
	rec->st.samples++;
	if (s->event < RING_MAX_EVENTS)
		rec->st.event_samples[s->event]++;
}

static void finish_pending(struct recorder *rec, struct pending *p, int status,
			   const struct java_frame *jf, unsigned int nj)
{
	struct merge_in in = {
		.kframes = p->kframes,
		.nk = p->nk,
		.uips = p->uips,
		.nu = p->nu,
		.code = agent_codemap(rec->agent),
		.walk_status = status,
		.self_lo = rec->self_lo,
		.self_hi = rec->self_hi,
		.jf = jf,
		.nj = nj,
	};

	if (status >= 0 && status <= AGENT_WALK_LOST)
		rec->st.walks[status]++;
	write_sample(rec, &p->s, &in);
	free(p->uips);
	p->kframes = NULL;
	p->uips = NULL;
	p->cookie = 0;
	rec->npending--;
}

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
static void check_walk(struct recorder *rec, const struct pending *p,
		       const struct java_frame *frames, unsigned int n)
{
	const char *sampled = NULL;
	unsigned int i;

	for (i = 0; i < p->nu && !sampled; i++) {
		int t = codemap_type_at(agent_codemap(rec->agent), p->uips[i],
					&sampled);

		if (t != PJ_FRAME_JIT && t != PJ_FRAME_C1)
			sampled = NULL;
	}
	if (!sampled)
		return;
	for (i = 0; i < n; i++) {
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

void record_walk_done(void *ctx, uint64_t cookie, int status,
		      const struct java_frame *frames, unsigned int n,
		      uint64_t walk_time_ns)
{
	struct recorder *rec = ctx;
	struct pending *p = &rec->pend[cookie % RECORD_PENDING];

	if (!cookie || p->cookie != cookie)
		return; /* answered after its deadline */
	if (status == AGENT_WALK_OK && walk_time_ns >= p->s.time)
		add_latency(&rec->st, walk_time_ns - p->s.time);
	if (status == AGENT_WALK_OK)
		check_walk(rec, p, frames, n);
	finish_pending(rec, p, status, frames, n);
}

void record_expire_walks(struct recorder *rec, uint64_t now, bool force)
{
	if (!rec->npending)
		return;
	for (unsigned int i = 0; i < RECORD_PENDING; i++) {
		struct pending *p = &rec->pend[i];

		if (p->cookie && (force || now >= p->deadline)) {
			rec->st.no_answer++;
			finish_pending(rec, p, AGENT_WALK_TIMEOUT, NULL, 0);
		}
	}
}

/* Queues the sample for a Java walk; false when it cannot wait. */
static bool defer_sample(struct recorder *rec, const struct ring *r,
			 const struct pj_sample *s, unsigned int nk,
			 unsigned int nu)
{
	uint64_t cookie = ++rec->next_cookie;
	struct pending *p = &rec->pend[cookie % RECORD_PENDING];
	void *mem;

	if (p->cookie) {
		/* Too many outstanding: the oldest gives up its slot. */
		rec->st.no_answer++;
		finish_pending(rec, p, AGENT_WALK_TIMEOUT, NULL, 0);
	}
	/* One block: the user addresses, then the kernel frame ids. */
	mem = malloc(nu * sizeof(uint64_t) + nk * sizeof(uint32_t) + 8);
	if (!mem)
		return false;
	p->uips = mem;
	memcpy(p->uips, rec->scratch_u, nu * sizeof(uint64_t));
	p->kframes = (uint32_t *)(p->uips + nu);
	memcpy(p->kframes, rec->scratch_k, nk * sizeof(uint32_t));
	p->nk = nk;
	p->nu = nu;
	p->s = *s;
	p->cookie = cookie;
	p->deadline = now_ns() + RECORD_WALK_DEADLINE_NS;
	rec->npending++;
	if (ksig_sample_routed(rec, r, s)) {
		/* its walk was taken at the sample: wait for it (ksig.c) */
		p->ttid = agent_target_tid(rec->agent, (pid_t)s->tid);
		p->fd = r->fds[s->event];
		ksig_wait(rec, cookie);
		return true;
	}
	if (agent_request(rec->agent, (pid_t)s->tid, s->time, cookie) < 0)
		finish_pending(rec, p, AGENT_WALK_LOST, NULL, 0);
	return true;
}

/*
 * The user frames by CFI over the sample's stack copy, joined with the
 * kernel's chain (scratch_u[0..nf)) where the copy ends. Counts how
 * unwinding ended and where the stack stopped.
 */
static unsigned int user_frames(struct recorder *rec,
				const struct pj_raw_sample *rs, unsigned int nf)
{
	enum unwind_end end;
	unsigned int n;

	memcpy(rec->scratch_f, rec->scratch_u, nf * sizeof(uint64_t));
	n = unwind_user(rec->unw, rec->o.cg.mode == CG_DWARF, rs,
			rec->scratch_f, nf, rec->scratch_u, RECORD_MAX_CHAIN,
			&end);
	if (end < UNWIND_NEND && rs->regs_abi)
		rec->st.unwind[end]++;
	return n;
}

/* Where the user stack stopped: a thread's entry, or early in a file. */
static void note_stack_end(struct recorder *rec, unsigned int nu)
{
	struct usym_result res;
	uint64_t last;

	if (!nu || !rec->sym.usym || rec->lbr)
		return;
	last = rec->scratch_u[nu - 1];
	usym_resolve(rec->sym.usym, nu > 1 ? last - 1 : last, &res);
	stack_ends_note(&rec->st.ends, res.known ? res.name : NULL, res.module);
}

/* A tracepoint's fields, decoded, become the sample's info string. */
static void sample_info(struct recorder *rec, const struct pj_raw_sample *rs,
			struct pj_sample *s)
{
	char buf[1024];

	if (s->event < rec->nevents && rec->evs[s->event].tracepoint &&
	    tp_decode(rec->tp, rs->raw, rs->raw_size, buf, sizeof(buf)) >= 0)
		s->info = pj_writer_string(rec->w, buf);
}

static void on_sample(struct recorder *rec, struct ring *r,
		      const struct perf_event_header *hdr)
{
	struct pj_raw_sample rs;
	struct callchain_iter it;
	enum callchain_ctx ctx;
	struct pj_sample s = { 0 };
	unsigned int nk = 0, nu = 0;
	const char *self = NULL;
	uint64_t ip;

	if (sample_parse_regs(hdr, r->sample_type, r->branch_sample_type,
			      r->regs_user, &rs)) {
		rec->st.bad_records++;
		return;
	}
	s.time = rs.time;
	s.period = rs.period;
	s.tid = rs.tid;
	s.cpu = rs.cpu;
	s.event = ring_event_index(r, rs.id);
	if (!(r->sample_type & PERF_SAMPLE_PERIOD) && s.event < rec->nevents)
		s.period = rec->evs[s.event].period; /* see open_threads */
	switchcost_sample(&rec->swc, r, &rs, &s);
	callchain_iter_init(&it, rs.ips, rs.nr);
	while (callchain_next(&it, &ip, &ctx)) {
		if (ctx == CC_NONE)
			ctx = addr_is_kernel(ip) ? CC_KERNEL : CC_USER;
		if (ctx == CC_KERNEL && nk < RECORD_MAX_CHAIN)
			rec->scratch_k[nk++] = symbolize_kernel(&rec->sym, ip);
		else if (ctx == CC_USER && nu < RECORD_MAX_CHAIN && !rec->lbr)
			rec->scratch_u[nu++] = ip;
	}
	if (rec->unw && (rs.regs_abi || nu))
		nu = user_frames(rec, &rs, nu);
	note_stack_end(rec, nu);
	if (rec->lbr && rs.nbranch) /* -g lbr: user frames from the LBR */
		nu = lbr_user_frames(rs.ip, rs.branches, rs.nbranch,
				     rec->scratch_u, RECORD_MAX_CHAIN);
	if (rs.raw_size && rec->tp)
		sample_info(rec, &rs, &s);
	if (!rs.nr && rs.ip && !nu) {
		if (addr_is_kernel(rs.ip))
			rec->scratch_k[nk++] =
			    symbolize_kernel(&rec->sym, rs.ip);
		else
			rec->scratch_u[nu++] = rs.ip;
	}
	if (rec->agent)
		record_find_self(rec);
	if (rec->agent && record_java_name(rec, s.tid))
		self = "[perfjava: agent thread]"; /* not the application's */
	else if (rec->agent && !wall_is_offcpu(rec, s.event) &&
		 defer_sample(rec, r, &s, nk, nu))
		return;
	if (wall_is_offcpu(rec, s.event)) {
		wall_switch_out(rec, &s, &rs);
		/* no signal: its Java frames are asked (record/offjava.h) */
		if (!self &&
		    wall_java(rec, &s, rec->scratch_k, nk, rec->scratch_u, nu))
			return;
	}

	struct merge_in in = {
		.kframes = rec->scratch_k,
		.nk = nk,
		.uips = rec->scratch_u,
		.nu = nu,
		.code = agent_codemap(rec->agent),
		.walk_status = MERGE_NO_WALK,
		.self_lo = rec->self_lo,
		.self_hi = rec->self_hi,
		.root = self,
	};
	write_sample(rec, &s, &in);
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
		if ((pid_t)comm->pid == rec->o.pid &&
		    !record_has_java_name(rec, comm->tid))
			pj_writer_thread(rec->w, comm->tid, comm->pid,
					 comm->comm);
		break;
	default:
		break;
	}
}

/* Lets walks still in flight come back, for at most a quarter second. */
void record_finish_walks(struct recorder *rec)
{
	uint64_t end = now_ns() + 250000000ULL;

	while (rec->agent && rec->npending && now_ns() < end) {
		struct pollfd p = { agent_fd(rec->agent), POLLIN, 0 };

		agent_flush(rec->agent);
		if (poll(&p, 1, 10) > 0 &&
		    agent_process(rec->agent, record_walk_done, rec))
			break;
		ksig_collect(rec);
		ksig_match(rec);
	}
	record_expire_walks(rec, 0, true);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Off-CPU intervals from the kernel's context switches (see pipeline/wall.h).
 *
 * A thread's interval opens at its sched_switch sample (its stack where it
 * blocked, prev_state) and closes at its next switch-in (PERF_RECORD_SWITCH
 * without SWITCH_OUT); the sample is written then, weighted by the exact
 * time off CPU. A thread still blocked when the recording ends is closed
 * at the end: its whole wait shows; one found blocked when its events open
 * gets an interval from then, with the kernel stack /proc shows.
 *
 * The sample itself waits in the pending stage (pipeline/pending.h) for the
 * end of its wait; here each thread has only its open wait. No signal is
 * sent for a switch-out: it would wake the blocked thread, which blocks
 * again, which asks for another walk. A JVM's thread's Java frames are
 * asked of the agent without waking it (pipeline/offjava.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/spec.h"
#include "lib/clock.h"
#include "lib/file.h"
#include "lib/grow.h"
#include "lib/u64map.h"
#include "pipeline/blockstack.h"
#include "pipeline/emit.h"
#include "pipeline/offjava.h"
#include "pipeline/offstate.h"
#include "pipeline/pending.h"
#include "pipeline/proc.h"
#include "pipeline/sample.h"
#include "pipeline/wall.h"
#include "profile/io.h"
#include "rings/ring.h"
#include "rings/threads.h"
#include "sym/symbolize.h"

#define FIRST_SEEN_MARKER "[user stack unknown: blocked when first seen]"

/* A thread's wait: open from its switch-out to its switch-in. */
struct wait {
	uint32_t tid;
	bool open;
	uint64_t out; /* its switch-out */
	uint64_t id; /* its sample, held (pipeline/pending.h) */
	/* --wall: on a CPU since in (0: not known), and before that for on
	 * ns since its last clock sample */
	uint64_t in, on;
};

struct wall {
	struct wall_links l;
	bool offcpu[RING_MAX_EVENTS];
	bool clock[RING_MAX_EVENTS]; /* a clock event (--wall's cpu-clock) */
	bool java_copy; /* its switch-outs copy WALL_JAVA_COPY bytes */
	uint64_t start; /* the recording's start, once it came */
	struct blockstack *bs; /* first_seen's room */
	struct u64map index; /* tid -> position + 1 */
	struct wait *v;
	size_t n, cap;
};

int wall_expand(const char *spec, char *out, size_t len, bool *offcpu,
		unsigned int nmax)
{
	size_t at = 0;
	unsigned int n = 0;
	const char *p = spec;

	memset(offcpu, 0, nmax * sizeof(*offcpu));
	while (*p) {
		size_t k = events_token_len(p);
		const char *add;
		bool off[2] = { false, false };
		unsigned int nadd = 1;

		if (k == 4 && !strncmp(p, "wall", 4)) {
			add = "cpu-clock,sched:sched_switch";
			off[1] = true;
			nadd = 2;
		} else if (k == 6 && !strncmp(p, "offcpu", 6)) {
			add = "sched:sched_switch";
			off[0] = true;
		} else {
			add = NULL;
		}
		if (at + (add ? strlen(add) : k) + 2 > len)
			return -1;
		if (at)
			out[at++] = ',';
		if (add) {
			memcpy(out + at, add, strlen(add));
			at += strlen(add);
		} else {
			memcpy(out + at, p, k);
			at += k;
		}
		for (unsigned int i = 0; i < nadd; i++, n++)
			if (n < nmax)
				offcpu[n] = off[i];
		p += k;
		if (*p == ',')
			p++;
	}
	out[at] = 0;
	return 0;
}

int wall_setup(struct wall **out, struct pj_event *evs, unsigned int n,
	       const bool *offcpu, const struct wall_links *l)
{
	struct wall *w = NULL;

	for (unsigned int i = 0; i < n && i < RING_MAX_EVENTS; i++) {
		struct pj_event *ev = &evs[i];

		if (!offcpu[i])
			continue;
		if (!w && !(w = calloc(1, sizeof(*w)))) {
			fprintf(stderr, "perfjava: out of memory\n");
			return -1;
		}
		w->l = *l;
		w->offcpu[i] = true;
		snprintf(ev->name, sizeof(ev->name), "offcpu");
		snprintf(ev->unit, sizeof(ev->unit), "ns");
		ev->period = 1; /* every switch-out */
		ev->freq = 0;
		ev->attr.context_switch = 1; /* and every switch-in */
	}
	for (unsigned int i = 0; w && i < n && i < RING_MAX_EVENTS; i++)
		w->clock[i] = event_is_clock(&evs[i]);
	*out = w;
	return 0;
}

bool wall_java_copy(struct wall *w, struct pj_event *evs, unsigned int n,
		    bool java, uint32_t stack_size)
{
	bool on = w && java && stack_size && stack_size < WALL_JAVA_COPY;

	if (w)
		w->java_copy = on;
	for (unsigned int i = 0; on && i < n && i < RING_MAX_EVENTS; i++)
		if (w->offcpu[i]) {
			evs[i].attr.sample_stack_user = WALL_JAVA_COPY;
			evs[i].attr.watermark = 1;
		}
	return on;
}

bool wall_java_copied(const struct wall *w)
{
	return w && w->java_copy;
}

void wall_free(struct wall *w)
{
	if (!w)
		return;
	wall_forget(w);
	free(w->v);
	free(w->bs);
	free(w);
}

bool wall_is_offcpu(const struct wall *w, uint32_t ev)
{
	return w && ev < RING_MAX_EVENTS && w->offcpu[ev];
}

uint32_t wall_event(const struct wall *w)
{
	for (uint32_t i = 0; w && i < RING_MAX_EVENTS; i++)
		if (w->offcpu[i])
			return i;
	return 0;
}

static struct wait *find(struct wall *w, uint32_t tid, bool add)
{
	uint32_t i;

	if (u64map_get(&w->index, (uint64_t)tid + 1, &i))
		return &w->v[i - 1];
	if (!add || GROW(w->v, w->cap, w->n + 1) ||
	    u64map_put(&w->index, (uint64_t)tid + 1, (uint32_t)w->n + 1))
		return NULL;
	memset(&w->v[w->n], 0, sizeof(w->v[w->n]));
	w->v[w->n].tid = tid;
	return &w->v[w->n++];
}

/* A wait of a thread whose Java frames are not asked: written at its end,
 * with its state at the leaf. */
static void leave(void *ctx, struct held *h)
{
	struct wall *w = ctx;
	struct emitter *em = w->l.em;
	uint64_t ns = pending_waited(h);

	if (!ns) /* its end was lost: no weight */
		return;
	h->smp.s.period = ns;
	emit_write(em, &h->smp,
		   emit_stack(em, &h->smp, NULL, NULL,
			      offstate_leaf(w->l.os, em->w, h->smp.state),
			      NULL));
}

static bool never_asked(void *ctx, struct held *h, bool force)
{
	return false;
}

static void unused(void *ctx, struct held *h)
{
}

static const struct wait_kind native_wait = {
	.name = "off-CPU wait",
	.answered = unused,
	.expired = never_asked,
	.leave = leave,
};

/* Opens tid's wait at out for smp (its end, a lost switch-in, closes the
 * one still open), its Java frames asked when java. */
static void open_wait(struct wall *w, struct sample *smp, bool java,
		      bool first_seen)
{
	struct wait *wt = find(w, smp->s.tid, true);
	struct held *h;

	if (!wt)
		return;
	if (wt->open) /* its switch-in was lost: no weight */
		pending_end(w->l.pend, wt->id, 0);
	wt->out = smp->s.time;
	wt->id = java ? offjava_hold(w->l.oj, smp, first_seen) : 0;
	if (!wt->id && first_seen && !smp->nu)
		smp->root = FIRST_SEEN_MARKER;
	if (!wt->id &&
	    (h = pending_hold(w->l.pend, &native_wait, w, smp, PENDING_END, 0)))
		wt->id = h->id;
	wt->open = wt->id != 0;
}

/* Whether the Java frames of a wait of smp's thread are to be asked. */
static bool java_wait(const struct wall *w, const struct sample *smp)
{
	return offjava_wanted(w->l.oj, smp) && !smp->root;
}

void wall_switch_out(struct wall *w, struct sample *smp)
{
	struct wait *wt = find(w, smp->s.tid, true);

	if (wt && wt->in && smp->s.time > wt->in)
		wt->on += smp->s.time - wt->in;
	if (wt)
		wt->in = 0;
	smp->state = (uint8_t)offstate_of(&w->l.em->ksym->kernel, smp);
	open_wait(w, smp, java_wait(w, smp), false);
}

void wall_switch(struct wall *w, const struct ring *r,
		 const struct perf_event_header *hdr)
{
	const uint8_t *p = (const uint8_t *)(hdr + 1);
	/* a CPU's (-a): the previous task's pid, tid first */
	size_t skip = hdr->type == PERF_RECORD_SWITCH_CPU_WIDE ? 8 : 0;
	uint32_t tid;
	struct wait *wt;
	uint64_t t;

	/* sample_id trailer: pid, tid (PERF_SAMPLE_TID), then time */
	if (!w || (hdr->misc & PERF_RECORD_MISC_SWITCH_OUT) ||
	    hdr->size < sizeof(*hdr) + skip + 16 ||
	    !(r->sample_type & PERF_SAMPLE_TID) ||
	    !(r->sample_type & PERF_SAMPLE_TIME))
		return;
	/* the thread switched in: the trailer's (a thread's ring takes the
	 * records of the tasks it started too: rings/threads.h, carried) */
	memcpy(&tid, p + skip + 4, sizeof(tid));
	memcpy(&t, p + skip + 8, sizeof(t));
	wt = find(w, tid, true);
	if (!wt)
		return;
	wt->in = t;
	if (!wt->open || t < wt->out)
		return;
	wt->open = false;
	pending_end(w->l.pend, wt->id, t);
}

void wall_clock_sample(struct wall *w, struct sample *smp)
{
	struct wait *wt;

	if (!w || smp->s.event >= RING_MAX_EVENTS || !w->clock[smp->s.event])
		return;
	wt = find(w, smp->s.tid, false);
	if (!wt || !wt->in || smp->s.time < wt->in)
		return; /* its clock's weight, then */
	smp->s.period = wt->on + (smp->s.time - wt->in);
	wt->on = 0;
	wt->in = smp->s.time;
}

void wall_tick(struct wall *w, uint64_t now)
{
	for (size_t i = 0; w && i < w->n; i++) {
		struct wait *wt = &w->v[i];

		if (wt->open && now > wt->out) { /* still waiting */
			wt->open = false;
			pending_end(w->l.pend, wt->id, now);
		}
	}
}

/*
 * A thread blocked when its events open (an idle thread at -p, or one that
 * blocked before its FORK record was read) has no switch-out to come: its
 * wait opens at t, with the kernel stack /proc shows and the user stack
 * read from its memory (pipeline/blockstack.h), if it stays put meanwhile.
 */
static void first_seen(struct wall *w, pid_t pid, pid_t tid, uint64_t t)
{
	char path[96], buf[4096], *line, *save = NULL;
	uint32_t frames[64];
	unsigned int n = 0;
	struct sample smp = { 0 };
	const struct proc *p;
	struct wait *wt;
	const char *st;
	int state = -1;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	if (read_small_file(path, buf, sizeof(buf)) ||
	    !(st = strrchr(buf, ')')))
		return;
	if (st[2] != 'S' && st[2] != 'D') {
		/* on a CPU (or ready for one) since t, as far as we know */
		wt = find(w, (uint32_t)tid, true);
		if (wt && !wt->open && !wt->in)
			wt->in = t;
		return;
	}
	if (st[2] == 'D')
		state = WALL_IO;
	wt = find(w, (uint32_t)tid, false);
	if (wt && wt->open)
		return;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/stack", pid, tid);
	if (read_small_file(path, buf, sizeof(buf)))
		buf[0] = 0;
	for (line = strtok_r(buf, "\n", &save); line && n < 64;
	     line = strtok_r(NULL, "\n", &save)) {
		char *name = strchr(line, ' '), *end;

		if (!name)
			continue;
		name++;
		end = strchr(name, '+');
		if (end)
			*end = 0;
		if (state < 0)
			state = offstate_of_function(name);
		frames[n++] = pj_writer_frame(w->l.em->w, PJ_FRAME_KERNEL, name,
					      "", NULL, 0);
	}
	smp.s.time = t;
	smp.s.tid = (uint32_t)tid;
	smp.s.pid = (uint32_t)pid;
	smp.s.event = wall_event(w);
	smp.kframes = frames;
	smp.nk = n;
	smp.state = (uint8_t)(state < 0 ? WALL_BLOCKED : state);
	smp.fd = -1;
	if (!w->bs)
		w->bs = malloc(sizeof(*w->bs));
	p = procs_get(w->l.procs, pid);
	if (p && w->bs &&
	    !blockstack_read(p->unw, p->agent ? agent_codemap(p->agent) : NULL,
			     pid, tid, w->bs)) {
		smp.uips = w->bs->ips;
		smp.nu = w->bs->n;
		smp.jcopy = w->bs->jcopy;
	}
	/* its kernel frames, with the Java frames the agent may give */
	open_wait(w, &smp, java_wait(w, &smp), true);
}

void wall_thread_opened(struct wall *w, pid_t pid, pid_t tid)
{
	/* before the start, the threads are looked at when it comes */
	if (w && w->start)
		first_seen(w, pid, tid, now_ns());
}

void wall_start(struct wall *w, const struct threads *th, uint64_t start)
{
	if (!w)
		return;
	w->start = start;
	for (unsigned int i = 0; i < th->n; i++)
		first_seen(w, th->v[i]->pid, th->v[i]->tid, start);
}

void wall_forget(struct wall *w)
{
	if (!w)
		return;
	offjava_forget(w->l.oj);
	offstate_forget(w->l.os);
	u64map_free(&w->index);
	w->n = 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Off-CPU intervals from the kernel's context switches (see record/wall.h).
 *
 * A thread's interval opens at its sched_switch sample (its stack where it
 * blocked, prev_state) and closes at its next switch-in (PERF_RECORD_SWITCH
 * without SWITCH_OUT); the sample is written then, weighted by the exact
 * time off CPU. A thread still blocked when the recording ends is closed
 * at the end: its whole wait shows; one found blocked when its events open
 * gets an interval from then, with the kernel stack /proc shows.
 *
 * No signal is sent for a switch-out: it would wake the blocked thread,
 * which blocks again, which asks for another walk. A JVM's thread keeps the
 * parts of its stack instead, and its Java frames are asked of the agent
 * without waking it (record/offjava.c); the stack is merged when the
 * interval ends.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/clock.h"
#include "lib/file.h"
#include "lib/grow.h"
#include "lib/u64map.h"
#include "record/perf_parse.h"
#include "record/record.h"
#include "record/wall.h"
#include "record/wall_internal.h"
#include "record/offjava.h"
#include "events/tracepoint.h"
#include "sym/kallsyms.h"

static const char *const state_name[WALL_NSTATES] = {
	[WALL_BLOCKED] = "[off-cpu: blocked]",
	[WALL_SLEEP] = "[off-cpu: sleep]",
	[WALL_IO] = "[off-cpu: io]",
	[WALL_LOCK] = "[off-cpu: lock]",
	[WALL_RUNNABLE] = "[off-cpu: runnable]",
};

int wall_expand(const char *spec, char *out, size_t len, bool *offcpu,
		unsigned int nmax)
{
	size_t at = 0;
	unsigned int n = 0;
	const char *p = spec;

	memset(offcpu, 0, nmax * sizeof(*offcpu));
	while (*p) {
		size_t k = 0;
		int slash = 0;
		const char *add;
		bool off[2] = { false, false };
		unsigned int nadd = 1;

		/* a token ends at a comma outside /.../ */
		while (p[k] && (p[k] != ',' || slash % 2))
			slash += p[k++] == '/';
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

int wall_setup(struct recorder *rec, const bool *offcpu)
{
	struct wall *w = NULL;

	for (unsigned int i = 0; i < rec->nevents && i < RING_MAX_EVENTS; i++) {
		struct pj_event *ev = &rec->evs[i];

		if (!offcpu[i])
			continue;
		if (!w && !(w = calloc(1, sizeof(*w)))) {
			fprintf(stderr, "perfjava: out of memory\n");
			return -1;
		}
		w->offcpu[i] = true;
		snprintf(ev->name, sizeof(ev->name), "offcpu");
		snprintf(ev->unit, sizeof(ev->unit), "ns");
		ev->period = 1; /* every switch-out */
		ev->freq = 0;
		ev->attr.context_switch = 1; /* and every switch-in */
	}
	rec->wall = w;
	return 0;
}

void wall_free(struct recorder *rec)
{
	struct wall *w = rec->wall;

	if (!w)
		return;
	wall_forget(rec);
	free(w->v);
	free(w);
	rec->wall = NULL;
}

bool wall_is_offcpu(const struct recorder *rec, uint32_t ev)
{
	return rec->wall && ev < RING_MAX_EVENTS && rec->wall->offcpu[ev];
}

uint32_t wall_event(const struct recorder *rec)
{
	for (uint32_t i = 0; rec->wall && i < RING_MAX_EVENTS; i++)
		if (rec->wall->offcpu[i])
			return i;
	return 0;
}

struct interval *wall_find(struct wall *w, uint32_t tid, bool add)
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

/* The wait a kernel function stands for, or -1. */
static int kernel_fn_state(const char *name)
{
	static const struct {
		const char *part;
		enum wall_state st;
	} by_name[] = {
		{ "futex", WALL_LOCK },
		{ "nanosleep", WALL_SLEEP },
		{ "hrtimer_nanosleep", WALL_SLEEP },
		{ "io_schedule", WALL_IO },
		{ "folio_wait", WALL_IO },
		{ "blk_", WALL_IO },
		{ "pipe_", WALL_IO },
		{ "sock_", WALL_IO },
		{ "tcp_", WALL_IO },
		{ "unix_stream", WALL_IO },
		{ "ep_poll", WALL_IO },
		{ "do_poll", WALL_IO },
		{ "do_select", WALL_IO },
		{ "n_tty_read", WALL_IO },
		{ "vfs_read", WALL_IO },
		{ "vfs_write", WALL_IO },
	};

	for (size_t i = 0; name && i < sizeof(by_name) / sizeof(*by_name); i++)
		if (strstr(name, by_name[i].part))
			return by_name[i].st;
	return -1;
}

/* What the kernel's side says: prev_state, then the blocking function. */
static enum wall_state kernel_state(struct recorder *rec,
				    const struct pj_raw_sample *rs)
{
	struct callchain_iter it;
	enum callchain_ctx ctx;
	char buf[1024];
	const char *ps;
	uint64_t ip;

	if (rec->tp && rs->raw_size &&
	    tp_decode(rec->tp, rs->raw, rs->raw_size, buf, sizeof(buf)) >= 0 &&
	    (ps = strstr(buf, "prev_state="))) {
		ps += strlen("prev_state=");
		if (*ps == 'R')
			return WALL_RUNNABLE;
		if (*ps == 'D')
			return WALL_IO;
	}
	if (!rec->sym.ksyms || rec->sym.kernel_hidden)
		return WALL_BLOCKED;
	callchain_iter_init(&it, rs->ips, rs->nr);
	while (callchain_next(&it, &ip, &ctx)) {
		const char *mod;
		uint64_t off;
		int st;

		if (ctx == CC_USER)
			break;
		st = kernel_fn_state(
		    ksyms_lookup(rec->sym.ksyms, ip, &mod, &off));
		if (st >= 0)
			return st;
	}
	return WALL_BLOCKED;
}

void wall_write_interval(struct recorder *rec, struct interval *iv)
{
	iv->s.period = iv->off_ns;
	pj_writer_sample(rec->w, &iv->s);
	rec->st.samples++;
	if (iv->s.event < RING_MAX_EVENTS)
		rec->st.event_samples[iv->s.event]++;
}

static void close_interval(struct recorder *rec, struct interval *iv)
{
	/* (no switch-in: nothing) */
	if (iv->open && iv->held && iv->off_ns) {
		if (!iv->java)
			wall_write_interval(rec, iv);
		else if (!offjava_late(rec, iv)) /* its answer is to come */
			offjava_write(rec, iv);
	}
	iv->open = iv->held = false;
}

void wall_switch_out(struct recorder *rec, const struct pj_sample *s,
		     const struct pj_raw_sample *rs)
{
	struct interval *iv = wall_find(rec->wall, s->tid, true);

	if (!iv)
		return;
	close_interval(rec, iv); /* its switch-in was lost */
	iv->open = true;
	iv->kstate = (uint8_t)kernel_state(rec, rs);
	iv->out = s->time;
	iv->off_ns = 0;
	iv->in = 0;
	iv->java = iv->first_seen = false;
}

bool wall_java(struct recorder *rec, const struct pj_sample *s,
	       const uint32_t *kf, unsigned int nk, const uint64_t *up,
	       unsigned int nu)
{
	struct interval *iv = wall_find(rec->wall, s->tid, false);

	if (!rec->java || rec->o.no_java || !iv || !iv->open ||
	    iv->out != s->time || offjava_keep(rec, iv, kf, nk, up, nu))
		return false;
	iv->s = *s;
	iv->held = true;
	return true;
}

void wall_switch(struct recorder *rec, struct ring *r,
		 const struct perf_event_header *hdr)
{
	const uint8_t *p = (const uint8_t *)(hdr + 1);
	struct interval *iv;
	uint64_t t;

	/* sample_id trailer: pid, tid (PERF_SAMPLE_TID), then time */
	if (!rec->wall || (hdr->misc & PERF_RECORD_MISC_SWITCH_OUT) ||
	    hdr->size < sizeof(*hdr) + 16 ||
	    !(r->sample_type & PERF_SAMPLE_TID) ||
	    !(r->sample_type & PERF_SAMPLE_TIME))
		return;
	memcpy(&t, p + 8, sizeof(t));
	iv = wall_find(rec->wall, (uint32_t)r->tid, false);
	if (!iv || !iv->open || t < iv->out)
		return;
	iv->off_ns = t - iv->out;
	iv->in = t;
	close_interval(rec, iv);
}

uint32_t wall_state_stack(struct recorder *rec, int st, uint32_t *frames,
			  unsigned int n)
{
	struct wall *w = rec->wall;
	unsigned int keep = n < MERGE_MAX_FRAMES ? n : MERGE_MAX_FRAMES - 1;

	if (!w->state_frame[st])
		w->state_frame[st] = pj_writer_frame(rec->w, PJ_FRAME_MARKER,
						     state_name[st], "", NULL,
						     0) +
				     1;
	memmove(frames + 1, frames, keep * sizeof(*frames));
	frames[0] = w->state_frame[st] - 1;
	return pj_writer_stack(rec->w, frames, keep + 1);
}

void wall_hold(struct recorder *rec, struct pj_sample *s, uint32_t *frames,
	       unsigned int n)
{
	struct wall *w = rec->wall;
	struct interval *iv = wall_find(w, s->tid, false);

	s->stack =
	    wall_state_stack(rec, iv ? iv->kstate : WALL_BLOCKED, frames, n);
	if (iv && iv->open && iv->out == s->time) {
		iv->s = *s;
		iv->held = true;
	}
}

void wall_tick(struct recorder *rec, uint64_t now)
{
	struct wall *w = rec->wall;

	for (size_t i = 0; w && i < w->n; i++) {
		struct interval *iv = &w->v[i];

		if (iv->open && now > iv->out) {
			iv->off_ns = now - iv->out; /* still waiting */
			close_interval(rec, iv);
		}
	}
	offjava_tick(rec, now, true); /* answers still to come: none */
}

/*
 * A thread whose events open while it is blocked (an idle thread at -p,
 * or one that blocked before its FORK record was read) has no switch-out
 * to come: its interval opens now, with the kernel stack /proc shows
 * (root) and no user stack.
 */
void wall_thread_opened(struct recorder *rec, pid_t tid, uint32_t ev)
{
	char path[96], buf[4096], *line, *save = NULL;
	uint32_t frames[66];
	unsigned int n = 1;
	struct interval *iv;
	const char *st;
	int state = -1;

	if (!rec->wall)
		return;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", rec->o.pid, tid);
	if (read_small_file(path, buf, sizeof(buf)) ||
	    !(st = strrchr(buf, ')')) || (st[2] != 'S' && st[2] != 'D'))
		return;
	if (st[2] == 'D')
		state = WALL_IO;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/stack", rec->o.pid, tid);
	if (read_small_file(path, buf, sizeof(buf)))
		buf[0] = 0;
	for (line = strtok_r(buf, "\n", &save); line && n < 65;
	     line = strtok_r(NULL, "\n", &save)) {
		char *name = strchr(line, ' '), *end;

		if (!name)
			continue;
		name++;
		end = strchr(name, '+');
		if (end)
			*end = 0;
		if (state < 0)
			state = kernel_fn_state(name);
		frames[n++] =
		    pj_writer_frame(rec->w, PJ_FRAME_KERNEL, name, "", NULL, 0);
	}
	frames[n++] = pj_writer_frame(rec->w, PJ_FRAME_MARKER,
				      "[user stack unknown: blocked when first "
				      "seen]",
				      "", NULL, 0);
	if (state < 0)
		state = WALL_BLOCKED;
	if (!rec->wall->state_frame[state])
		rec->wall->state_frame[state] =
		    pj_writer_frame(rec->w, PJ_FRAME_MARKER, state_name[state],
				    "", NULL, 0) +
		    1;
	frames[0] = rec->wall->state_frame[state] - 1;
	iv = wall_find(rec->wall, (uint32_t)tid, true);
	if (!iv || iv->open)
		return;
	memset(&iv->s, 0, sizeof(iv->s));
	iv->open = iv->held = true;
	iv->kstate = (uint8_t)state;
	iv->out = now_ns();
	iv->off_ns = 0;
	iv->s.time = iv->out;
	iv->s.tid = (uint32_t)tid;
	iv->s.event = ev;
	iv->s.stack = pj_writer_stack(rec->w, frames, n);
	iv->in = 0;
	iv->java = iv->first_seen = false;
	/* its kernel frames, with the Java frames the agent may give */
	if (rec->java && !rec->o.no_java &&
	    !offjava_keep(rec, iv, frames + 1, n - 2, NULL, 0))
		iv->first_seen = true;
}

void wall_forget(struct recorder *rec)
{
	struct wall *w = rec->wall;

	if (!w)
		return;
	offjava_forget(rec);
	free(w->index.keys);
	free(w->index.vals);
	memset(&w->index, 0, sizeof(w->index));
	w->n = 0;
	memset(w->state_frame, 0, sizeof(w->state_frame));
}

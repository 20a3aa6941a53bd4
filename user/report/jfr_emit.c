// SPDX-License-Identifier: GPL-2.0
/*
 * A profile's samples as JFR events (report/jfr_emit.h), their fields in
 * the order the metadata declares them (report/jfr_types.c).
 *
 * Wall-clock samples count time as async-profiler's do: its converter
 * adds up their "samples" field, one per CPU sample's worth of time, and
 * one per jdk.ExecutionSample. A wait of T ns is T / unit samples, rounded
 * over all of its thread's waits so far (the samples of a thread add up to
 * its time; a short wait gets one as often as its length says: rounded
 * per thread and stack instead, a stack whose waits are all short would
 * get none), at most WALL_BATCH in one event (a longer wait is several,
 * one after the other).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "report/filter.h"
#include "report/jfr_emit.h"

#define WALL_BATCH 65536 /* samples of one event */
#define WALL_PARTS 1024 /* events of one wait, at most */
#define DEFAULT_UNIT 10000000 /* 10 ms, without CPU samples */
#define PARK_DEPTH 16 /* frames below the class where a park shows */

enum jfr_kind jfr_kind_of(const struct pj_event_desc *e)
{
	static const struct {
		const char *name;
		enum jfr_kind k;
	} named[] = {
		{ "offcpu", JFR_K_WALL },
		{ "profiler.WallClockSample", JFR_K_WALL },
		{ "alloc", JFR_K_ALLOC },
		{ "jdk.ObjectAllocationSample", JFR_K_ALLOC },
		{ "jdk.ObjectAllocationInNewTLAB", JFR_K_TLAB_IN },
		{ "jdk.ObjectAllocationOutsideTLAB", JFR_K_TLAB_OUT },
		{ "lock", JFR_K_LOCK },
		{ "jdk.JavaMonitorEnter", JFR_K_MONITOR },
		{ "jdk.ThreadPark", JFR_K_PARK },
		{ "jdk.ExecutionSample", JFR_K_CPU },
	};
	static const char *const cpu[] = { "cpu-clock", "task-clock", "cycles",
					   "cpu-cycles" };
	size_t n;

	if (!e)
		return JFR_K_OTHER;
	for (size_t i = 0; i < sizeof(named) / sizeof(*named); i++)
		if (!strcmp(e->name, named[i].name))
			return named[i].k;
	n = strcspn(e->name, ":/");
	for (size_t i = 0; i < sizeof(cpu) / sizeof(*cpu); i++)
		if (strlen(cpu[i]) == n && !strncmp(e->name, cpu[i], n))
			return JFR_K_CPU;
	return JFR_K_OTHER;
}

void jfr_kind_types(enum jfr_kind k, enum jfr_type_id t[2])
{
	static const enum jfr_type_id types[][2] = {
		[JFR_K_CPU] = { JFR_T_EXECUTION_SAMPLE },
		[JFR_K_WALL] = { JFR_T_WALL_CLOCK_SAMPLE },
		[JFR_K_ALLOC] = { JFR_T_ALLOCATION_SAMPLE },
		[JFR_K_TLAB_IN] = { JFR_T_ALLOCATION_IN_TLAB },
		[JFR_K_TLAB_OUT] = { JFR_T_ALLOCATION_OUTSIDE_TLAB },
		[JFR_K_LOCK] = { JFR_T_MONITOR_ENTER, JFR_T_THREAD_PARK },
		[JFR_K_MONITOR] = { JFR_T_MONITOR_ENTER },
		[JFR_K_PARK] = { JFR_T_THREAD_PARK },
		[JFR_K_OTHER] = { JFR_T_EVENT_SAMPLE },
	};

	t[0] = types[k][0];
	t[1] = types[k][1];
}

static enum jfr_kind kind(const struct pj_profile *p, uint32_t event)
{
	return jfr_kind_of(pj_profile_event(p, event));
}

void jfr_emit_unit(struct jfr_emit *ev, const struct report *r)
{
	const struct pj_profile *p = ev->p;
	unsigned __int128 sum = 0;
	uint64_t n = 0, hz = 0;

	for (size_t i = 0; i < p->nsamples; i++) {
		const struct pj_sample *s = &p->samples[i];
		const struct pj_event_desc *e = pj_profile_event(p, s->event);

		if (!e || jfr_kind_of(e) != JFR_K_CPU ||
		    !report_sample_selected(r, s))
			continue;
		if (!strcmp(e->unit, "ns")) {
			sum += s->period;
			n++;
		} else if (e->freq && e->period) {
			hz = e->period;
		}
	}
	ev->unit = n ? (uint64_t)(sum / n) : hz ? 1000000000 / hz : 0;
	if (!ev->unit || ev->unit > UINT32_MAX)
		ev->unit = DEFAULT_UNIT;
}

void jfr_emit_free(struct jfr_emit *ev)
{
	jfr_buf_free(&ev->b);
	u64map_free(&ev->waited);
}

static void ends(struct jfr_emit *ev, uint64_t t, uint64_t span)
{
	if (t + span >= t && t + span > ev->end_ticks)
		ev->end_ticks = t + span;
}

/* The class key of stack st's leaf, when the leaf is a class (an
 * allocation's or a lock's, which its event names); 0 otherwise. */
static uint32_t leaf_class(struct jfr_emit *ev, uint32_t st, bool *callers)
{
	const struct pj_profile *p = ev->p;
	uint32_t lo = p->stack_start[st], f;

	*callers = false;
	if (lo >= p->stack_start[st + 1])
		return 0;
	f = p->stack_frames[lo];
	if (p->frames[f].type != PJ_FRAME_CLASS)
		return 0;
	*callers = true;
	return jfr_names_class(&ev->pl->nm, pj_str(p, p->frames[f].name));
}

/* Whether a lock sample's stack parked (LockSupport.park, Unsafe.park, a
 * virtual thread's park) rather than entered a monitor. */
static bool parked(const struct pj_profile *p, uint32_t st)
{
	uint32_t lo = p->stack_start[st], hi = p->stack_start[st + 1];

	if (hi - lo > PARK_DEPTH)
		hi = lo + PARK_DEPTH;
	for (uint32_t j = lo; j < hi; j++) {
		const char *n = pj_str(p, p->frames[p->stack_frames[j]].name);

		if (strstr(n, "LockSupport.park") || strstr(n, "Unsafe.park") ||
		    strstr(n, "VirtualThread.park"))
			return true;
	}
	return false;
}

static size_t begin(struct jfr_emit *ev, enum jfr_type_id t, uint64_t time,
		    uint64_t thread, uint64_t stack)
{
	size_t at = jfr_event_begin(&ev->b, t);

	ev->used |= jfr_event_bit(t);
	jfr_varint(&ev->b, time);
	jfr_varint(&ev->b, thread);
	jfr_varint(&ev->b, stack);
	return at;
}

/* A wait as async-profiler's wall-clock samples: see the top. */
static void wall(struct jfr_emit *ev, const struct pj_sample *s,
		 uint64_t thread, uint64_t stack)
{
	unsigned int state = report_stack_state(ev->p, s->stack) + 1;
	union u64map_val *v = u64map_slot(&ev->waited, thread);
	uint64_t u = ev->unit, before, n, parts, part, t = s->time;
	uint64_t left = s->period;

	if (!v) {
		ev->b.oom = true;
		return;
	}
	before = v->u / u + (v->u % u >= u - u / 2);
	v->u = v->u + s->period < v->u ? UINT64_MAX : v->u + s->period;
	n = v->u / u + (v->u % u >= u - u / 2) - before;
	jfr_pools_use_state(ev->pl, state);
	parts = n / WALL_BATCH + !!(n % WALL_BATCH);
	parts = parts < 1 ? 1 : parts > WALL_PARTS ? WALL_PARTS : parts;
	part = n / parts + !!(n % parts);
	for (uint64_t i = 0; i < parts; i++) {
		uint64_t k = part < n ? part : n;
		uint64_t span =
		    i + 1 == parts || !n
			? left
			: (uint64_t)((unsigned __int128)left * k / n);
		size_t at =
		    begin(ev, JFR_T_WALL_CLOCK_SAMPLE, t, thread, stack);

		span = span > left ? left : span;
		jfr_varint(&ev->b, state);
		jfr_varint(&ev->b, k);
		jfr_varint(&ev->b, span); /* ns, as ticks */
		jfr_event_end(&ev->b, at);
		ends(ev, t, span);
		t += span;
		left -= span;
		n -= k;
	}
}

void jfr_emit_sample(struct jfr_emit *ev, const struct pj_sample *s)
{
	struct jfr_buf *b = &ev->b;
	enum jfr_kind k = kind(ev->p, s->event);
	uint64_t thread = jfr_pools_thread(ev->pl, s), stack;
	uint32_t cls = 0;
	bool callers = false;
	size_t at;

	if (k >= JFR_K_ALLOC && k <= JFR_K_PARK)
		cls = leaf_class(ev, s->stack, &callers);
	if (k == JFR_K_LOCK)
		k = parked(ev->p, s->stack) ? JFR_K_PARK : JFR_K_MONITOR;
	stack = jfr_pools_stack(ev->pl, s->stack, callers);
	ends(ev, s->time, 0);
	switch (k) {
	case JFR_K_CPU:
		at = begin(ev, JFR_T_EXECUTION_SAMPLE, s->time, thread, stack);
		jfr_varint(b, JFR_STATE_DEFAULT);
		jfr_pools_use_state(ev->pl, JFR_STATE_DEFAULT);
		break;
	case JFR_K_WALL:
		wall(ev, s, thread, stack);
		return;
	case JFR_K_ALLOC:
	case JFR_K_TLAB_IN:
	case JFR_K_TLAB_OUT:
		/* the bytes it stands for: the TLAB events carry what a JFR
		 * file read in said (the reader's weight) as both sizes */
		at = begin(ev,
			   k == JFR_K_ALLOC	? JFR_T_ALLOCATION_SAMPLE
			   : k == JFR_K_TLAB_IN ? JFR_T_ALLOCATION_IN_TLAB
						: JFR_T_ALLOCATION_OUTSIDE_TLAB,
			   s->time, thread, stack);
		jfr_varint(b, cls);
		jfr_varint(b, s->period);
		if (k == JFR_K_TLAB_IN)
			jfr_varint(b, s->period);
		break;
	case JFR_K_MONITOR:
	case JFR_K_PARK:
		/* time: when the wait began; duration: the time it stands
		 * for (a short wait kept by chance, its weight) */
		at = jfr_event_begin(b, k == JFR_K_PARK ? JFR_T_THREAD_PARK
							: JFR_T_MONITOR_ENTER);
		ev->used |= jfr_event_bit(
		    k == JFR_K_PARK ? JFR_T_THREAD_PARK : JFR_T_MONITOR_ENTER);
		jfr_varint(b, s->time);
		jfr_varint(b, s->period);
		jfr_varint(b, thread);
		jfr_varint(b, stack);
		jfr_varint(b, cls);
		if (k == JFR_K_PARK) { /* timeout, until: not recorded */
			jfr_varint(b, (uint64_t)INT64_MIN);
			jfr_varint(b, (uint64_t)INT64_MIN);
		} else {
			jfr_varint(b, 0); /* previous owner: not recorded */
		}
		jfr_varint(b, 0); /* address */
		ends(ev, s->time, s->period);
		break;
	default:
		at = begin(ev, JFR_T_EVENT_SAMPLE, s->time, thread, stack);
		jfr_varint(b, JFR_EVENT_NAME_KEY + s->event);
		jfr_pools_use_string(ev->pl, JFR_EVENT_NAME_KEY + s->event);
		jfr_varint(b, s->period);
		jfr_varint(b, s->cpu);
		jfr_varint(b, s->info);
		jfr_pools_use_string(ev->pl, s->info);
		break;
	}
	jfr_event_end(b, at);
}

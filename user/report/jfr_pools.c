// SPDX-License-Identifier: GPL-2.0
/*
 * The constant pools of a JFR file written from a profile
 * (report/jfr_pools.h): stack traces leaf first with every frame typed,
 * threads as the JDK 21+ writes them (a virtual thread with its Java name
 * and id, virtual, in the "VirtualThreads" group), strings, frame types and
 * thread states, then the code the stacks named (report/jfr_names.c).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "report/jfr_pools.h"
#include "report/jfr_types.h"

#define VTHREAD_BIT (1ull << 63)

/* The JFR names of the report's states (running, sleep, io, ...). */
static const char *const state_names[REPORT_NSTATES] = {
	"STATE_RUNNABLE",  "STATE_SLEEPING", "STATE_IO",      "STATE_LOCK",
	"STATE_PREEMPTED", "STATE_BLOCKED",  "STATE_WAITING",
};

int jfr_pools_init(struct jfr_pools *pl, const struct report *r)
{
	const struct pj_profile *p = r->p;

	memset(pl, 0, sizeof(*pl));
	pl->r = r;
	pl->stack_used = calloc(p->nstacks ? p->nstacks : 1, 1);
	if (!pl->stack_used || jfr_names_init(&pl->nm, r)) {
		free(pl->stack_used);
		pl->stack_used = NULL;
		return -1;
	}
	return 0;
}

void jfr_pools_free(struct jfr_pools *pl)
{
	free(pl->stack_used);
	u64map_free(&pl->key_of);
	u64map_free(&pl->taken);
	free(pl->th);
	u64map_free(&pl->strings);
	jfr_names_free(&pl->nm);
	memset(pl, 0, sizeof(*pl));
}

uint64_t jfr_pools_thread(struct jfr_pools *pl, const struct pj_sample *s)
{
	uint64_t id = s->vthread ? s->vthread | VTHREAD_BIT
				 : (uint64_t)s->tid + 1;
	uint64_t key = s->vthread ? s->vthread : s->tid;
	union u64map_val *v = u64map_slot(&pl->key_of, id);

	if (!v)
		goto oom;
	if (v->u)
		return v->u;
	if (!key || key >= JFR_THREAD_KEY || u64map_find(&pl->taken, key)) {
		if (pl->nhigh >= JFR_THREAD_KEY - 1)
			goto oom;
		key = JFR_THREAD_KEY + ++pl->nhigh;
	}
	if (GROW(pl->th, pl->cap_th, (size_t)pl->nth + 1) ||
	    u64map_put(&pl->taken, key, 1))
		goto oom;
	pl->th[pl->nth++] = (struct jfr_thread){ key, s->vthread, s->tid };
	pl->vthreads |= s->vthread != 0;
	v->u = key;
	return key;
oom:
	pl->oom = true;
	return 0;
}

uint64_t jfr_pools_stack(struct jfr_pools *pl, uint32_t st, bool callers)
{
	if (st >= pl->r->p->nstacks)
		return 0;
	pl->stack_used[st] |= callers ? 2 : 1;
	return 2 * (uint64_t)st + 1 + callers;
}

static void pool_begin(struct jfr_buf *b, enum jfr_type_id t, uint64_t n)
{
	jfr_varint(b, t);
	jfr_varint(b, n);
}

static void write_stack(struct jfr_pools *pl, struct jfr_buf *b, uint32_t st,
			bool callers)
{
	const struct pj_profile *p = pl->r->p;
	uint32_t lo = p->stack_start[st], hi = p->stack_start[st + 1];

	lo += callers && lo < hi;
	jfr_varint(b, 2 * (uint64_t)st + 1 + callers);
	jfr_u8(b, 0); /* not truncated */
	jfr_varint(b, hi - lo);
	for (uint32_t j = lo; j < hi; j++) { /* leaf first */
		uint32_t f = p->stack_frames[j];

		jfr_varint(b, jfr_names_method(&pl->nm, f));
		jfr_varint(b, p->frames[f].line);
		jfr_varint(b, 0); /* bytecode index: not recorded */
		jfr_varint(b, jfr_names_frame_type(p, f));
	}
}

static unsigned int write_stacks(struct jfr_pools *pl, struct jfr_buf *b)
{
	const struct pj_profile *p = pl->r->p;
	uint64_t n = 0;

	for (uint32_t st = 0; st < p->nstacks; st++)
		n += (pl->stack_used[st] & 1) + (pl->stack_used[st] >> 1);
	if (!n)
		return 0;
	pool_begin(b, JFR_T_STACK_TRACE, n);
	for (uint32_t st = 0; st < p->nstacks; st++) {
		if (pl->stack_used[st] & 1)
			write_stack(pl, b, st, false);
		if (pl->stack_used[st] & 2)
			write_stack(pl, b, st, true);
	}
	return 1;
}

/* One thread: key, osName, osThreadId, javaName, javaThreadId, group,
 * virtual. A virtual thread has no OS thread, its Java name ("" when it
 * has none) and id; the OS tid stands in for a thread's Java id. */
static void thread(struct jfr_pools *pl, struct jfr_buf *b, uint64_t key,
		   uint64_t vthread, uint32_t tid)
{
	const struct pj_profile *p = pl->r->p;
	const char *name;

	jfr_varint(b, key);
	if (vthread) {
		name = pj_profile_vthread_name(p, vthread);
		jfr_str(b, NULL);
		jfr_varint(b, 0);
		jfr_str(b, name ? name : "");
		jfr_varint(b, vthread);
		jfr_varint(b, JFR_VTHREAD_GROUP);
		jfr_u8(b, 1);
		return;
	}
	name = pj_profile_thread_name(p, 0, tid);
	jfr_str(b, name);
	jfr_varint(b, tid);
	jfr_str(b, name);
	jfr_varint(b, tid);
	jfr_varint(b, 0); /* group: not recorded */
	jfr_u8(b, 0);
}

static unsigned int write_threads(struct jfr_pools *pl, struct jfr_buf *b)
{
	if (!pl->nth)
		return 0;
	pool_begin(b, JFR_T_THREAD, pl->nth);
	for (uint32_t i = 0; i < pl->nth; i++)
		thread(pl, b, pl->th[i].key, pl->th[i].vthread, pl->th[i].tid);
	if (!pl->vthreads)
		return 1;
	pool_begin(b, JFR_T_THREAD_GROUP, 1);
	jfr_varint(b, JFR_VTHREAD_GROUP);
	jfr_varint(b, 0); /* parent */
	jfr_str(b, "VirtualThreads");
	return 2;
}

static unsigned int write_strings(struct jfr_pools *pl, struct jfr_buf *b)
{
	const struct pj_profile *p = pl->r->p;
	const struct u64map *m = &pl->strings;

	if (!m->n)
		return 0;
	pool_begin(b, JFR_T_STRING, m->n);
	for (uint32_t i = 0; i < m->cap; i++) {
		uint64_t key = m->keys[i] - 1;
		const struct pj_event_desc *e;

		if (!m->keys[i])
			continue;
		jfr_varint(b, key);
		if (key < JFR_EVENT_NAME_KEY) {
			jfr_str(b, pj_str(p, (uint32_t)key));
			continue;
		}
		e = pj_profile_event(p, key - JFR_EVENT_NAME_KEY);
		jfr_str(b, e ? e->name : "");
	}
	return 1;
}

static unsigned int write_enums(struct jfr_pools *pl, struct jfr_buf *b)
{
	unsigned int n = 0;

	pool_begin(b, JFR_T_FRAME_TYPE, JFR_NFRAME_TYPES);
	for (unsigned int i = 0; i < JFR_NFRAME_TYPES; i++) {
		jfr_varint(b, i);
		jfr_str(b, jfr_frame_type_names[i]);
	}
	for (unsigned int k = 1; k <= JFR_STATE_DEFAULT; k++)
		n += !!(pl->states & (1u << k));
	if (!n)
		return 1;
	pool_begin(b, JFR_T_THREAD_STATE, n);
	for (unsigned int k = 1; k <= JFR_STATE_DEFAULT; k++)
		if (pl->states & (1u << k)) {
			jfr_varint(b, k);
			/* a CPU sample's, as async-profiler names it */
			jfr_str(b, k == JFR_STATE_DEFAULT ? "STATE_DEFAULT"
							  : state_names[k - 1]);
		}
	return 2;
}

void jfr_pools_write(struct jfr_pools *pl, struct jfr_buf *b, uint64_t ticks)
{
	struct jfr_buf body = { 0 };
	unsigned int pools;
	size_t at;

	/* the stacks first: they make the methods, classes and symbols */
	pools = write_stacks(pl, &body);
	pools += write_threads(pl, &body);
	pools += write_strings(pl, &body);
	pools += write_enums(pl, &body);
	pools += jfr_names_write(&pl->nm, &body);
	if (body.oom || pl->oom || pl->nm.oom)
		b->oom = true;
	at = jfr_event_begin(b, JFR_T_CHECKPOINT);
	jfr_varint(b, ticks);
	jfr_varint(b, 0); /* duration */
	jfr_varint(b, 0); /* delta to the next checkpoint: none */
	jfr_u8(b, 1); /* type: flush */
	jfr_varint(b, pools);
	jfr_raw(b, body.d, body.n);
	jfr_event_end(b, at);
	jfr_buf_free(&body);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The JVM's own events from the agent (jvm/jevents.h: allocations, lock
 * waits, virtual threads): the request (PJA_EVENTS), the agent's answer
 * (EVENTS_READY), its Unsafe.park hook (PARK), and the names its records
 * use: classes and lock owners (PJA_CLASS) and
 * named virtual threads (PJA_VTHREAD). Both name tables are bounded: class names are
 * interned (charged to the agent's budget) up to AGENT_MAX_CLASSES, and
 * virtual threads, which a server makes by the million, are kept while at
 * most AGENT_MAX_VTHREADS: past that the table starts again (an older one
 * then shows by its id), so the reader's memory stays flat.
 */
#include <stdlib.h>
#include <string.h>

#include "jvm/conn_internal.h"
#include "jvm/jevents.h"
#include "lib/grow.h"
#include "lib/text.h"

#define AGENT_MAX_CLASSES (1u << 16)
#define AGENT_MAX_VTHREADS (1u << 16)

int agent_events_ask(struct agent *a, uint64_t alloc_interval, uint64_t lock_ns,
		     uint32_t flags)
{
	struct {
		struct pja_hdr h;
		struct pja_events e;
	} m = { { PJA_EVENTS, sizeof(struct pja_events) },
		{ alloc_interval, lock_ns, flags, 0 } };

	if (!a || a->fd < 0 || !(a->hello.flags & PJA_HELLO_EVENTS) ||
	    a->ev_asked ||
	    agent_grow(a, &a->out, &a->out_cap, a->out_len + sizeof(m)))
		return -1;
	memcpy(a->out + a->out_len, &m, sizeof(m));
	a->out_len += sizeof(m);
	a->ev_asked = 1;
	return 0;
}

int agent_events_on(const struct agent *a, uint32_t *failed, uint64_t *stray)
{
	if (!a || !a->ev_answered)
		return -1;
	*failed = a->ev_failed;
	*stray = a->ev_stray;
	return (int)a->ev_on;
}

void agent_events_ready(struct agent *a, const char *p, uint32_t len)
{
	struct pja_events_ready r;

	if (len < sizeof(r) || !a->ev_asked) {
		a->stats.dropped++;
		return;
	}
	memcpy(&r, p, sizeof(r));
	a->ev_dropped = r.dropped; /* sent again as it grows */
	if (a->ev_answered)
		return;
	a->ev_on = r.on;
	a->ev_stray = r.stray;
	a->ev_failed = r.failed;
	a->ev_answered = 1;
}

void agent_class(struct agent *a, const char *p, uint32_t len)
{
	struct pja_class c;
	union u64map_val *slot;

	if (len < sizeof(c)) {
		a->stats.dropped++;
		return;
	}
	memcpy(&c, p, sizeof(c));
	if (!c.id || c.name_len > len - sizeof(c) ||
	    c.name_len > PJA_CLASS_MAX_NAME ||
	    (!u64map_find(&a->classes, c.id) &&
	     a->classes.n >= AGENT_MAX_CLASSES) ||
	    !(slot = u64map_slot(&a->classes, c.id))) {
		a->stats.dropped++;
		return;
	}
	slot->p = (void *)agent_intern(a, p + sizeof(c), c.name_len);
}

/* Its pass-through code is the agent's, a page or so: a larger range is
 * refused, so that a hostile agent cannot make the reader take the
 * application's frames for its park. */
#define AGENT_MAX_PASS 65536u

void agent_park(struct agent *a, const char *p, uint32_t len)
{
	struct pja_park k;

	if (len < sizeof(k)) {
		a->stats.dropped++;
		return;
	}
	memcpy(&k, p, sizeof(k));
	if (k.pass_hi < k.pass_lo || k.pass_hi - k.pass_lo > AGENT_MAX_PASS)
		k.pass_lo = k.pass_hi = 0;
	a->park = k;
}

uint32_t agent_park_state(const struct agent *a, uint64_t *lo, uint64_t *hi,
			  uint32_t *rebound)
{
	*lo = a ? a->park.pass_lo : 0;
	*hi = a ? a->park.pass_hi : 0;
	if (rebound)
		*rebound = a ? a->park.rebound : 0;
	return a ? a->park.state : 0;
}

uint64_t agent_events_dropped(const struct agent *a)
{
	return a ? a->ev_dropped : 0;
}

const char *agent_class_name(const struct agent *a, uint64_t id)
{
	const char *s = a && id ? u64map_ptr(&a->classes, id) : NULL;

	return s && *s ? s : NULL;
}

static void vthreads_clear(struct agent *a)
{
	union u64map_val *v;
	uint64_t k;

	for (uint32_t i = 0; u64map_next(&a->vthreads, &i, &k, &v);) {
		agent_refund(a, agent_name_cost(v->p));
		free(v->p);
	}
	u64map_free(&a->vthreads);
}

void agent_vthread(struct agent *a, const char *p, uint32_t len)
{
	struct pja_vthread v;
	char *name;
	union u64map_val *slot;

	if (len < sizeof(v)) {
		a->stats.dropped++;
		return;
	}
	memcpy(&v, p, sizeof(v));
	if (!v.id || v.name_len > len - sizeof(v) ||
	    v.name_len > AGENT_MAX_NAME) {
		a->stats.dropped++;
		return;
	}
	if (a->vthreads.n >= AGENT_MAX_VTHREADS)
		vthreads_clear(a); /* flat: the oldest go with the rest */
	if (!(name = malloc(v.name_len + 1)))
		return;
	memcpy(name, p + sizeof(v), v.name_len);
	name[v.name_len] = 0;
	text_clean(name, v.name_len);
	if (agent_charge(a, agent_name_cost(name))) {
		free(name);
		return;
	}
	if (!(slot = u64map_slot(&a->vthreads, v.id))) {
		agent_refund(a, agent_name_cost(name));
		free(name);
		return;
	}
	if (slot->p)
		agent_refund(a, agent_name_cost(slot->p));
	free(slot->p);
	slot->p = name;
}

const char *agent_vthread_name(const struct agent *a, uint64_t id)
{
	return a && id ? u64map_ptr(&a->vthreads, id) : NULL;
}

void agent_events_free(struct agent *a)
{
	u64map_free(&a->classes);
	vthreads_clear(a);
}

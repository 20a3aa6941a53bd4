// SPDX-License-Identifier: GPL-2.0
/*
 * The JVM's own events, beside the walks at the sample: sampled allocations
 * (alloc.c), waits for locks (lock.c) and virtual threads' parks
 * (vthread.c). Each is recorded on the thread it happened on (jrec.c); the
 * session thread moves it into the reader's walk ring (wring.c), naming
 * the class once per session here (PJA_CLASS), and says how many were
 * dropped over the rate bound or for want of a buffer.
 *
 * Turned on by PJA_EVENTS for one session and off at its end: the events
 * disabled, the capabilities given back, the heap sampling interval put
 * back to HotSpot's default (512 KiB; JVMTI cannot read it).
 */
#include <stdlib.h>
#include <string.h>

#include "pja.h"
#include "alloc.h"
#include "jevents.h"
#include "jrec.h"
#include "lock.h"
#include "out.h"
#include "park.h"
#include "vthread.h"
#include "perfjava/walk_ring.h"

#define HOTSPOT_INTERVAL (512 * 1024)

static jvmtiCapabilities added; /* what this session added */
static JNIEnv *sess_env; /* the session thread's, while events are on */
static uint64_t told; /* dropped, as last said (session thread) */
static struct pja_events_ready ready;

int jevents_report(void)
{
	uint64_t d = jrec_dropped();

	/* another agent may bind Unsafe.park over our hook at any time */
	if (sess_env && jrec_on(PJA_EV_LOCK))
		park_check(sess_env);
	if (!jrec_flags() || d == told)
		return 0;
	told = d;
	ready.dropped = d;
	return out_msg(PJA_EVENTS_READY, &ready, sizeof(ready), NULL, 0, NULL,
		       0);
}

/* The class names sent this session (session thread only). */
static struct cname {
	uint64_t hash;
	uint64_t id;
} * names;
static size_t names_cap, names_n;

static uint64_t fnv(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	while (n--)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h ? h : 1;
}

/* The id of class name s (its hash: names differ by hash, or are one), its
 * PJA_CLASS queued the first time; 0 when it cannot be kept. */
static uint64_t class_id(const char *s, size_t n)
{
	uint64_t h = fnv(s, n);
	struct pja_class c = { .name_len = (uint32_t)n };
	size_t i;

	if ((names_n + 1) * 2 > names_cap) {
		size_t cap = names_cap ? names_cap * 2 : 1024;
		struct cname *p = calloc(cap, sizeof(*p));

		if (!p)
			return 0;
		for (size_t j = 0; j < names_cap; j++) {
			if (!names[j].hash)
				continue;
			for (i = names[j].hash % cap; p[i].hash;
			     i = (i + 1) % cap)
				;
			p[i] = names[j];
		}
		free(names);
		names = p;
		names_cap = cap;
	}
	for (i = h % names_cap; names[i].hash; i = (i + 1) % names_cap)
		if (names[i].hash == h)
			return names[i].id;
	c.id = ++names_n;
	if (out_msg(PJA_CLASS, &c, sizeof(c), s, n, NULL, 0))
		return 0;
	names[i].hash = h;
	names[i].id = c.id;
	return c.id;
}

int jevents_name(const void *ext, uint32_t extlen, struct pjw_event *out)
{
	const char *name = (const char *)ext + sizeof(*out);
	uint64_t at;

	if (extlen < sizeof(*out))
		return -1;
	memcpy(out, ext, sizeof(*out));
	at = (out->cls + 7) & ~7ull; /* the owner's name after the class's */
	if (out->cls > extlen - sizeof(*out) ||
	    out->owner > extlen - sizeof(*out) - at)
		return -1;
	out->owner = out->owner ? class_id(name + at, out->owner) : 0;
	out->cls = out->cls ? class_id(name, out->cls) : 0;
	return 0;
}

static void set_events(jvmtiEventMode mode, uint32_t flags)
{
	jvmtiEnv *jv = pja.jvmti;

	if (flags & PJA_EV_ALLOC)
		(*jv)->SetEventNotificationMode(
		    jv, mode, JVMTI_EVENT_SAMPLED_OBJECT_ALLOC, NULL);
	if (flags & PJA_EV_LOCK) {
		(*jv)->SetEventNotificationMode(
		    jv, mode, JVMTI_EVENT_MONITOR_CONTENDED_ENTER, NULL);
		(*jv)->SetEventNotificationMode(
		    jv, mode, JVMTI_EVENT_MONITOR_CONTENDED_ENTERED, NULL);
	}
}

/* Adds the capabilities of what is asked: the PJA_EV_* it could; *held
 * gets PJA_EV_HELD when another agent holds what failed. */
static uint32_t add_caps(uint32_t want, uint32_t *held)
{
	jvmtiEnv *jv = pja.jvmti;
	jvmtiCapabilities c;
	uint32_t got = 0;

	memset(&added, 0, sizeof(added));
	if (want & PJA_EV_ALLOC) {
		memset(&c, 0, sizeof(c));
		c.can_generate_sampled_object_alloc_events = 1;
		if (!(*jv)->AddCapabilities(jv, &c)) {
			added.can_generate_sampled_object_alloc_events = 1;
			got |= PJA_EV_ALLOC;
		} else if (!(*jv)->GetPotentialCapabilities(jv, &c) &&
			   !c.can_generate_sampled_object_alloc_events) {
			/* one agent at a time has it: another one does now */
			*held |= PJA_EV_HELD;
		}
	}
	if (want & PJA_EV_LOCK) {
		memset(&c, 0, sizeof(c));
		c.can_generate_monitor_events = 1;
		if (!(*jv)->AddCapabilities(jv, &c)) {
			added.can_generate_monitor_events = 1;
			got |= PJA_EV_LOCK;
		}
	}
	return got;
}

int jevents_start(JNIEnv *env, const char *p, uint32_t len)
{
	struct pja_events req;
	struct pja_events_ready rr = { 0, 0, jrec_strays(), 0 };
	uint32_t want, got = 0;
	jvmtiEnv *jv = pja.jvmti;

	if (len < sizeof(req) || jrec_flags() || !env)
		return 0;
	memcpy(&req, p, sizeof(req));
	want = req.flags &
	       (PJA_EV_ALLOC | PJA_EV_LOCK | PJA_EV_VTHREADS | PJA_EV_WALL);
	if (want && !jrec_buffers())
		got = add_caps(want, &rr.failed);
	if ((got & PJA_EV_ALLOC) &&
	    (*jv)->SetHeapSamplingInterval(
		jv, req.alloc_interval && req.alloc_interval < (1u << 30)
			? (jint)req.alloc_interval
			: HOTSPOT_INTERVAL))
		got &= ~PJA_EV_ALLOC;
	if (got & PJA_EV_LOCK)
		jrec_threshold(req.lock_ns);
	if ((got & PJA_EV_LOCK) && lock_park_hook(env))
		rr.failed |= PJA_EV_LOCK; /* monitors only: said */
	if ((want & PJA_EV_VTHREADS) && !vthread_start(env))
		got |= want & (PJA_EV_VTHREADS | PJA_EV_WALL);
	jrec_begin(got);
	sess_env = env;
	set_events(JVMTI_ENABLE, got);
	rr.on = got;
	rr.failed |= want & ~got;
	ready = rr;
	told = 0;
	return out_msg(PJA_EVENTS_READY, &rr, sizeof(rr), NULL, 0, NULL, 0) ? -1
									    : 0;
}

void jevents_stop(JNIEnv *env)
{
	jvmtiEnv *jv = pja.jvmti;
	uint32_t was = jrec_flags();

	/* the events off first, then the session: an event posted meanwhile
	 * is the session's (not a stray, which says the events stayed on) */
	set_events(JVMTI_DISABLE, was);
	jrec_end();
	sess_env = NULL;
	if (was & PJA_EV_ALLOC)
		(*jv)->SetHeapSamplingInterval(jv, HOTSPOT_INTERVAL);
	if (was & PJA_EV_VTHREADS)
		vthread_stop();
	(*jv)->RelinquishCapabilities(jv, &added);
	memset(&added, 0, sizeof(added));
	names_n = 0;
	if (names)
		memset(names, 0, names_cap * sizeof(*names));
	vthread_reset();
}

void jevents_callbacks(jvmtiEventCallbacks *cb)
{
	cb->SampledObjectAlloc = alloc_sampled;
	cb->MonitorContendedEnter = lock_enter;
	cb->MonitorContendedEntered = lock_entered;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The JVM's own events (jvm/jevents.c): asks the agent for them and keeps
 * the names their records use (classes, named virtual threads).
 */
#ifndef PJ_USER_JVM_JEVENTS_H
#define PJ_USER_JVM_JEVENTS_H

#include <stdint.h>

struct agent;

/*
 * Asks the agent for its events (PJA_EV_* flags; the interval of sampled
 * allocations in bytes, the shortest lock wait in ns) once per session;
 * agent_flush sends it. -1 when this agent does not take them.
 */
int agent_events_ask(struct agent *a, uint64_t alloc_interval, uint64_t lock_ns,
		     uint32_t flags);
/* What the agent turned on (PJA_EV_*) and, in *failed, what it could not;
 * in *stray the events the JVM posted while none was asked for; -1 while
 * it has not answered. */
int agent_events_on(const struct agent *a, uint32_t *failed, uint64_t *stray);
/* The events the agent dropped so far (over its rate bound, or busy). */
uint64_t agent_events_dropped(const struct agent *a);
/* The name of a class an event names, or of a named virtual thread; NULL
 * when unknown (a virtual thread without a name: its id). */
const char *agent_class_name(const struct agent *a, uint64_t id);
const char *agent_vthread_name(const struct agent *a, uint64_t id);

/* The agent's Unsafe.park hook as it last said (PJA_PARK): where it passes
 * the call on in *lo..*hi (0, 0: not bound, or not said) and its
 * PJA_PARK_* state; in *rebound the times this session it bound its hook
 * again over another agent's. */
uint32_t agent_park_state(const struct agent *a, uint64_t *lo, uint64_t *hi,
			  uint32_t *rebound);

/* For jvm/messages.c: EVENTS_READY, CLASS, VTHREAD and PARK; their tables
 * freed. */
void agent_events_ready(struct agent *a, const char *p, uint32_t len);
void agent_park(struct agent *a, const char *p, uint32_t len);
void agent_class(struct agent *a, const char *p, uint32_t len);
void agent_vthread(struct agent *a, const char *p, uint32_t len);
void agent_events_free(struct agent *a);

#endif

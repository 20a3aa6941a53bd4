/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PJ_AGENT_JEVENTS_H
#define PJ_AGENT_JEVENTS_H

#include "pja.h"

/* jevents.c: the JVM's own events (allocations, lock waits, virtual
 * threads' parks), each with its stack, into the walk ring. */
struct pja_events;
struct pjw_event;
/* PJA_EVENTS: turns on what it asks for this session; answers
 * PJA_EVENTS_READY. -1 when the socket failed. */
int jevents_start(JNIEnv *env, const char *p, uint32_t len);
/* The session's end: every event off, the JVM's settings put back. */
void jevents_stop(JNIEnv *env);
/* The callbacks of the events (into the agent's one table). */
void jevents_callbacks(jvmtiEventCallbacks *cb);
/* On the session thread: a private record's extension (struct pjw_event
 * and the class name after it) into the shared ring's struct pjw_event,
 * the class's PJA_CLASS (and the virtual thread's PJA_VTHREAD) queued
 * first. -1 when it is broken (the record goes without it). */
int jevents_name(const void *ext, uint32_t extlen, struct pjw_event *out);
/* The session thread: says the events dropped so far (over the rate
 * bound, no free stack buffer) when they changed; -1 when the queue is
 * full. */
int jevents_report(void);

#endif

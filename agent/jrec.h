/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PJ_AGENT_JREC_H
#define PJ_AGENT_JREC_H

#include "pja.h"

/* jrec.c: one of the JVM's events recorded on its own thread, into the
 * private ring (what every event callback calls). */
/* Whether PJA_EV_* flag is on now; all of them. */
int jrec_on(uint32_t flag);
uint32_t jrec_flags(void);
/* Turns the events of flags on (the counts of this session reset); off,
 * giving what was on. */
void jrec_begin(uint32_t flags);
uint32_t jrec_end(void);
/* When the session's events were turned on: a wait stamped before began
 * while they were off (its stamp left over from an earlier session). */
uint64_t jrec_since(void);
/* The stack buffers, made once; -1 when out of memory. */
int jrec_buffers(void);
/* An event posted while not asked for (counted: tests check none is). */
void jrec_stray(void);
uint64_t jrec_strays(void);
/* The events dropped this session (over the rate bound, no buffer). */
uint64_t jrec_dropped(void);
/*
 * Records ev for the calling thread now, with its stack (JVMTI
 * GetStackTrace of the current thread, skip frames left out), klass's
 * name (NULL: none) and the name of the lock's owner (NULL: none). time:
 * when the event began.
 */
void jrec_record(JNIEnv *env, struct pjw_event *ev, jclass klass, uint64_t time,
		 int skip, const char *owner);
/* Whether a wait of waited ns is recorded, and its weight: every wait of
 * the threshold or longer, as itself; a shorter one with the probability
 * waited / threshold, as the threshold (an unbiased total, bounded count). */
void jrec_threshold(uint64_t ns); /* a session's (PJA_EVENTS' lock_ns) */
int jrec_wait_kept(uint64_t waited, uint64_t *weight);
/* Whether a thread parked on an object of class k (its park blocker)
 * waits to acquire a lock: java.util.concurrent's ReentrantLock,
 * ReentrantReadWriteLock, StampedLock and Semaphore (a condition's await,
 * a queue's take, a latch or a future is no lock: off-CPU/wall time). */
int jrec_lock_class(jclass k);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Java frames of off-CPU stacks (record/offjava.c). A switch-out of a
 * JVM's thread that is still the latest record of that thread once its ring
 * is drained (the thread is still blocked as far as the reader knows) asks
 * the agent for the thread's Java stack (jvm/stacks.h): JVMTI
 * GetStackTrace, which does not wake it. The answer is taken for the
 * interval only when the thread had no switch-in between its switch-out and
 * the end of the walk (both CLOCK_MONOTONIC); otherwise the interval keeps
 * its native stack and a marker at the root says why.
 *
 * Each wait costs one walk, however long it lasts; a wait seen again is
 * walked again: nothing the kernel records tells that no Java code ran in
 * between (see record/offjava.c).
 * Limits: one request per interval (so at most one outstanding per thread),
 * at most OFFJAVA_OUTSTANDING outstanding in all, at most OFFJAVA_RATE per
 * second (a bucket of OFFJAVA_BURST); an answer that does not come within
 * OFFJAVA_DEADLINE_NS is given up, and asked again while the thread still
 * waits (an agent busy with its start answers late).
 */
#ifndef PJ_USER_RECORD_OFFJAVA_H
#define PJ_USER_RECORD_OFFJAVA_H

#include <stdint.h>
#include <stdbool.h>

struct recorder;

#define OFFJAVA_OUTSTANDING 64
#define OFFJAVA_RATE 2000.0 /* requests per second */
#define OFFJAVA_BURST 200.0
#define OFFJAVA_DEADLINE_NS 500000000ULL
#define OFFJAVA_MAX_LATE 4096 /* ended intervals waiting for an answer */
#define OFFJAVA_MAX_WANT 65536 /* intervals waiting to be asked */
/* A thread the agent did not know as a Java thread is asked again after */
#define OFFJAVA_NOT_JAVA_NS 1000000000ULL

/* After the rings were drained: asks for the stacks wanted. */
void offjava_ask(struct recorder *rec);
/* Gives up answers older than the deadline (all of them if force). */
void offjava_tick(struct recorder *rec, uint64_t now, bool force);
/* At the end: lets the answers in flight come (bounded). */
void offjava_finish(struct recorder *rec);
/* The agent is going away: what it named must not be used after. */
void offjava_agent_gone(struct recorder *rec);
/* The counts into the file's STATS, and a line of the summary. */
void offjava_write_stats(struct recorder *rec);
void offjava_summary(const struct recorder *rec);

#endif

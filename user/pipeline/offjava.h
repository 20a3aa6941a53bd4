/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Java frames of off-CPU stacks (pipeline/offjava.c). A switch-out of a
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
 * between (see pipeline/offjava.c).
 * Limits: one request per wait (so at most one outstanding per thread),
 * at most OFFJAVA_OUTSTANDING outstanding in all, at most OFFJAVA_RATE per
 * second (a bucket of OFFJAVA_BURST); an answer that does not come within
 * OFFJAVA_DEADLINE_NS is given up, and asked again while the thread still
 * waits (an agent busy with its start answers late).
 */
#ifndef PJ_USER_PIPELINE_OFFJAVA_H
#define PJ_USER_PIPELINE_OFFJAVA_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "lib/u64map.h"

struct agent;
struct emitter;
struct offstate;
struct pending;
struct procs;
struct pj_writer;
struct sample;

#define OFFJAVA_OUTSTANDING 64
#define OFFJAVA_COPIES_OUT 8192 /* copies sent, not answered, at most */
#define OFFJAVA_RATE 2000.0 /* requests per second */
#define OFFJAVA_BURST 200.0
#define OFFJAVA_DEADLINE_NS 500000000ULL
#define OFFJAVA_COPY_DEADLINE_NS 3000000000ULL /* a copy's answer */
#define OFFJAVA_MAX_WANT 65536 /* waits to be asked */
/* A thread the agent did not know as a Java thread is asked again after */
#define OFFJAVA_NOT_JAVA_NS 1000000000ULL

/* Counts of the Java stacks of off-CPU waits. */
struct offjava_stats {
	uint64_t intervals; /* waits of a JVM's threads written */
	uint64_t asked, answered, accepted;
	uint64_t reasked; /* asked again: no answer in time, still waiting */
	uint64_t woke; /* back on a CPU before the walk */
	uint64_t limited; /* not asked: over the rate limit */
	uint64_t no_answer; /* asked, never answered */
	uint64_t not_java; /* the agent knows no Java thread of that tid */
	uint64_t failed; /* the walk failed */
	uint64_t not_merged; /* frames that did not belong with the stack */
	uint64_t walk_ns; /* time spent in GetStackTrace, summed */
	uint64_t copies; /* stack copies sent (walked in the copy) */
	uint64_t chains; /* of which the frame-pointer chain beyond it */
	uint64_t copy_failed; /* not walkable in the copy: asked again */
	uint64_t truncated; /* walked in the copy, up to its end */
	uint64_t copies_answered;
	uint64_t copy_walk_ns; /* time the agent spent walking copies */
	uint64_t late_copies; /* answered after they were given up */
};

/* The asks' state. */
struct offjava {
	/* what it works with */
	bool java; /* JVMs' waits are to have their Java frames (no --no-java) */
	uint64_t start_ns; /* the recording's (or the file's) start */
	struct pending *pend; /* where its waits are held */
	struct offstate *os; /* their state leaves */
	struct emitter *em; /* where they go */

	uint64_t *want; /* held waits whose Java stack is to be asked */
	size_t nwant, wantcap;
	unsigned int outstanding; /* asked, not answered */
	unsigned int copies_out; /* of which copies */
	double tokens; /* the rate limit's bucket */
	uint64_t refill_at;
	/* tid -> when the agent said it is no Java thread (ms from the
	 * recording's start, + 1) */
	struct u64map not_java;
	struct offjava_stats st;
};

/* Holds the switch-out smp of a JVM's thread until its wait ends, its Java
 * stack to be asked (first_seen: blocked when its events opened, no user
 * stack). Its id (pipeline/pending.h), or 0 when not held. */
uint64_t offjava_hold(struct offjava *oj, const struct sample *smp,
		      bool first_seen);
/* Whether the wait smp opens is to have its Java frames: its process is
 * a JVM, and Java frames are wanted. */
bool offjava_wanted(const struct offjava *oj, const struct sample *smp);
/* After the rings were drained: asks each wait's JVM's agent (of ps) for
 * the stacks wanted. */
void offjava_ask(struct offjava *oj, struct procs *ps);
/* The agent of JVM pid is going away: no stack is asked of it any more. */
void offjava_agent_gone(struct offjava *oj, pid_t pid);
/* --loop: a new file. */
void offjava_forget(struct offjava *oj);
void offjava_free(struct offjava *oj);
/* The counts into the file's STATS, and a line of the summary. */
void offjava_write_stats(const struct offjava *oj, struct pj_writer *w);
void offjava_summary(const struct offjava *oj);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Java walk of a JVM's sample: taken at the instant of the sample
 * (pipeline/ksig.h) or asked of the agent, the sample held meanwhile
 * (pipeline/pending.h) for at most RECORD_WALK_DEADLINE_NS, then merged with
 * the walk's frames (pipeline/emit.h) and written. Counts the walks' outcomes,
 * their latency and whether they name the JIT code the kernel sampled.
 */
#ifndef PJ_USER_PIPELINE_CPUWALK_H
#define PJ_USER_PIPELINE_CPUWALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jvm/client.h"
#include "lib/loghist.h"

/* a walk answer after 1 s is lost: walks at the sample come every 200 ms
 * at most (the agent's pump), their samples as late (the drain, run.c) */
#define RECORD_WALK_DEADLINE_NS 1000000000ULL
#define RECORD_PENDING 8192 /* samples waiting for their walk, at most */

struct emitter;
struct ksig;
struct pending;
struct proc;
struct ring;
struct sample;

struct cpuwalk_stats {
	uint64_t walks[AGENT_WALK_LOST + 1]; /* by outcome */
	uint64_t no_answer;
	uint64_t checked,
	    agreed; /* walks checked against the sampled JIT code */
	uint64_t
	    moved_on; /* walks not merged: another moment (pipeline/merge.h) */
	struct loghist lat; /* walk latencies, ns (fixed size: days flat) */
};

struct cpuwalk {
	struct pending *pend; /* where its samples wait */
	struct emitter *em; /* where they go */
	struct cpuwalk_stats st;
};

/* Holds smp (of ring r) for its walk, at the sample (p's ksig) or asked of
 * p's agent; false when it cannot wait. */
bool cpuwalk_hold(struct cpuwalk *cw, struct proc *p, const struct ring *r,
		  const struct sample *smp);
/* A walk, or its failure, for the held sample cookie (agent_walk_cb; ctx
 * is the cpuwalk). */
void cpuwalk_done(void *ctx, uint64_t cookie, int status,
		  const struct java_frame *frames, unsigned int n,
		  uint64_t walk_time_ns);
/* The walk latencies' median and 99th percentile (within 1/16, lib/loghist.h)
 * and largest; false when there were none. */
bool cpuwalk_latency(struct cpuwalk *cw, uint64_t *p50, uint64_t *p99,
		     uint64_t *max);
/* A new file: the counts start again. */
void cpuwalk_new_file(struct cpuwalk *cw);
void cpuwalk_free(struct cpuwalk *cw);

#endif

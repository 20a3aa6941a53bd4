/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Java walk of a JVM's sample: taken at the instant of the sample
 * (record/ksig.h) or asked of the agent, the sample held meanwhile
 * (record/pending.h) for at most RECORD_WALK_DEADLINE_NS, then merged with
 * the walk's frames (record/merge.h) and written. Counts the walks' outcomes,
 * their latency and whether they name the JIT code the kernel sampled.
 */
#ifndef PJ_USER_RECORD_CPUWALK_H
#define PJ_USER_RECORD_CPUWALK_H

#include <stdbool.h>
#include <stdint.h>

#include "jvm/client.h"

struct recorder;
struct ring;
struct sample;

/* Holds smp (of ring r) for its walk; false when it cannot wait. */
bool cpuwalk_hold(struct recorder *rec, const struct ring *r,
		  const struct sample *smp);
/* A walk, or its failure, for the held sample cookie (agent_walk_cb). */
void cpuwalk_done(void *ctx, uint64_t cookie, int status,
		  const struct java_frame *frames, unsigned int n,
		  uint64_t walk_time_ns);
/* Lets the answers in flight come (bounded: a quarter second), asking
 * first the off-CPU stacks wanted, then gives up the rest. */
void record_finish_waits(struct recorder *rec);

#endif

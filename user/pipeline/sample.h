/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sample on its way through the reader, as a value: decoded once from its
 * ring record (pipeline/decode.h), held while it waits for its Java frames or
 * its weight (pipeline/pending.h), merged once and written (pipeline/emit.h),
 * where its addresses are named. What it points to belongs to the stage that
 * holds it.
 */
#ifndef PJ_USER_PIPELINE_SAMPLE_H
#define PJ_USER_PIPELINE_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "jvm/stacks.h"
#include "profile/io.h"

struct sample {
	struct pj_sample s; /* time, tid, cpu, event, period, switches */
	const uint64_t *kips; /* kernel addresses, leaf first */
	/* or, instead, kernel frames named already (the stack /proc shows of
	 * a thread blocked when first seen), leaf first */
	const uint32_t *kframes;
	unsigned int nk;
	const uint64_t *uips; /* user addresses, leaf first */
	unsigned int nu;
	const char *root; /* a marker frame at the root, or NULL */
	const char *tp; /* its tracepoint's fields as text (its info), or
			   NULL */
	int fd; /* its event's key in walks at the sample (ring.h keys) */
	/* a clock event's count and the thread's switches, read into the
	 * sample (its weight: pipeline/switchcost.h) */
	uint64_t read[2];
	unsigned int nread;
	bool read_cpu; /* counts of its CPU's events alone (inherited) */
	/* an off-CPU sample of a JVM's thread: its stack copy from the first
	 * frame in the JVM's code (while decoded only; .stack NULL: none) */
	struct stack_copy jcopy;
	bool offcpu; /* of the off-CPU event (pipeline/wall.h): a switch-out */
	/* make bench (ring_opts.alt): of the clock's twin without a signal,
	 * taken as --no-java takes it: no walk asked */
	bool no_walk;
	uint8_t state; /* off-CPU: enum wall_state of its wait */
};

#endif

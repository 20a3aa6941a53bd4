/* SPDX-License-Identifier: GPL-2.0 */
/*
 * make bench's turns: the reader's one benchmark switch and all that it
 * does, in one place (the agent's are agent/testhooks.c's). With
 * PERFJAVA_BENCH=alt or alt-all in its environment, a recording holds
 * perfjava as shipped in the even periods of PJA_BENCH_ALT_NS of
 * CLOCK_MONOTONIC and without part of it in the odd ones, so that one run
 * reads the cost of what is left out faster than the host drifts
 * (selftests/bench/bench_walk_alt.sh). It is said on stderr, never a
 * user's recording.
 *
 * The production code calls in at seven places, each a no-op without the
 * switch (ring_opts.alt RING_ALT_NONE): record.c reads the switch
 * (bench_from_env), ring.c opens, enables, disables and closes a ring
 * (bench_ring_*), and the run loop turns the rings (bench_turn: as it
 * wakes, before its drain, and after). With the switch, a target's new
 * tasks are not inherited (record/family.c): a turn is a thread's. The
 * decoder takes a twin's samples as --no-java's (pipeline/decode.c).
 */
#ifndef PJ_USER_BENCHTURN_H
#define PJ_USER_BENCHTURN_H

#include <stdbool.h>
#include <stdint.h>

struct perf_event_attr;
struct ring;
struct ring_opts;
struct threads;

/* What the odd periods leave out. */
enum ring_alt {
	RING_ALT_NONE,
	/* the signal: a thread's first event, when it SIGTRAPs, has a twin
	 * without, whose samples are taken as --no-java takes them
	 * (PERFJAVA_BENCH=alt) */
	RING_ALT_SIGNAL,
	/* all of it: a thread's first event samples in the even periods only
	 * (PERFJAVA_BENCH=alt-all), and the reader and the agent's thread
	 * sleep through the odd ones (record/run.c, agent/wring.c) */
	RING_ALT_ALL,
};

/* PERFJAVA_BENCH's turns (RING_ALT_NONE without it, or with another
 * value), said on stderr. */
enum ring_alt bench_from_env(void);

/* Ring r of a thread (cpu < 0) is opened and mapped, its first event's
 * attributes first: of ring_opts.alt, it takes turns (r->alt), the first
 * event with a twin of its own for RING_ALT_SIGNAL; a twin that cannot
 * open leaves the first event sampling throughout, which the bench's odd
 * periods show. */
void bench_ring_opened(struct ring *r, const struct perf_event_attr *first,
		       const struct ring_opts *o, int cpu);
/* r enabled: of the events that take turns, the one whose turn it is */
void bench_ring_enable(struct ring *r);
void bench_ring_disable(struct ring *r);
void bench_ring_close(struct ring *r);

/*
 * The run loop's turn at now: when *next (0 at first, UINT64_MAX without
 * turns) is due, every enabled ring of t takes its turn and *next becomes
 * the next period's start. True while the reader is to sleep through an
 * odd period (alt-all: nothing is sampled, nor drained, until *next).
 */
bool bench_turn(struct threads *t, uint64_t now, uint64_t *next);

#endif

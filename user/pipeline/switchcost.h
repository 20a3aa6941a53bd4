/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPU time a clock event's samples miss. A thread's cpu-clock (or
 * task-clock) sample is due when its hrtimer expires; a thread that blocks
 * every few tens of microseconds often blocks before the timer's interrupt
 * arrives, and the kernel then restarts the period short: the time between
 * is counted by the event but has no sample. Under a hypervisor a thread
 * that blocks every 20 us gets 15% fewer samples than its CPU time
 * (selftests/bench/bench_cpuclock.sh), in every profiler built on these
 * events. The event also runs only between the kernel's perf switch-in and
 * switch-out of the thread, while the scheduler counts a little more of
 * each switch (about 1 us here); and where the kernel accounts interrupt
 * time apart (IRQ_TIME_ACCOUNTING), the scheduler leaves out the
 * interrupts the thread took, the wake-up IPIs of a switch under a
 * hypervisor among them, which the event counts: then the scheduler's time
 * is the smaller (by 3 to 6 us a switch of progs/bursts here, some days).
 *
 * With a single clock event, each thread's ring counts its context switches
 * in the event's group, and both counts are read into every sample
 * (PERF_SAMPLE_READ); an inherited ring's events, one on each CPU, count
 * the thread's time on their CPU, and so are taken CPU by CPU. A sample
 * weighs the event's time since the thread's previous sample, not the
 * nominal period, and carries the switches since then. Every second, and at
 * each file's end, the sampled threads' scheduler time (/proc/TID/schedstat)
 * is set against their events' time: the difference per switch over the
 * file is the thread's switch cost, signed (switch_cost_ps.TID), and report
 * adds each sample's switches at its thread's cost (a thread with too few
 * switches to divide by: at the file's, switch_cost_ps, over all threads,
 * 0 when negative). Each thread's weight is then the CPU time the scheduler
 * counted, spread over the code that ran, in --total and pprof's time. The
 * cost is each thread's own: of progs/bursts's two threads, the one woken
 * to answer the pipe pays twice the other's (1.3 us a switch against 0.7
 * here), and more under load. Sample counts are not changed.
 */
#ifndef PJ_USER_SWITCHCOST_H
#define PJ_USER_SWITCHCOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/u64map.h"
#include "rings/ring.h"

struct pj_event;
struct pj_writer;
struct sample;
struct threads;

/* The file's totals over the threads measured at both ends. */
struct switch_cost {
	uint64_t thread_ns; /* scheduler time */
	uint64_t event_ns; /* clock event time */
	uint64_t switches;
	unsigned int threads;
	/* over the samples: their weights, and their nominal periods */
	uint64_t sampled_ns, nominal_ns, sampled_switches;
};

/* A thread's counts as of its latest sample, and its clocks' mark. */
struct swc_thread {
	uint64_t key; /* its tid + 1 (+ (its CPU + 1) << 32: switchcost.c) */
	uint64_t last_count; /* the clock event's count in the latest sample */
	uint64_t last_switches; /* the switch counter's, likewise */
	struct ring_clocks mark; /* at enable, or at the current file's start */
	bool marked;
	bool sampled; /* a sample since the last switchcost_take */
	bool counted; /* in the current file's totals */
	bool lost_since; /* records lost since the latest sample */
	/* its clocks in the current file's totals */
	uint64_t thread_ns, event_ns, switches;
	bool gone; /* its ring closed: kept for the file's STATS */
};

struct switchcost {
	struct switch_cost c; /* the current file's */
	uint64_t next; /* when the threads' clocks are read next */
	struct u64map index; /* key -> position in v + 1 */
	struct swc_thread *v;
	size_t n, cap;
	uint32_t cpus; /* CPUs whose events' counts came, by number + 1 */
	unsigned int gone; /* threads gone, kept for the file's STATS */
};

/* Fewer switches than this give no cost: too few to divide by. */
#define SWITCH_COST_MIN_SWITCHES 100
/* More than 1 ms a switch (in ps) is no switch cost: not measured. */
#define SWITCH_COST_MAX_PS 1000000000ll
/* At most this many threads get a cost of their own in a file's STATS
 * (the others the file's), and as many gone threads are kept for it. */
#define SWITCH_COST_THREADS_MAX 4096
/* How often the sampled threads' clocks are read. */
#define SWITCH_COST_TICK_NS 1000000000ull

/* The sample's weight: its clock event's time and the thread's switches
 * since the thread's previous sample (left alone without a group read). */
void switchcost_sample(struct switchcost *sc, struct sample *smp);
/* Thread tid's ring lost records, or the kernel throttled its sampling:
 * its next sample keeps its period. */
void switchcost_lost(struct switchcost *sc, uint32_t tid);
/* r's events were just enabled: its clocks now are where it starts. */
void switchcost_mark(struct switchcost *sc, const struct ring *r);
/* From the poll loop: switchcost_take(sc, th, false) every
 * SWITCH_COST_TICK_NS. */
void switchcost_tick(struct switchcost *sc, const struct threads *th,
		     uint64_t now);
/* Adds to the file's totals the clocks since its mark of every thread of
 * th still there (all) or of those sampled since the last call, and marks
 * them anew: every second, so that a thread that exits loses only its last
 * second, and at a file's end, while the events still run. */
void switchcost_take(struct switchcost *sc, const struct threads *th, bool all);
/* Thread tid's ring is closed: its counts are forgotten, its totals kept
 * for the file's STATS (switchcost_next_file forgets them). */
void switchcost_thread_gone(struct switchcost *sc, uint32_t tid);
/* After a file's STATS: the totals start again. */
void switchcost_next_file(struct switchcost *sc);
void switchcost_free(struct switchcost *sc);
/* The cost of a switch in ps from the totals; 0 when not measured. */
uint64_t switchcost_ps(const struct switch_cost *c);
/* STATS: switch_cost_ps and what it came from, and switch_cost_ps.TID of
 * each thread with switches enough: signed (two's complement), as the
 * scheduler's time can be the smaller (the text above). */
void switchcost_write_stats(const struct switchcost *sc, struct pj_writer *w);
/* One line on stderr when the time the sample counts miss is worth saying
 * (2% or more): ev is the clock event, lost the records lost. */
void switchcost_summary(const struct switchcost *sc, const struct pj_event *ev,
			uint64_t lost);

#endif

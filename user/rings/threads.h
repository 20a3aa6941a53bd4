/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recorded threads and their rings, of every process recorded: found in
 * /proc/PID/task at start, on PERF_RECORD_FORK from a parent's event, and
 * by periodic rescans; closed after their last records are drained. Each
 * ring knows its process (ring.pid).
 *
 * With inherited events (ring_opts.inherit) a task that a thread with a
 * ring starts is carried by that ring: the kernel samples it from its
 * first instruction with the events it inherited, into that ring, and it
 * gets no ring of its own (it would be sampled twice). Rescans leave the
 * carried tasks alone. Once the ring's own thread has exited, its ring is
 * closed, which ends what they inherited: they are adopted then, each
 * given a ring of its own (threads_adopt).
 */
#ifndef PJ_USER_THREADS_H
#define PJ_USER_THREADS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/u64map.h"
#include "rings/ring.h"

/* Carried tasks followed at most, by default (a fork bomb's beyond). */
#define THREADS_CARRIED_MAX 65536

struct threads {
	const struct pj_event *evs;
	unsigned int nevents;
	struct ring_opts opts;
	struct ring **v; /* open rings */
	unsigned int n, cap;
	struct u64map index; /* tid -> position in v, plus one */
	/* carried tasks: tid + 1 -> its carrier's serial << 32 | its pid */
	struct u64map carried;
	uint32_t serials; /* the last ring's serial */
	unsigned int carried_max; /* at most (0: THREADS_CARRIED_MAX) */
	uint64_t carried_over; /* tasks beyond it, not followed as carried */
	bool changed; /* the set of fds changed since the last poll setup */
	unsigned int opened; /* threads ever opened */
	bool enabled;
	/* What a process's rings differ by (a JVM's: signals at the
	 * sample, a wake-up per sample): made from opts for pid, or NULL. */
	void (*opts_for)(void *ctx, pid_t pid, struct ring_opts *o);
	/* Called for every thread opened, e.g. to store its name. */
	void (*on_open)(void *ctx, struct ring *r);
	void *ctx;
};

/*
 * Opens tid of process pid if not open yet. 0 when open (or gone: ESRCH is
 * not an error), -errno otherwise, with *bad_event the event that failed.
 */
int threads_add(struct threads *t, pid_t pid, pid_t tid,
		unsigned int *bad_event);
/* Opens the ring of every thread on cpu (-a, -C); 0 or -errno. */
int threads_add_cpu(struct threads *t, int cpu, unsigned int *bad_event);
/* Opens every thread in /proc/PID/task not open yet and not carried.
 * Returns how many were added, or -errno from the first thread that failed
 * to open. */
int threads_scan(struct threads *t, pid_t pid, unsigned int *bad_event);
/* Task tid of process pid is carried by r (its record of the task's start
 * came there): 0, or -1 when too many are (then it is not followed so). */
int threads_carry(struct threads *t, const struct ring *r, pid_t pid,
		  pid_t tid);
/* Whether task tid is carried (by a ring still open or not). */
bool threads_is_carried(const struct threads *t, pid_t tid);
/* The ring that carries task tid, or NULL (none, or its own). */
struct ring *threads_carrier(const struct threads *t, pid_t tid);
/* Task tid exited: carried no more. */
void threads_uncarry(struct threads *t, pid_t tid);
/* r's thread exited: the tasks it carried, still alive, get rings of their
 * own, with the options of their process. How many did. */
unsigned int threads_adopt(struct threads *t, const struct ring *r);
/* A new ring for r's thread, with the options its process has now (its
 * JVM's agent came): r is retired, drained and closed by the caller
 * (threads_remove). 0, or -errno with r left as it was. */
int threads_replace(struct threads *t, struct ring *r, unsigned int *bad_event);
struct ring *threads_find(struct threads *t, pid_t tid);
void threads_remove(struct threads *t, struct ring *r);
void threads_enable(struct threads *t);
void threads_disable(struct threads *t);
void threads_free(struct threads *t);

#endif

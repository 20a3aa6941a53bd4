/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recorded threads and their rings, of every process recorded: found in
 * /proc/PID/task at start, on PERF_RECORD_FORK from a parent's event, and
 * by periodic rescans; closed after their last records are drained. Each
 * ring knows its process (ring.pid).
 */
#ifndef PJ_USER_THREADS_H
#define PJ_USER_THREADS_H

#include <stdbool.h>
#include <sys/types.h>

#include "lib/u64map.h"
#include "rings/ring.h"

struct threads {
	const struct pj_event *evs;
	unsigned int nevents;
	struct ring_opts opts;
	struct ring **v; /* open rings */
	unsigned int n, cap;
	struct u64map index; /* tid -> position in v, plus one */
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
/* Opens every thread in /proc/PID/task not open yet. Returns how many were
 * added, or -errno from the first thread that failed to open. */
int threads_scan(struct threads *t, pid_t pid, unsigned int *bad_event);
struct ring *threads_find(struct threads *t, pid_t tid);
void threads_remove(struct threads *t, struct ring *r);
void threads_enable(struct threads *t);
void threads_disable(struct threads *t);
/* make bench (opts.alt): the rings' twins take their turn (ring.h). */
void threads_alternate(struct threads *t, bool odd);
void threads_free(struct threads *t);

#endif

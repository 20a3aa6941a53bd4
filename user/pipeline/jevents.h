/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The JVM's own events, recorded beside the perf events (pipeline/jevents.c):
 * `-e alloc[/period=BYTES/]` (sampled allocations, the allocated class as
 * the leaf, weighted by the bytes they stand for) and `-e lock[/period=NS/]`
 * (waits to enter a contended monitor or for a java.util.concurrent lock,
 * the lock's class as the leaf, weighted by the time waited). They come
 * from the agent through the walk ring (jvm/client.h, struct ring_event),
 * each with the stack where it happened. In the file each is an event of
 * its own (unit bytes or ns); per thread, a dummy perf event stands for it
 * (no sample, one descriptor).
 */
#ifndef PJ_USER_PIPELINE_JEVENTS_H
#define PJ_USER_PIPELINE_JEVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct agent;
struct emitter;
struct jevents;
struct pj_event;
struct pj_writer;
struct ring_walk;
struct threads;

#define JEVENTS_ALLOC_DEFAULT (512u * 1024) /* bytes, as async-profiler */
#define JEVENTS_LOCK_DEFAULT 10000u /* ns, as async-profiler */

enum jevent_kind { JEV_NONE = 0, JEV_ALLOC, JEV_LOCK, JEV_VPARK, JEV_KINDS };
/* The root marker of a virtual thread's wait that held its carrier. */
#define JEVENTS_PINNED "[virtual thread pinned to its carrier]"
/* The leaf of a virtual thread's park on no lock, with --wall. */
#define JEVENTS_VPARK "[off-cpu: virtual thread parked]"

/*
 * spec with "alloc" and "lock" made "dummy" (their terms kept) into out;
 * kind[i] tells which event of the result each was (at most nmax). -1 when
 * out is too small.
 */
int jevents_expand(const char *spec, char *out, size_t len, uint8_t *kind,
		   unsigned int nmax);
/* Names the events of evs[0..n) that kind[] says are the JVM's, with
 * their units and periods; *out (NULL when none) writes their samples to em,
 * of the threads of th. 0, or -1 after a message. */
/* wall_ev: the offcpu event of --wall (a virtual thread's parks go
 * there), -1 without. */
int jevents_setup(struct jevents **out, struct pj_event *evs, unsigned int n,
		  const uint8_t *kind, struct emitter *em,
		  const struct threads *th, int wall_ev);
void jevents_free(struct jevents *j);
/* Whether event index ev is one of them (no perf samples of its own). */
bool jevents_is(const struct jevents *j, uint32_t ev);
/* Every drain: asks the agent a of JVM pid once its walk ring is ready. */
void jevents_tick(struct jevents *j, struct agent *a, pid_t pid);
/* An event's record from the walk ring of the agent a of JVM pid: written
 * as a sample (jev: the struct jevents; a ksig_event_cb). */
void jevents_take(void *jev, struct agent *a, pid_t pid,
		  const struct ring_walk *w);
/* The summary's line (agent: one was there), and the statistics in the
 * file. */
void jevents_summary(const struct jevents *j, bool agent);
void jevents_write_stats(const struct jevents *j, struct pj_writer *w);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The JVM's own events, recorded beside the perf events (record/jevents.c):
 * `-e alloc[/period=BYTES/]` (sampled allocations, the allocated class as
 * the leaf, weighted by the bytes they stand for) and `-e lock[/period=NS/]`
 * (waits to enter a contended monitor or for a java.util.concurrent lock,
 * the lock's class as the leaf, weighted by the time waited). They come
 * from the agent through the walk ring (jvm/client.h, struct ring_event),
 * each with the stack where it happened. In the file each is an event of
 * its own (unit bytes or ns); per thread, a dummy perf event stands for it
 * (no sample, one descriptor).
 */
#ifndef PJ_USER_RECORD_JEVENTS_H
#define PJ_USER_RECORD_JEVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct recorder;
struct ring_walk;

#define JEVENTS_ALLOC_DEFAULT (512u * 1024) /* bytes, as async-profiler */
#define JEVENTS_LOCK_DEFAULT 10000u /* ns, as async-profiler */

enum jevent_kind { JEV_NONE = 0, JEV_ALLOC, JEV_LOCK };

/*
 * spec with "alloc" and "lock" made "dummy" (their terms kept) into out;
 * kind[i] tells which event of the result each was (at most nmax). -1 when
 * out is too small.
 */
int jevents_expand(const char *spec, char *out, size_t len, uint8_t *kind,
		   unsigned int nmax);
/* Names them, with their units and periods; rec->jev set when any. */
int jevents_setup(struct recorder *rec, const uint8_t *kind);
void jevents_free(struct recorder *rec);
/* Whether event index ev is one of them (no perf samples of its own). */
bool jevents_is(const struct recorder *rec, uint32_t ev);
/* Every drain: asks the agent once its walk ring is ready. */
void jevents_tick(struct recorder *rec);
/* An event's record from the walk ring: written as a sample. */
void jevents_take(struct recorder *rec, const struct ring_walk *w);
/* The summary's line, and the statistics in the file. */
void jevents_summary(const struct recorder *rec);
void jevents_write_stats(struct recorder *rec);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPUs' shared rings (rings/ring.c's inherited rings): the kernel's
 * ring takes one writer at a time, and the tasks that inherit a thread's
 * events write from every CPU at once; so an inherited ring's events are
 * opened on every CPU, each writing into that CPU's shared ring, owned by
 * a dummy event of the reader's, and each record read there is given to
 * the ring its event belongs to (cpurings.c). For rings/ring.c alone.
 */
#ifndef PJ_USER_CPURINGS_H
#define PJ_USER_CPURINGS_H

#include <stdint.h>

#include "rings/ring.h"

struct perf_cpu_map;

/* The shared rings of the CPUs in cpus, made once, with pages data pages
 * each (fewer where the kernel's limit on locked memory says so, down to
 * min). 0 or -errno (then for good: rings do without inheriting). */
int cpu_rings_make(const struct perf_cpu_map *cpus, unsigned int pages,
		   unsigned int min);
/* Every event of r (opened on cpus) writing into its CPU's shared ring,
 * known by its id (r->xids). 0 or -errno. */
int cpu_rings_share(struct ring *r, const struct perf_cpu_map *cpus);
/* r's ids forgotten: what its events wrote and is still there is dropped
 * (ring_orphans). */
void cpu_rings_unshare(struct ring *r);
/* At most max records of the shared rings, each to cb with its ring, in
 * the order of their times; r->drained_ns set when they were emptied. */
unsigned int cpu_rings_drain(struct ring *r, ring_record_cb cb, void *ctx,
			     unsigned int max);
/* The record of mapped ring r (a thread's too) at pos, whole (copied when
 * it wraps, valid until the next call): NULL past head, or when it is not
 * the kernel's (then the ring is read no further). */
const struct perf_event_header *ring_record_at(const struct ring *r,
					       uint64_t pos, uint64_t head);

#endif

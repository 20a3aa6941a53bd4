/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The records beside the samples (record/sideband.c): a new thread of a
 * process followed gets its events, an exit ends a thread (and, -a, its
 * process a second later), an MMAP2 of libjvm.so makes a JVM (-a), a COMM
 * names a thread or says a target exec'd, a switch ends an off-CPU wait,
 * and what the kernel lost is counted.
 */
#ifndef PJ_USER_RECORD_SIDEBAND_H
#define PJ_USER_RECORD_SIDEBAND_H

#include <linux/perf_event.h>

struct recorder;
struct ring;

/* A record of ring r other than a sample. */
void record_on_sideband(struct recorder *rec, struct ring *r,
			const struct perf_event_header *hdr);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The samples of a profile as the events of a JFR file
 * (report/jfr_emit.c), as the JDK and async-profiler write them:
 *   cpu-clock, task-clock, cycles  jdk.ExecutionSample, STATE_DEFAULT (as
 *                                  async-profiler's CPU samples)
 *   offcpu (-e offcpu, --wall)     profiler.WallClockSample: the wait's
 *                                  state, timeSpan its length, samples the
 *                                  CPU samples' worth of time it is
 *   alloc                          jdk.ObjectAllocationSample: objectClass,
 *                                  weight the bytes it stands for
 *   lock                           jdk.JavaMonitorEnter, or jdk.ThreadPark
 *                                  when it parked (LockSupport.park in its
 *                                  stack): the class, duration
 *   any other event                perfjava.EventSample
 * and the JDK's own event names that a JFR file read in gave the profile
 * (jdk.ObjectAllocationInNewTLAB, ...) as those events again. A sample of
 * a virtual thread is that virtual thread's (report/jfr_pools.h).
 */
#ifndef PJ_USER_REPORT_JFR_EMIT_H
#define PJ_USER_REPORT_JFR_EMIT_H

#include "lib/u64map.h"
#include "report/jfr_chunk.h"
#include "report/jfr_pools.h"
#include "report/jfr_types.h"

enum jfr_kind {
	JFR_K_CPU,
	JFR_K_WALL,
	JFR_K_ALLOC,
	JFR_K_TLAB_IN,
	JFR_K_TLAB_OUT,
	JFR_K_LOCK, /* a monitor or a park, as its stack says */
	JFR_K_MONITOR,
	JFR_K_PARK,
	JFR_K_OTHER,
};

struct jfr_emit {
	const struct report *r;
	const struct pj_profile *p;
	struct jfr_pools *pl;
	struct jfr_buf b;
	uint64_t used; /* jfr_event_bit() of each type written */
	uint64_t end_ticks;
	uint64_t unit; /* ns one wall-clock sample stands for */
	struct u64map waited; /* thread key -> ns its waits took so far */
};

enum jfr_kind jfr_kind_of(const struct pj_event_desc *e);
/* The event types samples of kind k may be written as (the second 0). */
void jfr_kind_types(enum jfr_kind k, enum jfr_type_id t[2]);
/* Sets ev->unit from the samples r selects: the mean time a CPU sample
 * stands for, so that the wall-clock samples and the CPU samples count
 * time alike (10 ms when there are none). */
void jfr_emit_unit(struct jfr_emit *ev, const struct report *r);
/* Appends sample s as its event. */
void jfr_emit_sample(struct jfr_emit *ev, const struct pj_sample *s);
void jfr_emit_free(struct jfr_emit *ev);

#endif

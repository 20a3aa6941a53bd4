/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The constant pools of a JFR file written from a profile: the events
 * refer to threads, stack traces, thread states and strings by key, and
 * the checkpoint at the end of the chunk defines what they refer to (and
 * below them the methods, classes, packages and symbols of
 * report/jfr_names.h, each once).
 *
 * Keys (below 2^31: async-profiler's converter reads them as int): a
 * thread is its tid, a virtual thread its Java id, as the JDK's are (the
 * converter shows the key as the tid); one that cannot be (0, too large,
 * or taken already) JFR_THREAD_KEY + a count. Stack id st is 2 st + 1
 * whole and 2 st + 2 without its leaf frame (an allocation's or a lock's
 * class, which its event names instead); a thread state its report state
 * (report/wallview.c) + 1, JFR_STATE_DEFAULT for CPU samples; a string of
 * perfjava.EventSample the profile's string id (details) or
 * JFR_EVENT_NAME_KEY + the event's index (its name). Key 0 is null.
 */
#ifndef PJ_USER_REPORT_JFR_POOLS_H
#define PJ_USER_REPORT_JFR_POOLS_H

#include "lib/u64map.h"
#include "report/jfr_chunk.h"
#include "report/jfr_names.h"
#include "report/report.h"

#define JFR_EVENT_NAME_KEY (1ull << 32)
#define JFR_THREAD_KEY (1u << 30)
#define JFR_STATE_DEFAULT (REPORT_NSTATES + 1)
#define JFR_VTHREAD_GROUP 1 /* jdk.types.ThreadGroup "VirtualThreads" */

struct jfr_pools {
	const struct report *r;
	uint8_t *stack_used; /* per stack id: bit 0 whole, bit 1 its callers */
	struct u64map key_of; /* tid + 1, or vthread id | 1 << 63 -> key */
	struct u64map taken; /* key -> 1 */
	struct jfr_thread {
		uint64_t key, vthread; /* vthread: its Java id, 0 none */
		uint32_t tid;
	} * th;
	uint32_t nth, cap_th, nhigh;
	bool vthreads; /* the thread group of virtual threads is used */
	struct u64map strings; /* key + 1 -> 1 */
	unsigned int states; /* bit per state key */
	struct jfr_names nm;
	bool oom;
};

/* 0, or -1 out of memory. */
int jfr_pools_init(struct jfr_pools *pl, const struct report *r);
void jfr_pools_free(struct jfr_pools *pl);
/* The key of sample s's thread: the virtual thread it ran, if any, else
 * its thread. 0 when out of memory. */
uint64_t jfr_pools_thread(struct jfr_pools *pl, const struct pj_sample *s);
/* The key of stack id st, whole or without its leaf frame (callers). */
uint64_t jfr_pools_stack(struct jfr_pools *pl, uint32_t st, bool callers);
static inline void jfr_pools_use_state(struct jfr_pools *pl, unsigned int k)
{
	pl->states |= 1u << k;
}
static inline void jfr_pools_use_string(struct jfr_pools *pl, uint64_t key)
{
	if (key && u64map_put(&pl->strings, key + 1, 1))
		pl->oom = true;
}
/* The checkpoint event with every pool that has an entry. */
void jfr_pools_write(struct jfr_pools *pl, struct jfr_buf *b, uint64_t ticks);

#endif

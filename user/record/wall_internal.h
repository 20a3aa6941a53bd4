/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What record/wall.c and record/offjava.c share: the off-CPU intervals and
 * the Java stacks asked for them. Not for other parts; they use
 * record/wall.h.
 */
#ifndef PJ_USER_RECORD_WALL_INTERNAL_H
#define PJ_USER_RECORD_WALL_INTERNAL_H

#include "jvm/client.h"
#include "lib/u64map.h"
#include "profile/io.h"
#include "record/ring.h"
#include "record/wall.h"

/* Where the Java stack of an interval stands (record/offjava.c). */
enum offjava_ask {
	ASK_NONE = 0, /* not asked (yet) */
	ASK_LIMITED, /* not asked: over the rate or the outstanding limit */
	ASK_SENT, /* asked, no answer yet */
	ASK_ANSWERED,
	ASK_LOST, /* asked, and the answer will not come */
	ASK_NOT_JAVA, /* not asked: not a Java thread a moment ago */
};

struct interval {
	uint32_t tid;
	bool open;
	bool held; /* sample kept, waiting for the end */
	uint8_t kstate; /* enum wall_state from prev_state and kernel frames */
	uint64_t out; /* its switch-out */
	uint64_t in; /* its switch-in, 0 while none */
	uint64_t off_ns; /* time off CPU */
	struct pj_sample s;
	/* a JVM's thread: the parts of its stack, merged with its Java
	 * frames when the interval ends (record/offjava.c) */
	bool java;
	bool first_seen; /* opened by wall_thread_opened: no user stack */
	uint8_t ask; /* enum offjava_ask */
	uint64_t not_java_at; /* when the agent said: not a Java thread */
	int status; /* the answer's enum agent_walk_status */
	uint32_t jstate; /* the answer's JVMTI thread state (PJA_TSTATE_*) */
	uint64_t cookie, asked_at, walk_time;
	uint32_t pre_stack; /* id + 1: merged when the agent went */
	int pre_marker;
	uint32_t *kf;
	uint64_t *up;
	struct java_frame *jf;
	unsigned int nk, nu, nj;
	size_t kcap, ucap, jcap;
};

/* Counts of the Java stacks of off-CPU intervals. */
struct offjava_stats {
	uint64_t intervals; /* intervals of a JVM's threads written */
	uint64_t asked, answered, accepted;
	uint64_t reasked; /* asked again: no answer in time, still waiting */
	uint64_t woke; /* back on a CPU before the walk */
	uint64_t limited; /* not asked: over the rate limit */
	uint64_t no_answer; /* asked, never answered */
	uint64_t not_java; /* the agent knows no Java thread of that tid */
	uint64_t failed; /* the walk failed */
	uint64_t not_merged; /* frames that did not belong with the stack */
	uint64_t walk_ns; /* time spent in GetStackTrace, summed */
};

struct wall {
	bool offcpu[RING_MAX_EVENTS];
	struct u64map index; /* tid -> position + 1 */
	struct interval *v;
	size_t n, cap;
	uint32_t state_frame[WALL_NSTATES]; /* frame id + 1 */
	/* record/offjava.c */
	uint32_t *want; /* tids whose open interval wants its Java stack */
	size_t nwant, wantcap;
	struct interval *late; /* ended, their answer still to come */
	size_t nlate, latecap;
	unsigned int outstanding; /* requests sent, not answered */
	uint32_t seq;
	double tokens; /* the rate limit's bucket */
	uint64_t refill_at;
	bool handler_set;
	struct offjava_stats st;
};

/* record/wall.c */
struct interval *wall_find(struct wall *w, uint32_t tid, bool add);
/* frames (n, room for one more) with the state leaf st: the stack's id. */
uint32_t wall_state_stack(struct recorder *rec, int st, uint32_t *frames,
			  unsigned int n);
/* Writes iv's sample, its stack s.stack, weighted by its time off CPU. */
void wall_write_interval(struct recorder *rec, struct interval *iv);

/* record/offjava.c */
/* Keeps the parts of iv's stack (kernel frame ids, user addresses) and
 * wants its Java stack. 0, or -1 (out of memory: merged at once). */
int offjava_keep(struct recorder *rec, struct interval *iv, const uint32_t *kf,
		 unsigned int nk, const uint64_t *up, unsigned int nu);
/* iv ended before its answer came: moved aside (true) to be written when
 * the answer comes; false when it is to be written now. */
bool offjava_late(struct recorder *rec, struct interval *iv);
/* Merges iv's stack, with its Java frames when they are the wait's, and
 * writes it. */
void offjava_write(struct recorder *rec, struct interval *iv);
/* --loop: a new file; the intervals' parts go. */
void offjava_forget(struct recorder *rec);

#endif

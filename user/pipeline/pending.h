/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one stage where samples wait. A sample waits here, and only here, for
 * its Java frames (a walk at the sample or on request, the stack of an
 * off-CPU wait, ...) and, off CPU, for its weight (the end of its wait),
 * until all it waits for has come or its time is up; it then leaves through
 * its kind's leave(), which merges and writes it (pipeline/emit.h).
 *
 * Each reason to wait is a struct wait_kind, defined where that reason is
 * (pipeline/cpuwalk.c, pipeline/offjava.c, pipeline/wall.c), with its own state
 * (the ctx its callbacks get): this stage knows none by name, and a new
 * reason is a new kind, with no change here or in the others. A kind holds
 * a sample (pending_hold), says when it asked for its
 * frames (pending_asked), and passes on the answer (pending_answer) or the
 * end of its wait (pending_end); the stage keeps the deadlines, makes the
 * oldest of a kind give way when the kind has too many, and calls the kind
 * back with the answer, at a deadline and when the sample leaves.
 */
#ifndef PJ_USER_PIPELINE_PENDING_H
#define PJ_USER_PIPELINE_PENDING_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "jvm/client.h"
#include "pipeline/sample.h"

#define PENDING_JAVA 1u /* its Java frames */
#define PENDING_END 2u /* its weight: the end of its wait (its switch-in) */

/* An answer: the Java frames of a held sample, or why there are none. */
struct java_answer {
	int status; /* enum agent_walk_status */
	const struct java_frame *frames; /* innermost first */
	unsigned int n;
	uint64_t walk_time; /* when the walk was taken (CLOCK_MONOTONIC) */
	uint32_t state; /* the thread's JVMTI state, when the answer says */
	bool exact; /* taken from the sample's own moment (its stack copy),
		       whatever the thread did since */
	bool truncated; /* the outer frames are missing */
};

/* A sample held, with what came for it so far. */
struct held {
	struct sample smp; /* its arrays are the held's own */
	uint64_t id; /* 0: the slot is free */
	const struct wait_kind *kind;
	unsigned int needs; /* PENDING_* still to come */
	uint64_t asked; /* when its frames were asked; 0: not (yet) */
	uint64_t deadline; /* the answer is given up then */
	uint64_t end; /* PENDING_END: when its wait ended; 0: not seen */
	bool answered;
	struct java_answer ans; /* ans.frames: the held's own copy */
	uint32_t premerged; /* stack id + 1: merged before the agent went */
	int premarker;
	/* the kind's own */
	uint8_t mark;
	bool flag, flag2;
	pid_t ttid;
	/* the stage's: the arrays, and the kind's held oldest first */
	uint64_t *kbuf, *ubuf;
	uint32_t *fbuf;
	char *tbuf;
	struct java_frame *jbuf;
	size_t kcap, ucap, fcap, tcap, jcap;
	uint32_t prev, next; /* slot + 1; next also links free slots */
};

struct wait_kind {
	const char *name;
	unsigned int max; /* held at once, at most: the oldest gives way */
	uint64_t deadline_ns; /* from the ask to giving up */
	/* Each gets the ctx its kind's samples were held with. */
	/* An answer came for h; h->ans holds it (kept while h waits on). */
	void (*answered)(void *ctx, struct held *h);
	/* h's answer is late (force: the recording or file ends): true when
	 * it waits again (asked again later), false to give it up. */
	bool (*expired)(void *ctx, struct held *h, bool force);
	/* h has all it waits for, or its time is up: merge and write it. */
	void (*leave)(void *ctx, struct held *h);
	/* The agent is going: the names of h's frames go with it. NULL:
	 * the kind keeps no frames after an answer. */
	void (*agent_gone)(void *ctx, struct held *h);
};

#define PENDING_KINDS 8

/* The stage's state. */
struct pending {
	struct held *v;
	uint32_t n, cap; /* slots used so far, allocated */
	uint32_t free; /* a free slot + 1, linked through next */
	uint64_t seq;
	struct {
		const struct wait_kind *kind;
		void *ctx; /* the kind's state */
		uint32_t first, last; /* slot + 1 */
		unsigned int count;
	} k[PENDING_KINDS];
};

/* The time the held sample h waited (PENDING_END): 0 when its end is not
 * known. */
static inline uint64_t pending_waited(const struct held *h)
{
	return h->end > h->smp.s.time ? h->end - h->smp.s.time : 0;
}

/*
 * Holds a copy of smp until all of needs has come, for kind (whose
 * callbacks get ctx: the same for every sample of the kind); its frames
 * were asked at asked (0: not yet, see pending_asked). The held sample (its
 * id, never 0, is the cookie to ask with), or NULL when it cannot be held
 * (out of memory): the caller writes it at once.
 */
struct held *pending_hold(struct pending *p, const struct wait_kind *kind,
			  void *ctx, const struct sample *smp,
			  unsigned int needs, uint64_t asked);
/* The held sample of id, or NULL when it has left. */
struct held *pending_get(struct pending *p, uint64_t id);
/* h's frames were asked now: its deadline runs from now. */
void pending_asked(struct held *h, uint64_t now);
/* The answer for id (nothing when it has left). */
void pending_answer(struct pending *p, uint64_t id,
		    const struct java_answer *a);
/* The wait of id ended at end (0: not known, its weight is lost). A held
 * sample whose frames were not asked yet leaves without them. */
void pending_end(struct pending *p, uint64_t id, uint64_t end);
/* Gives up the answers whose deadline passed (all of them if force). */
void pending_expire(struct pending *p, uint64_t now, bool force);
/* Whether a held sample waits for an answer asked for. */
bool pending_in_flight(const struct pending *p);
/* The agent of JVM pid is going: its samples' answers still to come are
 * given up, those held are merged while their names live. */
void pending_agent_gone(struct pending *p, pid_t pid);
void pending_free(struct pending *p);

#endif

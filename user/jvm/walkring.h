/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Walks taken at the sample (jvm/walkring.c, perfjava/walk_ring.h): the
 * agent's signal handler walks the thread the kernel signalled for a sample
 * and leaves the walk in memory shared with the reader.
 */
#ifndef PJ_USER_JVM_WALKRING_H
#define PJ_USER_JVM_WALKRING_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "jvm/types.h"
#include "perfjava/walk_ring.h"

struct agent;

/* An event of the JVM's own that came with a ring walk (struct pjw_event,
 * perfjava/walk_ring.h), its class named. */
struct ring_event {
	uint32_t kind; /* enum pjw_event_kind */
	uint32_t flags; /* PJW_EVF_* */
	uint64_t value;
	const char *cls; /* the class's name, or NULL */
	uint64_t vthread; /* the virtual thread's id, 0: none */
	const char *owner; /* the lock owner's thread name, or NULL */
};

struct ring_walk {
	const struct ring_event *ev; /* NULL: a plain walk at a sample */
	pid_t tid; /* the target's namespace */
	int fd; /* the reader's perf event fd that signalled */
	uint64_t time; /* when the handler ran (CLOCK_MONOTONIC) */
	int status; /* enum agent_walk_status */
	const struct java_frame *frames; /* innermost first */
	unsigned int n;
};
typedef void (*agent_ring_cb)(void *ctx, const struct ring_walk *w);
/* Offers the agent a ring of size bytes (a power of two), when it takes
 * one; nothing may be queued (agent_flush first). 0 when offered;
 * agent_ring_signal() then says when it is ready. -2 when the agents'
 * memory budget (jvm/conn_internal.h) has no room for it, -1 otherwise. */
int agent_ring_offer(struct agent *a, uint64_t size);
/* Tells an agent told so at its start that no ring comes (agent_flush
 * first). */
void agent_ring_decline(struct agent *a);
/* The agent's signal for walks at the sample once it confirmed the ring;
 * 0 while waiting, -1 when refused, not offered or gone. */
int agent_ring_signal(const struct agent *a);
/* Whether the agent's SIGTRAP handler is the JVM's (PJA_HELLO_SIGTRAP)
 * and no other agent library is in the JVM: a perf event of a JVM thread
 * may then be opened with attr.sigtrap and sig_data PJA_TRAP_DATA(a key of
 * its own), its walks at the sample in the ring like those of the
 * real-time signal. */
bool agent_ring_traps(const struct agent *a);
/* How many agent libraries the JVM maps, this one's included (0: its maps
 * could not be read). */
int agent_copies(const struct agent *a);
/*
 * Calls cb for each walk in the ring; returns how many. A walk that names a
 * method not read yet from the socket (a loaded agent's session thread sends
 * it late) stops the drain: it and those after it wait for the next calls,
 * for WALK_HOLD_NS at most, then are named as they are; last (the recording
 * stops): named as they are at once.
 */
#define WALK_HOLD_NS 200000000ULL
unsigned int agent_ring_drain(struct agent *a, agent_ring_cb cb, void *ctx,
			      bool last);
struct agent_ring_stats {
	uint64_t walks; /* walks read */
	uint64_t bad; /* records refused (broken or out of bounds) */
	/* drains that stopped at a walk naming a method not read yet */
	uint64_t held;
	uint64_t full; /* walks the agent dropped: a ring was full */
	uint64_t busy; /* signals the agent could not walk */
	/* the agent's own cost, as it says (perfjava/walk_ring.h) */
	uint64_t timed; /* walks its handler timed */
	uint64_t own; /* of them, walked by itself (not AsyncGetCallTrace) */
	uint64_t part_ns[PJW_PARTS]; /* their time by part */
	uint64_t part_med_ns[PJW_PARTS]; /* the median walk's */
	uint64_t pumped, pump_ns; /* walks its session thread moved, time */
	uint64_t checked, check_same; /* tests: its walks against ASGCT's */
	/* what became of the signals at a sample, as it says: taken, come
	 * while its walks were off, passed on to the handler before; whether
	 * the JVM's SIGTRAP handler was its own (1, 0; 2 while unknown) and
	 * whose, terminal-safe; how long ago its thread last moved walks;
	 * how long its oldest record has waited for its handler (ns) */
	uint64_t sig_taken, sig_off, sig_passed;
	int trap_first;
	char trap_owner[64];
	uint64_t idle_ns, stuck_ns;
};
void agent_ring_get_stats(const struct agent *a, struct agent_ring_stats *st);

/* For jvm/messages.c: PJA_RING_READY, and the ring's end with the agent. */
void agent_ring_ready(struct agent *a, const char *p, uint32_t len);
void agent_ring_free(struct agent *a);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The walk ring: Java stacks walked at the instant of a sample, from the
 * agent to the reader through shared memory, so that the reader does not
 * wake, and the agent does not answer a request, per sample.
 *
 * The reader makes the memory (a sealed memfd: it can neither shrink nor
 * grow, so a mapping of it never faults) and passes it to the agent with
 * PJA_RING over the socket (SCM_RIGHTS). The first PJW_HEAD_BYTES hold struct
 * pjw_head, then PJW data bytes (a power of two) of records. Positions are
 * byte counts since the start and only grow; a record starts at pos % size,
 * 8-byte aligned, and may wrap around the end.
 *
 * A record is struct pjw_rec, then (when its flags have PJW_REC_EVENT) one
 * struct pjw_event, then nframes struct pja_frame, innermost first.
 * Its first word is written last (release): len << 32 | pjw_seal(pos). A
 * reader at pos takes the record only when the word carries the seal of that
 * very position, so bytes of an older lap never pass for a new record.
 *
 * The agent writes records and head; the reader writes tail. The reader
 * trusts nothing in this memory: every length, count and index is checked
 * against what it knows itself (its own tail and the size it chose).
 *
 * The agent also uses this record format in a private ring of its own (the
 * signal handlers write it, the agent's session thread reads it), with
 * struct asgct-order frames; see agent/ksig.c.
 */
#ifndef PJ_WALK_RING_H
#define PJ_WALK_RING_H

#include <stdint.h>
#include <string.h>

#include "perfjava/agent_proto.h"

#define PJW_MAGIC 0x574a4650u /* "PFJW" */
#define PJW_VERSION 2
#define PJW_HEAD_BYTES 4096u
#define PJW_MIN_SIZE (64u << 10)
#define PJW_MAX_SIZE (256u << 20)

struct pjw_head {
	uint32_t magic; /* PJW_MAGIC, written by the reader */
	uint32_t version;
	uint64_t size; /* data bytes after the head, a power of two */
	uint64_t pad0[6];
	uint64_t head; /* agent: bytes written (atomic) */
	uint64_t pad1[7];
	uint64_t tail; /* reader: bytes consumed (atomic) */
	uint64_t pad2[7];
	/* agent counters, for the reader's summary (untrusted numbers) */
	uint64_t full; /* walks dropped: a ring was full */
	uint64_t busy; /* signals not walked: no free walk buffer */
	uint64_t walks; /* walks written */
	/* the agent's own cost (untrusted numbers, shown, never used): ns
	 * by part (enum pjw_part) of the walks its handler took, summed and
	 * the median walk's, and its session thread's CPU time moving walks
	 * into this ring */
	uint64_t timed; /* walks timed */
	uint64_t own; /* of them, walked by the agent itself (not ASGCT) */
	uint64_t part_ns[8];
	uint64_t part_med_ns[8];
	uint64_t pumped; /* walks the session thread moved */
	uint64_t pump_ns;
	/* tests (PERFJAVA_AGENT_WALKCHECK in the JVM's environment): the
	 * agent's own walks also walked by AsyncGetCallTrace, and how many of
	 * those named the same frames */
	uint64_t checked, check_same;
	/* what became of the signals at a sample this session (untrusted
	 * numbers, for the reader's diagnosis when walks do not come):
	 * those the handler took with its walks on, those that came while
	 * they were off, tagged SIGTRAPs it passed to the handler before
	 * (another copy of the agent's); whether the JVM's SIGTRAP handler
	 * is the agent's (1) or whose it is (trap_owner, a library's file
	 * name, NUL-terminated or not); when the session thread last moved
	 * walks (CLOCK_MONOTONIC ns); how long the oldest record of its
	 * private ring has waited for its handler to finish it */
	uint64_t sig_taken, sig_off, sig_passed;
	uint64_t trap_first;
	uint64_t pump_at_ns;
	uint64_t stuck_ns;
	char trap_owner[64];
};

_Static_assert(sizeof(struct pjw_head) <= PJW_HEAD_BYTES, "walk ring head");

/* The parts of a walk at the sample, as the handler times them. */
enum pjw_part {
	PJW_PART_ENTRY, /* handler entry to the walk's start */
	PJW_PART_WALK, /* AsyncGetCallTrace */
	PJW_PART_RECOVER, /* walks retried where it refused */
	PJW_PART_TYPE, /* physical frames read to type the walk */
	PJW_PART_RING, /* the record written */
	PJW_PARTS
};

struct pjw_rec {
	uint64_t word; /* len << 32 | pjw_seal(pos), written last */
	uint64_t time; /* CLOCK_MONOTONIC ns when the handler started */
	uint64_t pc; /* the interrupted pc */
	uint32_t tid; /* the walked thread, target namespace */
	int32_t fd; /* the event that signalled as the reader names it:
		       si_fd, or sig_data's key (PJA_TRAP_DATA) */
	int32_t status; /* enum pja_walk_status */
	int32_t asgct; /* AsyncGetCallTrace's num_frames when <= 0 */
	uint32_t nframes;
	uint32_t flags; /* PJA_WALK_TRUNCATED, PJA_WALK_HOW() */
};

/* A record's flags: PJA_WALK_TRUNCATED, PJA_WALK_HOW() and */
#define PJW_REC_EVENT (1u << 16) /* a struct pjw_event follows the rec */

/*
 * What a record is when it is not a plain walk at a sample: an event of the
 * JVM's own (an allocation, a wait for a lock, a virtual thread's park),
 * with the stack where it happened, or a walk at a sample of a carrier
 * thread with the virtual thread mounted on it.
 */
enum pjw_event_kind {
	PJW_EV_CPU = 0, /* a walk at a sample; vthread is the one mounted */
	PJW_EV_ALLOC = 1, /* value: the object's size in bytes */
	PJW_EV_MONITOR = 2, /* value: ns waited to enter a monitor */
	PJW_EV_PARK = 3, /* value: ns parked to acquire a lock or semaphore
			    (LockSupport; not a condition's wait) */
	PJW_EV_VPARK = 4, /* value: ns a virtual thread was unmounted,
			     parked on no lock (sleep, I/O, ...) */
	PJW_EV_MAX
};

struct pjw_event {
	uint32_t kind; /* enum pjw_event_kind */
	uint32_t flags; /* PJW_EVF_* */
	uint64_t value;
	uint64_t cls; /* PJA_CLASS id: the object's or the lock's class, 0 */
	uint64_t vthread; /* the virtual thread's id, 0: a platform thread */
	uint64_t owner; /* PJA_CLASS id: the name of the thread that held the
			   lock when the wait began, 0 when the JVM gives
			   none (PJW_EV_PARK on an owned lock only) */
};
#define PJW_EVF_PINNED 1u /* a virtual thread waited on its carrier */

static inline uint32_t pjw_seal(uint64_t pos)
{
	return (uint32_t)(pos >> 3) | 0x80000000u;
}

static inline uint64_t pjw_rec_len(uint32_t nframes)
{
	return sizeof(struct pjw_rec) + (uint64_t)nframes * 16;
}

/* A record's length with its flags' extension. */
static inline uint64_t pjw_rec_len_ext(uint32_t nframes, uint32_t flags)
{
	return pjw_rec_len(nframes) +
	       (flags & PJW_REC_EVENT ? sizeof(struct pjw_event) : 0);
}

/* Copies between a ring's data (size a power of two) and linear memory. */
static inline void pjw_put(char *data, uint64_t size, uint64_t pos,
			   const void *src, uint64_t len)
{
	uint64_t off = pos & (size - 1), first = size - off;

	if (first > len)
		first = len;
	memcpy(data + off, src, first);
	memcpy(data, (const char *)src + first, len - first);
}

static inline void pjw_get(const char *data, uint64_t size, uint64_t pos,
			   void *dst, uint64_t len)
{
	uint64_t off = pos & (size - 1), first = size - off;

	if (first > len)
		first = len;
	memcpy(dst, data + off, first);
	memcpy((char *)dst + first, data, len - first);
}

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One thread's perf events and their ring buffer, through libperf (as
 * scripts/libperf-6.1.patch makes it): one evlist per thread (an open evlist
 * cannot take more threads), every event of the thread writing into the
 * first event's ring, which is mapped and read here; inherited events, one
 * on each CPU, write into the CPUs' shared rings instead (rings/cpurings.h)
 * (libperf 6.1 copies only the first 4 KiB of a record that wraps around the
 * ring's end: a large stack copy's tail would be another record's bytes).
 */
#ifndef PJ_USER_RING_H
#define PJ_USER_RING_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "events/spec.h"
#include "rings/benchturn.h"

struct perf_evlist;

#define RING_MAX_EVENTS 16
/* An event that SIGTRAPs its thread is named by this in the walks its
 * signal brings: never an fd, nor -1 (none). */
#define RING_TRAP_KEY(i) (-2 - (int)(i))

/*
 * A thread's CPU time two ways: as the scheduler accounts it
 * (/proc/TID/schedstat) and as its clock event counted it, with the context
 * switches counted alongside. The scheduler's exceeds the event's by the
 * part of each switch outside the event's window (about 1 us a switch
 * measured here, over 10 us when a virtual CPU wakes from idle): see
 * pipeline/switchcost.h.
 */
struct ring_clocks {
	uint64_t thread_ns, event_ns, switches;
};

struct ring {
	pid_t pid; /* its process; -1 for a CPU's ring */
	pid_t tid; /* its thread; -1 for a CPU's ring */
	int cpu; /* a CPU's ring (ring_is_cpu): every thread on this CPU */
	/* the fd to poll (POLLHUP: its thread exited): the first event's,
	 * which maps the ring; of an inherited ring, that event's on the
	 * first CPU (POLLIN: its CPU's shared ring has records) */
	int fd;
	/* its events are inherited by the tasks its thread starts: their
	 * samples and records come with its own, from their first
	 * instruction. An inherited ring maps nothing: its events are opened
	 * on every CPU, each writing into its CPU's shared ring (the kernel's
	 * ring takes one writer at a time: see ring.c), whose records come
	 * to the ring of the event that wrote them (xids) */
	bool inherit;
	bool inherit_procs; /* ... processes too, not only threads */
	bool carrier; /* a task it started carried them: its counts hold
		       * that task's too */
	uint64_t opened_ns; /* when it was opened (CLOCK_MONOTONIC) */
	uint32_t serial; /* which ring it is (rings/threads.c), never reused */
	uint64_t peeked; /* the records before it were peeked (ring_peek) */
	/* replaced by a newer ring of its thread (threads_replace): drained,
	 * then closed; no longer found by its tid */
	bool retired;
	unsigned int nevents;
	int fds[RING_MAX_EVENTS]; /* each event's fd */
	/* what a walk at the sample names each event by: its fd (the si_fd
	 * of a routed signal), or RING_TRAP_KEY(i) (sig_data of SIGTRAP) */
	int keys[RING_MAX_EVENTS];
	uint32_t routed; /* events whose samples signal the thread (bit i) */
	uint32_t trapped; /* events opened to SIGTRAP it at each sample */
	uint64_t routed_at; /* since when (CLOCK_MONOTONIC ns) */
	uint64_t ids[RING_MAX_EVENTS]; /* kernel event id of each event */
	/* inherited: the id of event i on CPU k at i * ncpus + k */
	uint64_t *xids;
	unsigned int ncpus;
	uint64_t sample_type, branch_sample_type;
	uint64_t regs_user; /* sample_regs_user (PERF_SAMPLE_REGS_USER) */
	bool exited; /* PERF_RECORD_EXIT seen, or the thread is gone */
	int sw_fd; /* context-switch counter in the clock event's group, or -1 */
	int *sw_fds; /* inherited: one in each CPU's group (sw_fd the first) */
	/* make bench (rings/benchturn.h): the first event's twin without its
	 * signal, writing into this ring; -1: none */
	int twin_fd;
	uint64_t twin_id;
	uint8_t alt; /* enum ring_alt: what this ring's turns leave out */
	struct perf_evlist *evlist;
	void *base; /* the ring's mapping: its control page, then size bytes */
	uint64_t size;
	/* when the last drain that left it empty began (CLOCK_MONOTONIC
	 * ns): every sample written before is read */
	uint64_t drained_ns;
};

struct ring_opts {
	uint64_t sample_type;
	uint64_t branch_sample_type;
	uint64_t regs_user; /* with PERF_SAMPLE_REGS_USER */
	uint32_t stack_user; /* bytes, with PERF_SAMPLE_STACK_USER */
	unsigned int pages; /* data pages, a power of two */
	unsigned int wakeup_events; /* 0: wake at half the ring */
	uint16_t max_stack;
	bool exclude_kernel; /* forced, e.g. by perf_event_paranoid */
	bool no_user_callchain; /* user frames come from elsewhere (LBR) */
	bool track; /* fork/exit/comm records from this event */
	bool mmaps; /* and mmap2 records of executable mappings */
	bool enable_on_exec; /* enabled by the thread's exec (a launch) */
	/* The events are inherited (attr.inherit) by the threads the thread
	 * starts, and by its child processes unless inherit_thread (always
	 * so when an event SIGTRAPs: a child's exec or its cleared handlers
	 * must not meet that signal); see struct ring. */
	bool inherit;
	bool inherit_thread;
	/* With a single clock event: a context-switch counter in its group,
	 * both read into every sample (PERF_SAMPLE_READ, PERF_FORMAT_GROUP). */
	bool count_switches;
	/* Events (bit i) that SIGTRAP the thread at each sample (attr.sigtrap,
	 * sig_data PJA_TRAP_DATA(key)), woken by watermark: where the kernel
	 * refuses, they open without (ring.trapped says which did). */
	uint32_t sigtrap;
	enum ring_alt alt; /* make bench only: rings/benchturn.h */
};

/* Whether r is a CPU's ring (-a, -C), not a thread's. */
static inline bool ring_is_cpu(const struct ring *r)
{
	return r->tid == -1;
}

/* Must run once before any ring is opened. */
void ring_init(void);
/* Closes the CPUs' shared rings (after every ring is closed). */
void ring_fini(void);
/* The data pages of each CPU's shared ring, for rings of pages each. */
unsigned int ring_cpu_pages(unsigned int pages);
/* Records of the shared rings whose ring was closed (dropped). */
uint64_t ring_orphans(void);
/* *bad_event when the events opened but mapping their ring failed */
#define RING_BAD_MMAP (~0u)

/*
 * Opens evs[0..n) on thread tid and maps the ring, disabled. 0 on success;
 * -errno on failure with *bad_event the index of the event that failed to
 * open, or RING_BAD_MMAP.
 */
int ring_open(struct ring *r, pid_t tid, const struct pj_event *evs,
	      unsigned int n, const struct ring_opts *o,
	      unsigned int *bad_event);
/* Opens evs[0..n) on every thread that runs on cpu (-a, -C) and maps the
 * ring, disabled, never signalling a thread; as ring_open. */
int ring_open_cpu(struct ring *r, int cpu, const struct pj_event *evs,
		  unsigned int n, const struct ring_opts *o,
		  unsigned int *bad_event);
/* Enables r's events (of a twin, the one whose turn it is). */
void ring_enable(struct ring *r);
void ring_disable(struct ring *r);
typedef void (*ring_record_cb)(void *ctx, struct ring *r,
			       const struct perf_event_header *hdr);
/* Calls cb for every record in the ring, whole (hdr valid during the call
 * only); returns how many. An inherited ring's drain drains the CPUs'
 * shared rings, each record given with the ring it belongs to (r or
 * another). */
unsigned int ring_drain(struct ring *r, ring_record_cb cb, void *ctx);
/* The same for at most max records: a ring the target fills as fast as it
 * is read cannot hold the caller. The rest stays for the next. */
unsigned int ring_drain_max(struct ring *r, ring_record_cb cb, void *ctx,
			    unsigned int max);
/* Calls cb for the records that say what a task is (FORK, COMM, MMAP2)
 * not peeked yet, leaving them in the ring, whose drain passes over them:
 * at -a, a task's records and its samples are in as many rings as it ran
 * on CPUs, and its exec and maps, peeked in every ring first, come before
 * its samples read next. */
void ring_peek(struct ring *r, ring_record_cb cb, void *ctx);
void ring_close(struct ring *r);
/*
 * Makes every sample of event i signal signo to the ring's thread itself
 * (F_SETSIG, F_SETOWN_EX with F_OWNER_TID, then O_ASYNC), or stops it
 * (signo 0). 0 on success, -errno.
 */
int ring_route(struct ring *r, unsigned int i, int signo);
/* The thread's clocks now: 0, or -1 without a switch counter or when the
 * thread is gone. */
int ring_read_clocks(const struct ring *r, struct ring_clocks *c);
/* Index of the event whose kernel id is id, or 0 when unknown. */
unsigned int ring_event_index(const struct ring *r, uint64_t id);

#endif

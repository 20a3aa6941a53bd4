/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Java walks taken at the instant of the sample: the reader routes the
 * signal of each sample of a per-thread event to the sampled thread itself
 * (rings/ring.c ring_route), whose handler in the agent walks its own stack
 * and leaves the walk in shared memory (jvm/walkring.c). The reader no longer
 * wakes per sample: every drain it reads the walk ring, then the perf rings,
 * and matches each sample to its walk by thread, event fd and time.
 *
 * Where the agent handles SIGTRAP (PJA_HELLO_SIGTRAP), the events of a
 * JVM attached with -p are opened after the agent, with attr.sigtrap: the
 * kernel then signals the thread itself on its return from the sample,
 * with no wake-up per sample (an interrupt the CPU sends itself, which
 * costs the thread more than the walk under a hypervisor). Those events
 * need no routing; the rest (a kernel that refuses sigtrap, threads of a
 * launched JVM) are routed as above.
 *
 * Only for events that sample a running thread: a signal per tracepoint or
 * context switch would reach the thread later (when it runs again) and wake
 * it from its sleep; those keep the request path, and so does everything when
 * the agent has no ring or the kernel may not signal the target for us.
 */
#ifndef PJ_USER_KSIG_H
#define PJ_USER_KSIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jvm/client.h"

struct pending;
struct pj_event;
struct pj_sample;
struct pj_writer;
struct ring;
struct threads;

/* A walk the JVM made for an event of its own (allocation, lock...), not
 * for a sample: of process pid, through agent a. */
typedef void (*ksig_event_cb)(void *ctx, struct agent *a, pid_t pid,
			      const struct ring_walk *w);

struct ksig_walk {
	pid_t tid;
	int fd;
	uint64_t time;
	int status;
	unsigned int n;
	size_t off; /* frames in the pool */
	uint64_t vthread; /* the virtual thread on the carrier, 0 none */
	uint64_t seen; /* when the reader read it (CLOCK_MONOTONIC ns) */
};

struct ksig {
	int signo; /* > 0: walks are taken at the sample */
	uint64_t offered; /* ring offered, no answer yet: until then (ns) */
	const char *why; /* when not (or not for every event): why */
	uint32_t eligible; /* events that sample running threads (bit i) */
	uint32_t ring_bytes; /* the walk ring offered: by their rates */
	uint64_t routed, refused; /* threads whose events signal, or not */
	uint64_t trapped; /* of the routed: by SIGTRAP from the open */
	uint64_t one_trap; /* of those, inherited: other events on request */
	uint64_t *wait; /* cookies of samples waiting for their walk */
	size_t nwait, capwait;
	struct ksig_walk *walks; /* walks read in this drain */
	size_t nwalks, capwalks;
	struct java_frame *pool;
	size_t npool, cappool;
	int ran; /* the signal walks at the sample ran with, for the summary */
	/* what it works with (ksig_prepare) */
	pid_t pid; /* the target */
	unsigned int nevents;
	struct threads *th; /* whose rings it routes */
	struct pending *pend; /* where the samples wait */
	/* the JVM's own events, in the same ring: handed to event(event_ctx) */
	ksig_event_cb event;
	void *event_ctx;
	agent_walk_cb done; /* where a sample's walk goes (pipeline/cpuwalk.c) */
	void *done_ctx;
	bool flush; /* the rings are drained for good: match every walk */
	bool last; /* the recording stops: no walk held for its names */
	/* counts */
	uint64_t matched, missed, orphans;
	struct agent_ring_stats rs; /* the agent's, as of the last drain */
	/* the JVM as the reader sees it: agent libraries it maps, threads
	 * whose signal from their events is blocked and pending (at the
	 * end) */
	uint64_t copies, blocking;
};

/* Whether samples of ev may signal the sampled thread (see above). */
bool ksig_event_ok(const struct pj_event *ev);
/* Before the agent starts: which events of evs[0..n) may walk at the
 * sample, and whether a ring will be offered (the agent then waits for
 * it). Each walk, or its failure, is handed to done(ctx) with the sample's
 * cookie. k's th, pend and event are set by then. */
void ksig_prepare(struct ksig *k, const struct pj_event *evs, unsigned int n,
		  pid_t pid, agent_walk_cb done, void *ctx);
/* After the agent a started: offers the ring (or declines). Once the agent
 * confirms it (seen by ksig_collect, bounded), the events of every open
 * thread are routed; until then walks are on request, but for the samples
 * of SIGTRAP events, whose walks the agent takes from the offer on: they
 * wait, and are asked for if the agent refuses the ring. */
void ksig_setup(struct ksig *k, struct agent *a);
/* The events (bit i) to open with SIGTRAP at the sample: none unless the
 * agent a is in and handles it. */
uint32_t ksig_traps(const struct ksig *k, const struct agent *a);
/* Routes a thread opened later. */
void ksig_thread_opened(struct ksig *k, struct ring *r);
/* Whether the reader need not poll r: all its samples signal the thread. */
bool ksig_quiet(const struct ksig *k, const struct ring *r);
/* Whether s (of ring r) waits for a walk at the sample. */
bool ksig_sample_routed(const struct ksig *k, const struct ring *r,
			const struct pj_sample *s);
/* A deferred sample now waits for its walk. */
void ksig_wait(struct ksig *k, uint64_t cookie);
/* One drain: ksig_collect before the perf rings are drained, ksig_match
 * after. A walk whose thread's ring was not emptied since the walk was
 * read (a pass out of time, a loaded reader) waits for the next match,
 * for a second at most: its sample may not be read yet. */
void ksig_collect(struct ksig *k, struct agent *a);
/* Waits up to ms for the agent a's answer to the ring's offer (it comes
 * before the agent's replay of code and threads): a target's events opened
 * after it are routed at their open, their first samples signalled (-p;
 * before it, only SIGTRAP's were, and the real-time signal's asked for,
 * unanswered during that replay). */
void ksig_await(struct ksig *k, struct agent *a, int ms);
void ksig_match(struct ksig *k);
/* The recording stops: the walks collected from now on are named as they
 * are, none held for a method's name (jvm/walkring.h). */
void ksig_last(struct ksig *k);
/* The rings are drained for good (the recording's end): every walk read
 * from now on is matched at once. */
void ksig_flush(struct ksig *k);
/* Stops the signals (agent gone, or the end): samples wait no more. */
void ksig_off(struct ksig *k, const char *why);
void ksig_free(struct ksig *k);
/* Every rescan: threads whose signals pile up go back to requests. */
void ksig_check_queue(struct ksig *k);
/* The walk path's lines of the summary (agent: one was there; pid: the
 * JVM's, said when there are several, else 0), and its statistics in the
 * file. */
void ksig_summary(const struct ksig *k, bool agent, pid_t pid);
/* Adds k's counts to sum (several JVMs' into the file's statistics). */
void ksig_add(struct ksig *sum, const struct ksig *k);
void ksig_write_stats(const struct ksig *k, struct pj_writer *w);

/* k's part of the account of lost walks (profile/javaloss.h). */
struct pj_java_loss;
void ksig_loss(const struct ksig *k, struct pj_java_loss *l);

#endif

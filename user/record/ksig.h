/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Java walks taken at the instant of the sample: the reader routes the
 * signal of each sample of a per-thread event to the sampled thread itself
 * (record/ring.c ring_route), whose handler in the agent walks its own stack
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

struct recorder;
struct ring;
struct pj_event;

struct ksig_walk {
	pid_t tid;
	int fd;
	uint64_t time;
	int status;
	unsigned int n;
	size_t off; /* frames in the pool */
	uint64_t vthread; /* the virtual thread on the carrier, 0 none */
};

struct ksig {
	int signo; /* > 0: walks are taken at the sample */
	uint64_t offered; /* ring offered, no answer yet: until then (ns) */
	const char *why; /* when not (or not for every event): why */
	uint32_t eligible; /* events that sample running threads (bit i) */
	uint64_t routed, refused; /* threads whose events signal, or not */
	uint64_t trapped; /* of the routed: by SIGTRAP from the open */
	uint64_t *wait; /* cookies of samples waiting for their walk */
	size_t nwait, capwait;
	struct ksig_walk *walks; /* walks read in this drain */
	size_t nwalks, capwalks;
	struct java_frame *pool;
	size_t npool, cappool;
	int ran; /* the signal walks at the sample ran with, for the summary */
	agent_walk_cb done; /* where a sample's walk goes (record/cpuwalk.c) */
	/* counts */
	uint64_t matched, missed, orphans;
	struct agent_ring_stats rs; /* the agent's, as of the last drain */
};

/* Whether samples of ev may signal the sampled thread (see above). */
bool ksig_event_ok(const struct pj_event *ev);
/* Before the agent starts: which events may walk at the sample, and
 * whether a ring will be offered (the agent then waits for it). Each walk,
 * or its failure, is handed to done with the sample's cookie. */
void ksig_prepare(struct recorder *rec, agent_walk_cb done);
/* After the agent started: offers the ring (or declines). Once the agent confirms it
 * (seen by ksig_collect, bounded), the events of every open thread are
 * routed; until then walks are on request. */
void ksig_setup(struct recorder *rec);
/* The events (bit i) to open with SIGTRAP at the sample: none unless the
 * agent is in and handles it. */
uint32_t ksig_traps(const struct recorder *rec);
/* Routes a thread opened later. */
void ksig_thread_opened(struct recorder *rec, struct ring *r);
/* Whether the reader need not poll r: all its samples signal the thread. */
bool ksig_quiet(const struct recorder *rec, const struct ring *r);
/* Whether s (of ring r) waits for a walk at the sample. */
struct pj_sample;
bool ksig_sample_routed(const struct recorder *rec, const struct ring *r,
			const struct pj_sample *s);
/* A deferred sample now waits for its walk. */
void ksig_wait(struct recorder *rec, uint64_t cookie);
/* One drain: ksig_collect before the perf rings are drained, ksig_match
 * after (every walk read has its sample drained by then). */
void ksig_collect(struct recorder *rec);
void ksig_match(struct recorder *rec);
/* Stops the signals (agent gone, or the end): samples wait no more. */
void ksig_off(struct recorder *rec, const char *why);
void ksig_free(struct ksig *k);
/* Every rescan: threads whose signals pile up go back to requests. */
void ksig_check_queue(struct recorder *rec);
/* The walk path's lines of the summary, and its statistics in the file. */
void ksig_summary(const struct recorder *rec);
void ksig_write_stats(struct recorder *rec);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PJ_AGENT_KSIG_H
#define PJ_AGENT_KSIG_H

#include "pja.h"

/* ksig.c: our real-time signal (ksig_signo, chosen by ksig_init) and the
 * walk at the sample, into a private ring. */
struct pjw_rec;
int ksig_init(void);
int ksig_signo(void);
/* The handler's work for a kernel signal at a sample of the reader's
 * event fd (si_code POLL_IN: si_fd; TRAP_PERF: from sig_data). */
int ksig_on_sample(int fd, void *uc); /* -1: walks are off here */
/* Installs the SIGTRAP handler for perf events' TRAP_PERF (for good). */
int ksig_trap_init(void);
/* Whether the JVM's SIGTRAP handler is ours, so that a perf event's
 * SIGTRAP comes to us first; when not, the library whose handler it is
 * ("default", "ignored") in owner. */
int ksig_trap_first(char *owner, size_t len);
/* Walks at the sample are taken from ksig_start until ksig_stop (which
 * waits, bounded, for handlers in flight and drops what is left). */
void ksig_start(void);
/* Tests and benchmarks (testhooks.c): fn takes the walk at each sample in
 * the handler's place (NULL: the handler's own, in a user's JVM). */
void ksig_hook(void (*fn)(int fd, void *uc, uint64_t start));
/* The handler's walk at a sample into the private ring; twin: when it was
 * the agent's own walk, AsyncGetCallTrace's of the same moment follows it,
 * flagged PJA_WALK_CHECK (walkcheck.c). */
void ksig_walk(int fd, void *uc, uint64_t start, int twin);
void ksig_stop(void);
/* The next record of the private ring: 1 and *r, the handler's time by
 * part (ticks[PJW_PARTS]), its extension (*extlen bytes, at most
 * KSIG_EXT_MAX, into ext) and frames; 0 when none. */
#define KSIG_EXT_MAX 1024u
int ksig_take(struct pjw_rec *r, uint32_t *ticks, void *ext, uint32_t *extlen,
	      struct asgct_frame *frames, unsigned int max);
/* An event's record (jrec.c) into the private ring, while walks are
 * taken: r, then ext (extlen bytes, a multiple of 8, at most
 * KSIG_EXT_MAX), then r->nframes frames. -1 when it is not kept. */
int ksig_put_event(const struct pjw_rec *r, const void *ext, uint32_t extlen,
		   const struct asgct_frame *frames);
/* The bytes taken from the private ring so far (a position that only
 * grows), and the ring's size. */
uint64_t ksig_taken(void);
uint64_t ksig_ring_bytes(void);
/* After a pump: the next handler to find the ring a quarter full wakes the
 * session thread again. */
void ksig_rearm(void);
/* Walks dropped (private ring full) and signals not walked (no buffer). */
void ksig_counts(uint64_t *full, uint64_t *busy);
void ksig_clear_full(uint64_t counted);
/* Signals at a sample this session: taken, come while walks were off,
 * tagged SIGTRAPs passed on to the handler before ours. */
void ksig_signals(uint64_t *taken, uint64_t *off, uint64_t *passed);
/* How long the private ring's oldest record has waited unpublished (a
 * handler stopped between its reservation and its record): 0 normally. */
uint64_t ksig_stuck_ns(void);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PJ_AGENT_STACKWALK_H
#define PJ_AGENT_STACKWALK_H

#include <signal.h>

#include "pja.h"

/* stackwalk.c: fn(arg) under the walk's fault protection on the calling
 * thread (for reads of the JVM's structures outside a walk): a SIGSEGV or
 * SIGBUS inside gives -1 instead of ending the JVM; -1 too when every
 * protection entry is taken. */
int pja_protected(int (*fn)(const void *), const void *arg);

/* stackwalk.c: the walk of the calling thread from its signal context. */
struct pja_walk {
	/* in */
	struct asgct_frame *frames; /* slots entries, owned by the caller */
	unsigned int slots; /* at least depth; vmwalk's raw walk may take up
			       to twice depth */
	unsigned int depth;
	/* out */
	int num; /* frames filled (0 unless status is PJA_WALK_OK) */
	int status; /* enum pja_walk_status */
	int asgct; /* AsyncGetCallTrace's num_frames when <= 0, else 0 */
	uint32_t how; /* enum pja_walk_how: how the walk was recovered */
	int raw; /* vmwalk's slots, not AsyncGetCallTrace's frames */
	int asgct_only; /* in: no vmwalk (the check's twin) */
	int truncated; /* vmwalk stopped at the depth */
	uint64_t pc; /* the interrupted pc */
	uint64_t time; /* pja_now() when the walk started */
	pid_t tid; /* the walked (calling) thread */
	/* pja_ticks() at the end of each part (enum pjw_part), 0 for a
	 * part not run */
	uint64_t mark[PJW_PARTS];
};
/* Installs the SIGSEGV/SIGBUS fault protection (once). */
int stackwalk_init(void);
/* Tests (testhooks.c): fn called inside each walk's fault protection, 1
 * when the walk is left to AsyncGetCallTrace (NULL in a user's JVM). */
void stackwalk_hook(int (*fn)(void));
/* Walks the calling thread's Java stack from uc, the ucontext of a signal
 * handler running on that thread. Async-signal-safe; faults are survived. */
void stackwalk_here(void *uc, struct pja_walk *w);
/* Signal plumbing shared by the handlers. */
int pja_install(int sig, void (*fn)(int, siginfo_t *, void *),
		struct sigaction *prev);
/* Passes a signal to the handler installed before ours (SIG_DFL of a
 * profiling signal is not applied). */
void pja_chain(const struct sigaction *prev, int sig, siginfo_t *si, void *uc);
uint64_t pja_context_pc(const void *ucontext);

#endif

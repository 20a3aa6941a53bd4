/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PJ_AGENT_WALK_H
#define PJ_AGENT_WALK_H

#include "pja.h"
#include "stackwalk.h"

/* walk.c: walks requested by the session thread through directed signals. */
int walk_init(void);
/* Walks in flight at once, at most (one per thread). */
#define PJA_WALK_SLOTS 16
/*
 * Signals thread tid for a walk and returns at once: a handle for walk_end,
 * or NULL with an enum pja_walk_status in *status. A batch is several
 * walk_begin calls, for distinct threads, then their walk_end calls.
 */
void *walk_begin(pid_t tid, unsigned int depth, int *status);
/* Waits (bounded) for the walk; fills *out (its frames into out->frames,
 * PJA_MAX_DEPTH entries) and returns its status. */
int walk_end(void *walk, struct pja_walk *out);
/* JNIEnv of thread tid (a probe through the same signal); NULL if none. */
JNIEnv *walk_probe_env(pid_t tid);
/* Waits (bounded) until no handler is running in our slots. */
void walk_quiesce(void);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Each JVM's agent (record/agents.c): attached to a JVM recorded, before its
 * events open (-p) or when it is found (-a), and stopped when it disconnects
 * or the recording ends. One that fails is said in one line; the JVM is
 * recorded with native frames and the others keep theirs.
 */
#ifndef PJ_USER_RECORD_AGENTS_H
#define PJ_USER_RECORD_AGENTS_H

#include <stddef.h>

struct proc;
struct recorder;

/* Attaches the agent to JVM p (its walks at the sample prepared first).
 * 0, or -1 with a one-line reason in err. */
int agents_attach(struct recorder *rec, struct proc *p, char *err, size_t len);
/* p's agent, if p is a JVM and Java frames are wanted; a failure said. */
void agents_start(struct recorder *rec, struct proc *p);
/* p's agent is no more (disconnected, or the end): walks no longer come,
 * the answers held keep their frames' names by being merged now, and its
 * counts are kept. */
void agents_stopped(struct recorder *rec, struct proc *p, const char *why);

#endif

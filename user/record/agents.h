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
#include <stdint.h>

struct proc;
struct recorder;

/* A JVM found starting is tried this often, this many times, while it
 * cannot be attached yet (no SIGQUIT handler, no attach listener). */
#define ATTACH_RETRY_NS 1000000000ULL
#define ATTACH_TRIES 8

/* Attaches the agent to JVM p (its walks at the sample prepared first).
 * 0, or -1 with a one-line reason in err. */
int agents_attach(struct recorder *rec, struct proc *p, char *err, size_t len);
/* p's agent, if p is a JVM and Java frames are wanted; a failure said. */
void agents_start(struct recorder *rec, struct proc *p);
/* p's agent is no more (disconnected, or the end): walks no longer come,
 * the answers held keep their frames' names by being merged now, and its
 * counts are kept. */
void agents_stopped(struct recorder *rec, struct proc *p, const char *why);
/*
 * p's JVM, found during the recording (it mapped libjvm.so), should get its
 * agent: attached on a tick (agents_tick) once ATTACH_RETRY_NS have passed,
 * again while it cannot be yet, at most ATTACH_TRIES times; a failure said
 * once. Its threads then get rings of their own (record/family.h).
 */
void agents_want(struct recorder *rec, struct proc *p);
/* The JVMs wanted get their agent when due. */
void agents_tick(struct recorder *rec, uint64_t now);
/* One try at p's due attach (p->java, no agent yet): 1 when attached, 0
 * when to try again (or p is gone), -1 when it failed for good (err
 * says why). */
int agents_try(struct recorder *rec, struct proc *p, uint64_t now, char *err,
	       size_t len);

#endif

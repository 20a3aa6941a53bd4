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

/* A JVM found starting at -a is tried this often, this many times, while
 * it cannot be attached yet (no SIGQUIT handler, no attach listener). */
#define ATTACH_RETRY_NS 1000000000ULL
#define ATTACH_TRIES 8
/* ... one the targets started, at once and then this often (its samples
 * have native frames alone until it is attached): 8 s in all */
#define WANT_RETRY_NS 200000000ULL
#define WANT_TRIES 40

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
 * agent: attached on the next tick (agents_tick), again every WANT_RETRY_NS
 * while it cannot be yet, at most WANT_TRIES times; a failure said once.
 * Its threads then get rings of their own (record/family.h).
 */
void agents_want(struct recorder *rec, struct proc *p);
/* The JVMs wanted get their agent when due. */
void agents_tick(struct recorder *rec, uint64_t now);
/* One try at p's due attach (p->java, no agent yet; the first every ns
 * after it was found, the next every ns after a failure): 1 when attached,
 * 0 when to try again (or p is gone), -1 when it failed tries times (err
 * says why). */
int agents_try(struct recorder *rec, struct proc *p, uint64_t now,
	       uint64_t every, unsigned int tries, char *err, size_t len);

#endif

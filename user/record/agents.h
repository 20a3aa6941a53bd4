/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Each JVM's agent (record/agents.c): attached to a JVM recorded, before its
 * events open (-p) or beside the poll loop (agents_want: a JVM at -a, one
 * that starts during any recording), and stopped when it disconnects or the
 * recording ends. One that fails is said in one line; the JVM is recorded
 * with native frames and the others keep theirs.
 *
 * An attach beside the poll loop runs in a child process of its own
 * (jvm/attacher.h) with a deadline: the reader drains its rings and sees
 * -d and the signals whatever the JVM, or a process that claims to be one,
 * does. At most AGENTS_ATTACHING attaches are in flight at once, at most
 * AGENTS_ATTACHING_UID of one uid (a user's processes wait for their own
 * turns, not the others'); a JVM that cannot be attached yet (starting:
 * ATTACH_NOT_YET, jvm/attach.h) is tried again every second for 10 s.
 */
#ifndef PJ_USER_RECORD_AGENTS_H
#define PJ_USER_RECORD_AGENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "jvm/attacher.h"

struct proc;
struct recorder;

#define AGENTS_ATTACHING 4
#define AGENTS_ATTACHING_UID 2

/* The attaches in flight (struct recorder's ag). */
struct agents {
	struct attacher v[AGENTS_ATTACHING]; /* v[i].child 0: a free place */
	uid_t uid[AGENTS_ATTACHING]; /* whose JVM each is */
	unsigned int failed; /* JVMs given up on */
	unsigned int said; /* of them, said in a line each (bounded) */
};

/* Attaches the agent to JVM p now, waiting for it (-p: its walks at the
 * sample prepared first). 0, or -1 with a one-line reason in err. */
int agents_attach(struct recorder *rec, struct proc *p, char *err, size_t len);
/* p's agent, if p is a JVM and Java frames are wanted; a failure said
 * (-p: now; -a: agents_want). */
void agents_start(struct recorder *rec, struct proc *p);
/*
 * p's JVM is to get its agent: attached beside the poll loop as soon as a
 * place is free (agents_tick) from rproc(p)->attach_at on (0: now; a JVM
 * found as it starts may be given a second), tried again every second for
 * ten while it is starting, its failure said once. Once the agent is in,
 * its walks at the sample are set up, and at -a its threads get rings of
 * their own (agents_follow); elsewhere that is the caller's (rproc
 * follow). Nothing happens when p is not a JVM (p->java), has its agent or
 * an attach under way, was given up on, has ended, or --no-java: it may be
 * called any number of times, from any recording (not for the launched
 * command itself, whose agent connects by itself).
 */
void agents_want(struct recorder *rec, struct proc *p);
/* -a: a JVM with its agent: its threads get rings of their own, as a -p
 * target's (walks at the sample: the kernel's SIGTRAP), whose samples
 * its CPU's ring leaves to them. */
void agents_follow(struct recorder *rec, struct proc *p);
/* The attaches due are started, those past their deadline given up. */
void agents_tick(struct recorder *rec, uint64_t now);
/* The fd of attach i (< AGENTS_ATTACHING) to poll for POLLIN, or -1. */
int agents_attach_fd(const struct recorder *rec, unsigned int i);
/* Attach i polled readable: its agent in (its JVM returned), or its
 * failure said (NULL). */
struct proc *agents_attach_done(struct recorder *rec, unsigned int i);
/*
 * Before the events open (-a): lets the attaches started finish, for 3 s
 * at most, so that the JVMs running have their Java frames from the
 * start; returns early when a signal waits on sigfd (left there for the
 * poll loop) or none is in flight.
 */
void agents_settle(struct recorder *rec, int sigfd);
/* The recording ended: the attaches in flight are given up, and each JVM
 * still without its agent said (bounded). */
void agents_abandon(struct recorder *rec);
/* p's agent is no more (disconnected, or the end): walks no longer come,
 * the answers held keep their frames' names by being merged now, and its
 * counts are kept. */
void agents_stopped(struct recorder *rec, struct proc *p, const char *why);

#endif

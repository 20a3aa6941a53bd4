/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An attach made beside the reader (jvm/attacher.c): agent_connect (the
 * HotSpot attach, the agent's connection and HELLO) runs in a child
 * process, which hands back the connection's socket (SCM_RIGHTS) and the
 * HELLO, or its one-line reason, over a socketpair; the reader polls that
 * and goes on meanwhile. Whatever the JVM (or a process that claims to be
 * one) does, the reader waits for nothing: the child is killed when its
 * deadline passes, or when the reader stops (and with the reader, by
 * PR_SET_PDEATHSIG).
 */
#ifndef PJ_USER_JVM_ATTACHER_H
#define PJ_USER_JVM_ATTACHER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct agent;

struct attacher {
	pid_t pid; /* the JVM */
	pid_t child; /* the process attaching (0: none) */
	int fd; /* its end of the socketpair: POLLIN when done (-1) */
	uint64_t deadline; /* CLOCK_MONOTONIC ns: killed then */
};

/* Starts the attach of the agent at agent_path to JVM pid, to be over by
 * deadline_ns. 0, or -1 with a reason in err (no fork). */
int attacher_start(struct attacher *at, pid_t pid, const char *agent_path,
		   uint64_t deadline_ns, char *err, size_t errlen);
/* Its result, once at->fd polls readable: 0 with the agent (*out), -1 or
 * ATTACH_NOT_YET (jvm/attach.h) with a reason in err. The child is reaped
 * (attacher_reaped says whether it is gone yet). */
int attacher_take(struct attacher *at, struct agent **out, char *err,
		  size_t errlen);
/* Gives it up (its deadline passed, or the recording ended): the child
 * killed; attacher_reaped says when it is gone. */
void attacher_cancel(struct attacher *at);
/* Whether the child is gone (reaped now if it has exited); true for none. */
int attacher_reaped(struct attacher *at);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The user stack of a thread blocked in a system call since before its
 * events opened (pipeline/wall.c): no switch-out sample carries it, so it is
 * read from outside, without stopping the thread. The kernel tells a
 * blocked thread's stack pointer and pc (/proc/PID/task/TID/syscall); the
 * top of its stack is read with process_vm_readv (bounded, as hostile bytes)
 * and unwound with the call frame information, as -g dwarf's copies are
 * (pipeline/ustack.h), its frame pointer (which the kernel does not tell)
 * guessed from the copy where a frame needs it. The thread must not have
 * run while it was read: its
 * syscall line and its scheduler counters (schedstat) are read again after,
 * and must not have moved.
 */
#ifndef PJ_USER_PIPELINE_BLOCKSTACK_H
#define PJ_USER_PIPELINE_BLOCKSTACK_H

#include <stdint.h>
#include <sys/types.h>

#include "jvm/stacks.h"

struct codemap;
struct unwinder;

#define BLOCKSTACK_COPY 65528 /* bytes of stack read, at most */
#define BLOCKSTACK_MAX_FRAMES 256
#define BLOCKSTACK_GUESSES 32 /* frame pointers tried, at most */

struct blockstack {
	uint64_t ips[BLOCKSTACK_MAX_FRAMES]; /* leaf first */
	unsigned int n;
	/* a JVM's thread: the copy from its first frame in the JVM's code
	 * (rec's agent code map), valid until the next read */
	struct stack_copy jcopy;
	uint8_t stack[BLOCKSTACK_COPY];
};

/* Thread tid of process pid, blocked in a system call: its user frames
 * into out, unwound with u (the JVM's code cm, NULL if none, tells where
 * its Java frames start). 0, or -1 when it is not blocked in one, could not
 * be read, or ran while it was read. */
int blockstack_read(struct unwinder *u, const struct codemap *cm, pid_t pid,
		    pid_t tid, struct blockstack *out);

#endif

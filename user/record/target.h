/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The process recorded, the same one for the whole recording: held by a
 * pidfd (readable once it has exited, whoever gets its pid next) and known
 * by its start time and its program. Threads are opened by pid from /proc
 * only while it is still the one; the recording ends, said in one line,
 * when it is gone or has exec'd another program (a set-user-ID exec makes
 * the kernel close its events: that is not an exit).
 */
#ifndef PJ_USER_RECORD_TARGET_H
#define PJ_USER_RECORD_TARGET_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct target {
	pid_t pid;
	int pidfd; /* -1 where the kernel has none (before 5.3) */
	uint64_t start; /* start time, clock ticks since boot */
	uint64_t exe_dev, exe_ino; /* the program it runs */
	bool exe_known;
};

/* Holds pid now (and what it runs). 0, or -1 with errno (ESRCH). */
int target_open(struct target *t, pid_t pid);
/* Takes what it runs again (a launched command after its exec). */
void target_rebase(struct target *t);
void target_close(struct target *t);
/* The fd to poll (POLLIN: it exited), or -1. */
int target_fd(const struct target *t);
/* Whether it has exited or its pid now names another process. */
bool target_gone(const struct target *t);
/*
 * Why its events ended while nothing said it exited: the reason for the
 * summary ("target exited", "target executed another program"), with a
 * line that says so in msg when it is not a plain exit ("" otherwise).
 */
const char *target_end(const struct target *t, char *msg, size_t len);

#endif

// SPDX-License-Identifier: GPL-2.0
/* The process recorded, held for the whole recording; see record/target.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/procfs.h"
#include "lib/text.h"
#include "record/target.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

/* The program pid runs: its /proc/PID/exe, not followed by name. */
static int exe_of(pid_t pid, struct stat *st)
{
	char path[96];

	return stat(proc_path(path, sizeof(path), pid, 0, "exe"), st);
}

int target_open(struct target *t, pid_t pid)
{
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (t->pidfd < 0 && errno == ESRCH)
		return -1;
	/* the start time after the pidfd: the same process, or ESRCH */
	if (proc_start_time(pid, &t->start) || target_gone(t)) {
		target_close(t);
		errno = ESRCH;
		return -1;
	}
	target_rebase(t);
	return 0;
}

void target_rebase(struct target *t)
{
	struct stat st;

	t->exe_known = !exe_of(t->pid, &st);
	t->exe_dev = t->exe_known ? (uint64_t)st.st_dev : 0;
	t->exe_ino = t->exe_known ? (uint64_t)st.st_ino : 0;
}

void target_close(struct target *t)
{
	if (t->pidfd >= 0)
		close(t->pidfd);
	t->pidfd = -1;
}

int target_fd(const struct target *t)
{
	return t->pidfd;
}

bool target_gone(const struct target *t)
{
	struct pollfd p = { t->pidfd, POLLIN, 0 };
	uint64_t start;

	if (t->pidfd >= 0 && poll(&p, 1, 0) != 0)
		return true;
	return proc_start_time(t->pid, &start) || start != t->start ||
	       proc_gone(t->pid);
}

const char *target_end(const struct target *t, char *msg, size_t len)
{
	char path[96], exe[PATH_MAX];
	struct stat st;
	ssize_t n;

	msg[0] = 0;
	if (target_gone(t))
		return "target exited";
	/* alive, and its program hidden from us: no longer dumpable, or on
	 * its way out (its memory gone, and a slow machine may show that
	 * before the exit): an exit has half a second to show */
	if (exe_of(t->pid, &st)) {
		struct pollfd p = { t->pidfd, POLLIN, 0 };

		if ((t->pidfd >= 0 && poll(&p, 1, 500) > 0) || target_gone(t))
			return "target exited";
		exe[0] = 0;
		st.st_mode = S_ISUID;
	} else {
		n = readlink(proc_path(path, sizeof(path), t->pid, 0, "exe"),
			     exe, sizeof(exe) - 1);
		exe[n > 0 ? n : 0] = 0;
		text_clean(exe, strlen(exe)); /* the target's to name */
	}
	if (st.st_mode & (S_ISUID | S_ISGID)) {
		snprintf(msg, len,
			 "process %d executed %s%sa set-user-ID program: the "
			 "kernel ended its events there; recording stopped "
			 "(as root, record it with -p %d)",
			 (int)t->pid, exe, exe[0] ? ", " : "", (int)t->pid);
		return "target executed a set-user-ID program";
	}
	snprintf(msg, len,
		 "process %d executed %s, another program; recording stopped",
		 (int)t->pid, exe);
	return "target executed another program";
}

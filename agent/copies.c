// SPDX-License-Identifier: GPL-2.0
/*
 * The agent among other copies of itself. A JVM keeps every agent library
 * it loads for its life, and may load more than one copy of this one: two
 * builds of perfjava, or the copy a reader puts in the JVM's /tmp (named by
 * its size and time). Each copy has its own handlers, in front of the ones
 * installed before (ksig.c passes on what its walks do not take); this file
 * keeps the library loaded and lets one copy at a time have a session.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "copies.h"

/*
 * The library stays loaded for the JVM's life: its handlers, JVMTI
 * callbacks and hook outlive a session. JDK 17 unloads an agent whose
 * Agent_OnAttach fails, the first one included (a reader gone before the
 * agent connected): its handlers would then point into unmapped memory,
 * and the JVM's next fault or SIGTRAP would end it. (The library's own
 * ELF flag is not used: glibc does not undo a failed dlopen of it.)
 */
int copies_pin(void)
{
	Dl_info dl;

	return dladdr((void *)copies_pin, &dl) && dl.dli_fname &&
		       dlopen(dl.dli_fname,
			      RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE)
		   ? 0
		   : -1;
}

/*
 * One session per JVM, whichever copy of the agent has it: a JVM may hold
 * two (two builds of perfjava, or a copy in its /tmp), whose handlers of
 * perf's SIGTRAP would otherwise both take each other's signals. The
 * session holds an abstract socket named for the process (its pid and
 * start time: one name per JVM in its network namespace); another copy
 * finds it taken. 1 when another copy has a session.
 */
static int copy_lock = -1;

int copies_lock(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	unsigned long long start = 0;
	char stat[1024], *p;
	ssize_t n;
	socklen_t len;
	int fd;

	fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
	n = fd >= 0 ? read(fd, stat, sizeof(stat) - 1) : -1;
	if (fd >= 0)
		close(fd);
	stat[n > 0 ? n : 0] = 0;
	/* after the command's ")": state is field 3, starttime field 22 */
	p = strrchr(stat, ')');
	if (!p || sscanf(p + 1,
			 " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u "
			 "%*d %*d %*d %*d %*d %*d %llu",
			 &start) != 1)
		start = 0;
	len = offsetof(struct sockaddr_un, sun_path) + 1 +
	      snprintf(sa.sun_path + 1, sizeof(sa.sun_path) - 1,
		       "perfjava-agent.%d.%llu", (int)getpid(), start);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0; /* cannot tell: go on */
	if (bind(fd, (struct sockaddr *)&sa, len)) {
		close(fd);
		return errno == EADDRINUSE;
	}
	copy_lock = fd;
	return 0;
}

void copies_unlock(void)
{
	if (copy_lock >= 0)
		close(copy_lock);
	copy_lock = -1;
}

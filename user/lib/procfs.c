// SPDX-License-Identifier: GPL-2.0
/* Fields of /proc status files, and target memory; see lib/procfs.h. */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/file.h"
#include "lib/procfs.h"

int proc_status_field(pid_t pid, pid_t tid, const char *key, char *buf,
		      size_t len)
{
	char path[64], line[512];
	size_t klen = strlen(key);
	FILE *f;
	int ret = -1;

	if (tid)
		snprintf(path, sizeof(path), "/proc/%d/task/%d/status", pid,
			 tid);
	else
		snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, klen))
			continue;
		snprintf(buf, len, "%s", line + klen);
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

#define PF_EXITING 0x4 /* the kernel's task flag (include/linux/sched.h) */

/* Whether pid is in exit(): flags, field 9 of /proc/PID/stat, after the
 * comm in parentheses (which may hold any byte but NUL). */
static bool exiting(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long flags;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_small_file(path, buf, sizeof(buf)))
		return false;
	p = strrchr(buf, ')');
	return p &&
	       sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %lu", &flags) == 1 &&
	       (flags & PF_EXITING);
}

int proc_gone(pid_t pid)
{
	char state[64];

	if (proc_status_field(pid, 0, "State:", state, sizeof(state)))
		return 1;
	/* exiting: the kernel closes its perf events before it is a zombie */
	return strchr(state, 'Z') || strchr(state, 'X') || exiting(pid);
}

void *proc_read_mem(pid_t pid, uint64_t addr, size_t len)
{
	char path[64];
	void *buf;
	ssize_t r;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = len ? malloc(len) : NULL;
	r = buf ? pread(fd, buf, len, (off_t)addr) : -1;
	close(fd);
	if (r != (ssize_t)len) {
		free(buf);
		return NULL;
	}
	return buf;
}

int proc_start_time(pid_t pid, uint64_t *ticks)
{
	char path[64], buf[1024], *p, *end;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (read_small_file(path, buf, sizeof(buf)))
		return -1;
	/* after the comm, which may hold anything but ends at the last ')' */
	p = strrchr(buf, ')');
	for (i = 0; p && i < 20; i++) /* field 22 is the 20th after it */
		p = strchr(p + 1, ' ');
	if (!p)
		return -1;
	*ticks = strtoull(p + 1, &end, 10);
	return end == p + 1 ? -1 : 0;
}

// SPDX-License-Identifier: GPL-2.0
/* What /proc says of a process or thread; see lib/procfs.h. */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/file.h"
#include "lib/procfs.h"

const char *proc_path(char *buf, size_t len, pid_t pid, pid_t tid,
		      const char *what)
{
	if (tid)
		snprintf(buf, len, "/proc/%d/task/%d%s%s", (int)pid, (int)tid,
			 *what ? "/" : "", what);
	else
		snprintf(buf, len, "/proc/%d%s%s", (int)pid, *what ? "/" : "",
			 what);
	return buf;
}

int proc_read(pid_t pid, pid_t tid, const char *what, char *buf, size_t len)
{
	char path[96];

	return read_small_file(proc_path(path, sizeof(path), pid, tid, what),
			       buf, len);
}

int proc_dir(pid_t pid, const char *what)
{
	char path[96];

	return open(proc_path(path, sizeof(path), pid, 0, what),
		    O_PATH | O_DIRECTORY | O_CLOEXEC);
}

bool proc_exists(pid_t pid, pid_t tid)
{
	char path[96];

	return access(proc_path(path, sizeof(path), pid, tid, ""), F_OK) == 0;
}

void proc_comm(pid_t pid, pid_t tid, char *buf, size_t len)
{
	size_t n;

	if (proc_read(pid, tid, "comm", buf, len)) {
		buf[0] = 0;
		return;
	}
	n = strlen(buf);
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = 0;
}

void proc_cmdline(pid_t pid, char *buf, size_t len)
{
	char path[96];
	size_t n = 0;
	ssize_t r;
	int fd = open(proc_path(path, sizeof(path), pid, 0, "cmdline"),
		      O_RDONLY | O_CLOEXEC);

	while (fd >= 0 && n + 1 < len &&
	       (r = read(fd, buf + n, len - 1 - n)) > 0)
		n += (size_t)r;
	if (fd >= 0)
		close(fd);
	for (size_t i = 0; i + 1 < n; i++)
		if (!buf[i])
			buf[i] = ' ';
	buf[n] = 0;
}

bool proc_contains(pid_t pid, const char *what, const char *needle)
{
	char path[96], buf[65536];
	ssize_t n;
	int fd = open(proc_path(path, sizeof(path), pid, 0, what),
		      O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 && memmem(buf, (size_t)n, needle, strlen(needle));
}

int proc_status_field(pid_t pid, pid_t tid, const char *key, char *buf,
		      size_t len)
{
	char path[96], line[512];
	size_t klen = strlen(key);
	FILE *f;
	int ret = -1;

	f = fopen(proc_path(path, sizeof(path), pid, tid, "status"), "re");
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

int proc_uid(pid_t pid, uid_t *uid)
{
	char buf[128];
	unsigned long r;

	if (proc_status_field(pid, 0, "Uid:", buf, sizeof(buf)) ||
	    sscanf(buf, "%lu", &r) != 1)
		return -1;
	*uid = (uid_t)r;
	return 0;
}

int proc_uid_kthread(pid_t pid, uid_t *uid, int *kthread)
{
	char path[96], line[512];
	unsigned long r;
	int ret = -1;
	FILE *f;

	*kthread = -1;
	f = fopen(proc_path(path, sizeof(path), pid, 0, "status"), "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Uid:", 4) &&
		    sscanf(line + 4, "%lu", &r) == 1) {
			*uid = (uid_t)r;
			ret = 0;
		} else if (!strncmp(line, "Kthread:", 8)) {
			*kthread = atoi(line + 8) != 0;
			break; /* (after Uid:) */
		}
	}
	fclose(f);
	return ret;
}

#define PF_EXITING 0x4 /* the kernel's task flag (include/linux/sched.h) */

/* Whether pid is in exit(): flags, field 9 of /proc/PID/stat, after the
 * comm in parentheses (which may hold any byte but NUL). */
static bool exiting(pid_t pid)
{
	char buf[1024], *p;
	unsigned long flags;

	if (proc_read(pid, 0, "stat", buf, sizeof(buf)))
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
	char path[96];
	void *buf;
	ssize_t r;
	int fd = open(proc_path(path, sizeof(path), pid, 0, "mem"),
		      O_RDONLY | O_CLOEXEC);

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
	return proc_task_start_time(pid, 0, ticks);
}

int proc_task_start_time(pid_t pid, pid_t tid, uint64_t *ticks)
{
	char buf[1024], *p, *end;
	int i;

	if (proc_read(pid, tid, "stat", buf, sizeof(buf)))
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

// SPDX-License-Identifier: GPL-2.0
/* Pid-namespace ids and credentials of a target, from /proc. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/nspid.h"

/* Copies the value of field key ("NSpid:") of a status file into buf. */
static int status_field(pid_t pid, pid_t tid, const char *key, char *buf,
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

pid_t nspid_of(pid_t pid, pid_t tid)
{
	char buf[256], *p, *end;
	long last = -1;

	if (status_field(pid, tid, "NSpid:", buf, sizeof(buf)))
		return -1;
	for (p = buf;; p = end) {
		long v = strtol(p, &end, 10);

		if (end == p)
			break;
		last = v;
	}
	return last > 0 ? (pid_t)last : -1;
}

int nspid_creds(pid_t pid, uid_t *euid, gid_t *egid)
{
	char buf[256];
	unsigned long r, e;

	if (status_field(pid, 0, "Uid:", buf, sizeof(buf)) ||
	    sscanf(buf, "%lu %lu", &r, &e) != 2)
		return -1;
	*euid = e;
	if (status_field(pid, 0, "Gid:", buf, sizeof(buf)) ||
	    sscanf(buf, "%lu %lu", &r, &e) != 2)
		return -1;
	*egid = e;
	return 0;
}

int nspid_same_ns(pid_t pid)
{
	char path[64];
	struct stat a, b;

	snprintf(path, sizeof(path), "/proc/%d/ns/pid", pid);
	if (stat(path, &a) || stat("/proc/self/ns/pid", &b))
		return 1;
	return a.st_ino == b.st_ino && a.st_dev == b.st_dev;
}

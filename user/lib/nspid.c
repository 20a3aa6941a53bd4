// SPDX-License-Identifier: GPL-2.0
/* Pid-namespace ids and credentials of a target, from /proc. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/nspid.h"
#include "lib/procfs.h"

pid_t nspid_of(pid_t pid, pid_t tid)
{
	char buf[256], *p, *end;
	long last = -1;

	if (proc_status_field(pid, tid, "NSpid:", buf, sizeof(buf)))
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

	if (proc_status_field(pid, 0, "Uid:", buf, sizeof(buf)) ||
	    sscanf(buf, "%lu %lu", &r, &e) != 2)
		return -1;
	*euid = e;
	if (proc_status_field(pid, 0, "Gid:", buf, sizeof(buf)) ||
	    sscanf(buf, "%lu %lu", &r, &e) != 2)
		return -1;
	*egid = e;
	return 0;
}

int nspid_same_ns(pid_t pid)
{
	char path[96];
	struct stat a, b;

	if (stat(proc_path(path, sizeof(path), pid, 0, "ns/pid"), &a) ||
	    stat("/proc/self/ns/pid", &b))
		return 1;
	return a.st_ino == b.st_ino && a.st_dev == b.st_dev;
}

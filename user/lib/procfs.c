// SPDX-License-Identifier: GPL-2.0
/* Fields of /proc status files; see lib/procfs.h. */
#include <stdio.h>
#include <string.h>

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

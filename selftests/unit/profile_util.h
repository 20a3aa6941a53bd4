/* SPDX-License-Identifier: GPL-2.0 */
/* Test helper for the profile file tests: files in a temporary folder. */
#ifndef PJ_SELFTEST_PROFILE_UTIL_H
#define PJ_SELFTEST_PROFILE_UTIL_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "lib/file.h"

static char dir[] = "/tmp/pj-profile-XXXXXX";

/* path of name in the test's folder (four live at once) */
static inline char *tmp(const char *name)
{
	static char path[4][256];
	static int n;
	char *p = path[n++ % 4];

	snprintf(p, sizeof(path[0]), "%s/%s", dir, name);
	return p;
}

static inline uint8_t *slurp(const char *path, size_t *size)
{
	return (uint8_t *)read_whole_file(path, 0, (size_t)1 << 30, size);
}

static inline void spit(const char *path, const void *buf, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, buf, size) != (ssize_t)size)
		abort();
	close(fd);
}

static inline int tmpdir_make(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return -1;
	}
	return 0;
}

static inline void tmpdir_remove(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		printf("# could not remove %s\n", dir);
}

#endif

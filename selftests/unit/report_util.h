/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test helper for the report tests: a folder of their own (dir, made by
 * report_dir_make, with out and errf in it), `perfjava report` run in the
 * test's process (cmd_report) with its stderr in errf, and what it wrote.
 */
#ifndef PJ_SELFTEST_REPORT_UTIL_H
#define PJ_SELFTEST_REPORT_UTIL_H

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "profile/io.h"
#include "report/report.h"

static char dir[] = "/tmp/pj-report-XXXXXX";
static char out[300], errf[300];

/* The folder and its out and errf; 0, or -1 after a message. */
static inline int report_dir_make(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return -1;
	}
	snprintf(out, sizeof(out), "%s/out.txt", dir);
	snprintf(errf, sizeof(errf), "%s/err.txt", dir);
	return 0;
}

static inline void report_dir_remove(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		printf("# could not remove %s\n", dir);
}

static inline char *slurp(const char *path)
{
	static char bufs[4][65536];
	static int k;
	char *buf = bufs[k++ % 4];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(bufs[0]) - 1) : -1;

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = 0;
	return buf;
}

/* A new profile at path with one event, cpu-clock every 1 ms; NULL after
 * a message. */
static inline struct pj_writer *report_writer(const char *path)
{
	struct pj_event_desc ev = { 0, "cpu-clock", "ns", 1, 0, 1000000, 0 };
	struct pj_writer *w;
	char err[256];

	w = pj_writer_open(path, err, sizeof(err));
	if (!w) {
		printf("# %s\n", err);
		return NULL;
	}
	pj_writer_event(w, &ev);
	return w;
}

/* Runs cmd_report with args (NULL-terminated), stderr into errf. */
static inline int report(const char *first, ...)
{
	char *argv[32] = { "report" };
	int argc = 1, saved, fd, rc;
	va_list ap;

	va_start(ap, first);
	for (const char *a = first; a && argc < 31; a = va_arg(ap, char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	unlink(out);
	fflush(stdout);
	fflush(stderr);
	saved = dup(2);
	fd = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, 2);
	close(fd);
	rc = cmd_report(argc, argv);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	return rc;
}

#endif

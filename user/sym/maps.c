// SPDX-License-Identifier: GPL-2.0
/*
 * A process's memory mappings, from /proc/PID/maps.
 *
 * Each line reads "start-end perms offset major:minor inode   path". The path
 * may hold spaces, is empty for anonymous memory, names a pseudo mapping in
 * brackets ([heap], [stack], [vdso]), or ends in " (deleted)" when the file
 * was removed after it was mapped; that suffix is cut off the path and kept
 * as the deleted flag.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/file.h"
#include "lib/grow.h"
#include "lib/procfs.h"
#include "lib/sorted.h"
#include "sym/maps.h"

#define DELETED_SUFFIX " (deleted)"

static int parse_line(const char *line, size_t len, struct pj_map *m)
{
	unsigned long long start, end, pgoff, inode;
	unsigned int maj, min;
	char perms[8], head[256];
	int n = 0;
	const char *p;
	size_t plen, slen = strlen(DELETED_SUFFIX);

	/* sscanf on a copy of the line's head: on the whole text it would
	 * measure all that follows, for every line (quadratic in the maps) */
	memcpy(head, line, len < sizeof(head) - 1 ? len : sizeof(head) - 1);
	head[len < sizeof(head) - 1 ? len : sizeof(head) - 1] = 0;
	if (sscanf(head, "%llx-%llx %7s %llx %x:%x %llu%n", &start, &end, perms,
		   &pgoff, &maj, &min, &inode, &n) != 7 ||
	    n <= 0 || (size_t)n > len || end < start)
		return -1;
	p = line + n;
	while (p < line + len && (*p == ' ' || *p == '\t'))
		p++;
	plen = line + len - p;
	memset(m, 0, sizeof(*m));
	m->start = start;
	m->end = end;
	m->pgoff = pgoff;
	m->inode = inode;
	m->dev_major = maj;
	m->dev_minor = min;
	m->exec = strchr(perms, 'x') != NULL;
	if (plen > slen && !memcmp(p + plen - slen, DELETED_SUFFIX, slen) &&
	    inode) {
		m->deleted = true;
		plen -= slen;
	}
	m->path = strndup(p, plen);
	return m->path ? 0 : -1;
}

static int cmp_map(const void *a, const void *b)
{
	const struct pj_map *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

int maps_parse(const char *text, struct pj_maps *out)
{
	unsigned int cap = 64, n = 0, i;
	struct pj_map *v = malloc(cap * sizeof(*v));
	const char *line = text;
	bool sorted = true;

	out->v = NULL;
	out->n = 0;
	if (!v)
		return -1;
	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		if (GROW(v, cap, n + 1))
			goto fail;
		if (len && parse_line(line, len, &v[n]) == 0) {
			if (n && v[n].start < v[n - 1].start)
				sorted = false;
			n++;
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	if (!sorted)
		qsort(v, n, sizeof(*v), cmp_map);
	out->v = v;
	out->n = n;
	return 0;
fail:
	for (i = 0; i < n; i++)
		free(v[i].path);
	free(v);
	errno = ENOMEM;
	return -1;
}

/* A /proc/PID/maps larger than this is not read (a target can map a lot). */
#define MAPS_MAX ((size_t)256 << 20)

int maps_load(pid_t pid, struct pj_maps *out)
{
	char path[64];
	char *text;
	int ret;

	out->v = NULL;
	out->n = 0;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	text = read_whole_file(path, 0, MAPS_MAX, NULL);
	if (!text)
		return -1;
	ret = maps_parse(text, out);
	free(text);
	return ret;
}

const struct pj_map *maps_find(const struct pj_maps *m, uint64_t addr)
{
	/* The last map whose start <= addr. */
	size_t lo = SORTED_UPTO(m->v, m->n, start, addr);

	if (!lo || addr >= m->v[lo - 1].end)
		return NULL;
	return &m->v[lo - 1];
}

void maps_free(struct pj_maps *m)
{
	unsigned int i;

	for (i = 0; i < m->n; i++)
		free(m->v[i].path);
	free(m->v);
	m->v = NULL;
	m->n = 0;
}

const char *maps_file_path(char *buf, size_t len, pid_t pid,
			   const struct pj_map *m)
{
	char what[64];

	snprintf(what, sizeof(what), "map_files/%llx-%llx",
		 (unsigned long long)m->start, (unsigned long long)m->end);
	return proc_path(buf, len, pid, 0, what);
}

int maps_open_file(pid_t pid, int rootfd, const struct pj_map *m)
{
	char mf[128];
	struct stat st;
	int fd = -1, mfd;

	if (!m->deleted) {
		fd = open_regular_in(rootfd, m->path);
		if (fd >= 0 && !fstat(fd, &st) && st.st_ino == m->inode)
			return fd;
	}
	/* gone from its path, or another inode there (an upgrade): the
	 * mapped file itself, through the kernel's link to it */
	mfd = open_regular(maps_file_path(mf, sizeof(mf), pid, m));
	if (mfd < 0)
		return fd; /* the file at its path: map_files is closed to us */
	if (fd >= 0)
		close(fd);
	return mfd;
}

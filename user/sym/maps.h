/* SPDX-License-Identifier: GPL-2.0 */
/* A process's memory mappings, from /proc/PID/maps. */
#ifndef PJ_USER_MAPS_H
#define PJ_USER_MAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct pj_map {
	uint64_t start, end; /* [start, end) */
	uint64_t pgoff; /* file offset of start */
	uint64_t inode;
	unsigned int dev_major, dev_minor;
	bool exec;
	bool deleted; /* the file was removed: path had " (deleted)" */
	char *path; /* "" for anonymous memory, "[heap]", "[vdso]", ... */
};

struct pj_maps {
	struct pj_map *v; /* sorted by start */
	unsigned int n;
};

/* Reads /proc/PID/maps. -1 with errno when it cannot be read. */
int maps_load(pid_t pid, struct pj_maps *out);
/* Parses the text of a maps file (for tests). */
int maps_parse(const char *text, struct pj_maps *out);
const struct pj_map *maps_find(const struct pj_maps *m, uint64_t addr);
void maps_free(struct pj_maps *m);
/*
 * Opens the file of mapping m of process pid for reading: its path inside
 * rootfd (the process's root, lib/file.h open_regular_in) when that is the
 * mapped inode, else through /proc/PID/map_files (a deleted or replaced
 * file). Regular files only. The fd, or -1 with errno.
 */
int maps_open_file(pid_t pid, int rootfd, const struct pj_map *m);
/* "/proc/PID/map_files/START-END" of m, into buf: the very file mapped,
 * whatever became of its path since; buf. */
const char *maps_file_path(char *buf, size_t len, pid_t pid,
			   const struct pj_map *m);

#endif

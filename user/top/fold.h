/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfjava top's window folded: each frame's self and total samples (a
 * frame twice in one stack counted once in its total), each thread's or
 * process's samples, and the callers of a frame along a path, as the
 * report counts them (samples, not weights). Frames that are named the
 * same are one frame, as in the report's table of leaves (a method JIT
 * compiled and inlined, a function in two modules): the namer says how.
 */
#ifndef PJ_USER_TOP_FOLD_H
#define PJ_USER_TOP_FOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/strpool.h"
#include "lib/u64map.h"
#include "top/window.h"

/* A frame of the window: the samples it is the leaf of, and those whose
 * stack holds it. */
struct frow {
	uint32_t frame;
	uint64_t self, total;
	uint32_t stamp; /* the last unique stack that counted it */
};

/* A thread (tid) or process (pid) of the window and its samples. */
struct trow {
	uint32_t id, pid;
	uint64_t samples;
};

/* A unique stack of the window and its samples. */
struct fstack {
	uint32_t stack;
	uint64_t samples;
};

/* Which samples of the window are folded: all, or one thread's or one
 * process's (0: any); tasks are threads, or processes when by_process. */
struct fold_filter {
	uint32_t tid, pid;
	bool by_process;
};

/* A frame's name, as shown (into buf, or a string of its own). */
struct fold_namer {
	const char *(*name)(void *ctx, uint32_t frame, char *buf, size_t len);
	void *ctx;
};

/* The first frame folded with a name, and the name. */
struct fname {
	uint32_t frame, off; /* off: in the fold's names */
};

struct fold {
	const struct pj_writer *w;
	struct fold_namer namer; /* NULL name: frames by id */
	uint64_t samples; /* of the window that pass the filter */
	struct frow *rows; /* by frame, then sorted (fold_sort) */
	size_t nrows, caprows;
	struct trow *tasks; /* sorted, the busiest first */
	size_t ntasks, captasks;
	struct fstack *stacks;
	size_t nstacks, capstacks;
	struct u64map row_at, task_at, stack_at; /* id + 1 -> index */
	/* each frame's first frame of its name (frame + 1 -> it), kept from
	 * fold to fold so that a row is the same frame in each; the names by
	 * hash (odd: never 0) -> index in byname */
	struct u64map canon, name_at;
	struct fname *byname;
	size_t nnames, capnames;
	struct strpool names;
};

/* f made again from the samples of win that pass flt. 0, or -1 out of
 * memory (f then holds what was folded until then). */
int fold_window(struct fold *f, const struct window *win,
		const struct fold_filter *flt);
/* The rows sorted by self or total samples, the most first. */
void fold_sort(struct fold *f, bool by_total);

/* A caller along a path: its frame and the samples that come through it
 * (those of stacks that end at the path have none). */
struct fcaller {
	uint32_t frame;
	uint64_t samples;
};
/*
 * The callers of path[n - 1] along path (path[0] a frame, path[i + 1] a
 * caller of path[i], frames as the rows have them), in the stacks where
 * path[0] is the leaf (self) or at its innermost place (not self), into
 * out (at most max, the most samples first): how many, or -1 out of
 * memory.
 */
int fold_callers(const struct fold *f, const uint32_t *path, unsigned int n,
		 bool self, struct fcaller *out, size_t max);
void fold_free(struct fold *f);

#endif

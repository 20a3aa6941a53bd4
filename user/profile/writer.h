/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What profile/write.c (the file: its chunks and records) and
 * profile/intern.c (strings, frames and stacks, each kept once) share: the
 * writer's state and its buffers. Not for other parts; they use
 * profile/io.h.
 */
#ifndef PJ_USER_PROFILE_WRITER_H
#define PJ_USER_PROFILE_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/idtable.h"
#include "lib/outfile.h"
#include "lib/strpool.h"
#include "profile/io.h"

/* Longer strings are cut: a record must fit in a chunk. */
#define STRING_MAX (64u << 10)
#define HDR_SIZE sizeof(struct pj_chunk_header)

struct buf {
	uint8_t *data; /* HDR_SIZE bytes of room, then the payload */
	size_t len; /* payload bytes */
	size_t cap; /* payload capacity */
	unsigned int type;
};

struct str_ent {
	uint64_t hash;
	uint32_t off, len; /* in names */
};

struct frame_ent {
	uint64_t hash;
	uint32_t type, name, module, file, line; /* hashed together */
	bool has_addr;
};

struct frame_memo;

struct stack_ent {
	uint64_t hash;
	uint32_t off, n; /* in stackpool */
};

enum {
	B_META,
	B_EVENTS,
	B_STRINGS,
	B_FRAMES,
	B_ADDRS,
	B_STACKS,
	B_THREADS,
	B_VTHREADS,
	B_PROCESSES,
	B_SAMPLES,
	B_STATS,
	B_END,
	B_NR
};

struct pj_writer {
	struct outfile out; /* out.fd: the file written */
	int fd; /* -1: in memory, no file (pj_writer_open_mem) */
	int err; /* first errno, 0 = none */
	int oom;
	uint64_t bytes;
	struct buf bufs[B_NR];
	const struct pj_writer_tap *tap; /* NULL: none */

	struct idtable strtab;
	struct str_ent *strs; /* index = id - 1 */
	uint32_t nstrs, strs_cap;
	struct strpool names; /* the strings' bytes (lib/strpool.h) */

	struct idtable frametab;
	struct frame_ent *frames;
	uint32_t nframes, frames_cap;
	struct frame_memo *memo; /* FRAME_MEMO of them, or NULL */

	struct idtable stacktab;
	struct stack_ent *stacks;
	uint32_t nstacks, stacks_cap;
	uint32_t *stackpool;
	size_t stackpool_len, stackpool_cap;

	/* Delta state of the current SAMPLES chunk. */
	struct pj_sample prev;
};

/* profile/write.c: the first error is kept (ENOMEM, a write's errno). */
void writer_fail(struct pj_writer *w, int err);
/* profile/write.c: v or s[0..n) appended to buffer b; -1 out of memory. */
int writer_put_uv(struct pj_writer *w, int b, uint64_t v);
int writer_put_str(struct pj_writer *w, int b, const char *s, size_t n);
/* profile/write.c: flushes when buffer b grew past its soft limit (at a
 * record boundary). */
void writer_maybe_flush(struct pj_writer *w, int b);
/* Frees intern.c's tables of strings, frames and stacks: here, so that
 * write.c (which closes) does not call back into intern.c (which calls
 * write.c's buffers). */
static inline void writer_intern_free(struct pj_writer *w)
{
	idtable_free(&w->strtab);
	idtable_free(&w->frametab);
	idtable_free(&w->stacktab);
	free(w->strs);
	free(w->names.buf);
	free(w->frames);
	free(w->memo);
	free(w->stacks);
	free(w->stackpool);
}

/* s's length as the writer keeps it (cut at STRING_MAX; NULL is ""). */
static inline size_t writer_cut(const char *s)
{
	return s ? strnlen(s, STRING_MAX) : 0;
}

#endif

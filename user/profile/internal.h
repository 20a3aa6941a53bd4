/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What profile/read.c (the file, its chunks, the finished arrays) and
 * profile/decode.c (the payload of each chunk, the string pool) share; read.c
 * calls decode.c, never the other way. Not for other parts; they use
 * profile/io.h.
 */
#ifndef PJ_USER_PROFILE_INTERNAL_H
#define PJ_USER_PROFILE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "lib/strpool.h"
#include "profile/io.h"

struct thread_ent {
	uint32_t tid, pid;
	const char *name;
	size_t order;
};

struct proc_ent {
	uint32_t pid, kind, flags;
	const char *comm, *cmdline, *container;
	size_t order;
};

struct priv {
	struct pj_profile p; /* first: pj_profile_free() casts back */
	struct strstore pool; /* the profile's strings (lib/strpool.h) */
	size_t strings_cap, frames_cap, stack_start_cap, stack_frames_cap;
	size_t samples_cap, events_cap, meta_cap, stats_cap, threads_cap;
	size_t vthreads_cap;
	size_t procs_cap;
	uint32_t version; /* the file's: 1 has one-byte sample flags */
	size_t nstack_frames;
	struct thread_ent *threads;
	size_t nthreads;
	struct proc_ent *procs;
	size_t nprocs;
};

/* Decoding state of one chunk. */
struct cur {
	const uint8_t *p, *end;
	const uint8_t *base; /* at file offset base_off, for messages */
	size_t base_off;
	const char *chunk;
	char *err;
	size_t errlen;
};

/* profile/decode.c: "damaged at offset N: ..." in c->err; returns -1. */
__attribute__((format(printf, 3, 4))) int
profile_damaged(struct cur *c, const uint8_t *at, const char *fmt, ...);
/* profile/decode.c: "out of memory" in c->err; returns -1. */
int profile_oom(struct cur *c);
/* profile/decode.c: a NUL-terminated copy of s[0..n) in the pool, or NULL. */
char *profile_pool_str(struct priv *d, const uint8_t *s, size_t n);
/* profile/decode.c: frees the pool's blocks. */
void profile_pool_free(struct priv *d);
/* profile/decode.c: decodes the payload of one chunk of the given type. */
int profile_read_chunk(struct priv *d, struct cur *c, unsigned int type);

#endif

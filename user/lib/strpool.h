/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pool of strings, in two forms for two needs:
 *
 * struct strpool keeps NUL-terminated strings in one block addressed by
 * 32-bit offsets: tables that hold many names (symbol tables, the profile
 * writer's strings) keep 4 bytes a name instead of a pointer. The block
 * moves as it grows: hold offsets, never pointers.
 *
 * struct strstore keeps them in blocks that never move: what it hands out
 * stays valid until strstore_free, for names handed to others as pointers
 * (the profile reader's, the agent's interned names).
 */
#ifndef PJ_USER_STRPOOL_H
#define PJ_USER_STRPOOL_H

#include <stddef.h>
#include <stdint.h>

struct strpool {
	char *buf; /* owned; the caller may take it and free it */
	size_t len, cap;
};

/* Appends len bytes of s and a NUL; *off is where they start. 0, or -1 when
 * out of memory or the pool would pass 4 GiB (offsets are 32-bit). */
int strpool_add(struct strpool *p, const char *s, size_t len, uint32_t *off);

struct strstore {
	struct strblock *blocks; /* the newest first */
};

/* n bytes that stay where they are (8-byte aligned), or NULL. */
void *strstore_alloc(struct strstore *st, size_t n);
/* A NUL-terminated copy of len bytes of s, or NULL. */
char *strstore_add(struct strstore *st, const char *s, size_t len);
void strstore_free(struct strstore *st);

#endif

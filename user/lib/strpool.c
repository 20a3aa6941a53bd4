// SPDX-License-Identifier: GPL-2.0
/* The pool of strings; see lib/strpool.h. */
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "lib/strpool.h"

#define BLOCK 65536

struct strblock {
	struct strblock *next;
	size_t used, cap;
	char data[];
};

int strpool_add(struct strpool *p, const char *s, size_t len, uint32_t *off)
{
	if (len >= UINT32_MAX || p->len + len + 1 > UINT32_MAX ||
	    GROW(p->buf, p->cap, p->len + len + 1))
		return -1;
	memcpy(p->buf + p->len, s, len);
	p->buf[p->len + len] = '\0';
	*off = (uint32_t)p->len;
	p->len += len + 1;
	return 0;
}

/* n bytes of the newest block (a new one when they do not fit), from an
 * offset that is a multiple of align. */
static void *take(struct strstore *st, size_t n, size_t align)
{
	struct strblock *b = st->blocks;

	if (n > SIZE_MAX - sizeof(*b) - align)
		return NULL;
	if (b)
		b->used = (b->used + align - 1) & ~(align - 1);
	if (!b || b->used > b->cap || b->cap - b->used < n) {
		size_t cap = n > BLOCK ? n : BLOCK;

		b = malloc(sizeof(*b) + cap);
		if (!b)
			return NULL;
		b->next = st->blocks;
		b->used = 0;
		b->cap = cap;
		st->blocks = b;
	}
	b->used += n;
	return b->data + b->used - n;
}

void *strstore_alloc(struct strstore *st, size_t n)
{
	return take(st, n, 8);
}

char *strstore_add(struct strstore *st, const char *s, size_t len)
{
	char *q = len < SIZE_MAX ? take(st, len + 1, 1) : NULL;

	if (q) {
		memcpy(q, s, len);
		q[len] = 0;
	}
	return q;
}

void strstore_free(struct strstore *st)
{
	struct strblock *b, *next;

	for (b = st->blocks; b; b = next) {
		next = b->next;
		free(b);
	}
	st->blocks = NULL;
}

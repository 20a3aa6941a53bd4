/* SPDX-License-Identifier: GPL-2.0 */
/* A pool of NUL-terminated strings addressed by 32-bit offsets: symbol
 * tables keep one malloc'ed block of names instead of a pointer each. */
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

#endif

// SPDX-License-Identifier: GPL-2.0
/* A pool of strings addressed by 32-bit offsets; see lib/strpool.h. */
#include <string.h>

#include "lib/grow.h"
#include "lib/strpool.h"

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

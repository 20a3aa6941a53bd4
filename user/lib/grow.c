// SPDX-License-Identifier: GPL-2.0
/* Checked growth of dynamic arrays; see lib/grow.h. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "lib/grow.h"

#define GROW_FIRST 16
#define HUGE_PAGE ((size_t)2 << 20)

/* The whole 2 MiB pages inside [p, p + len) made huge when first touched:
 * a big table (the kernel's symbols, a library's) fills a thousand small
 * pages otherwise, and each fault costs microseconds, more under a
 * hypervisor. */
static void advise_huge(void *p, size_t len)
{
	uintptr_t a = ((uintptr_t)p + HUGE_PAGE - 1) &
		      ~(uintptr_t)(HUGE_PAGE - 1);
	uintptr_t e = ((uintptr_t)p + len) & ~(uintptr_t)(HUGE_PAGE - 1);

	if (e > a)
		madvise((void *)a, e - a, MADV_HUGEPAGE);
}

int grow_array(void **p, size_t *cap, size_t need, size_t elem, size_t max)
{
	size_t n = *cap ? *cap : GROW_FIRST;
	void *q;

	if (need <= *cap)
		return 0;
	if (!elem || max > SIZE_MAX / elem)
		max = elem ? SIZE_MAX / elem : 0;
	if (need > max) {
		errno = EOVERFLOW;
		return -1;
	}
	while (n < need)
		n = n > max / 2 ? max : n * 2;
	if (n > max)
		n = max;
	q = realloc(*p, n * elem);
	if (!q) {
		errno = ENOMEM;
		return -1;
	}
	if (n * elem >= 2 * HUGE_PAGE)
		advise_huge(q, n * elem);
	*p = q;
	*cap = n;
	return 0;
}

void shrink_array(void **p, size_t bytes)
{
	void *q = bytes && *p ? realloc(*p, bytes) : NULL;

	if (q)
		*p = q;
}

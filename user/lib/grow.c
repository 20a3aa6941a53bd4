// SPDX-License-Identifier: GPL-2.0
/* Checked growth of dynamic arrays; see lib/grow.h. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/grow.h"

#define GROW_FIRST 16

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

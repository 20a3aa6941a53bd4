/* SPDX-License-Identifier: GPL-2.0 */
/* Growth of dynamic arrays, checked: a capacity never wraps, a failed
 * allocation leaves the array as it was. */
#ifndef PJ_USER_GROW_H
#define PJ_USER_GROW_H

#include <stddef.h>

/*
 * Makes room for at least need elements of elem bytes in *p, whose capacity
 * is *cap elements: doubles from 16 until need fits, never past max elements.
 * 0 on success (also when there is room already); -1 with errno EOVERFLOW
 * (need > max) or ENOMEM, *p and *cap unchanged.
 */
int grow_array(void **p, size_t *cap, size_t need, size_t elem, size_t max);

/*
 * grow_array for any array pointer arr and any unsigned integer capacity cap
 * (size_t, uint32_t, unsigned int...): the capacity never exceeds what its
 * type holds. An expression: 0 or -1.
 */
#define GROW(arr, cap, need)                                             \
	({                                                               \
		void *p__ = (arr);                                       \
		size_t c__ = (cap);                                      \
		int r__ = grow_array(&p__, &c__, (need), sizeof(*(arr)), \
				     (size_t)(__typeof__(cap))-1);       \
		if (!r__) {                                              \
			(arr) = p__;                                     \
			(cap) = (__typeof__(cap))c__;                    \
		}                                                        \
		r__;                                                     \
	})

/*
 * *p realloc'ed down to bytes (a table built by doubling and then held for
 * the whole run: its unused half returned); left as it is when bytes is 0
 * or the realloc fails.
 */
void shrink_array(void **p, size_t bytes);

#endif

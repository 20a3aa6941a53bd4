/* SPDX-License-Identifier: GPL-2.0 */
/* Binary search in arrays sorted by one member (maps by start, symbols by
 * address, line tables by bci). */
#ifndef PJ_USER_SORTED_H
#define PJ_USER_SORTED_H

#include <stddef.h>

/*
 * How many of the n leading elements of v, sorted by member, have
 * member <= key: the index just past the last such element (0 when none).
 * The element at or below key, if any, is v[SORTED_UPTO(...) - 1].
 */
#define SORTED_UPTO(v, n, member, key)                           \
	({                                                       \
		size_t lo__ = 0, hi__ = (n);                     \
		while (lo__ < hi__) {                            \
			size_t mid__ = lo__ + (hi__ - lo__) / 2; \
			if ((v)[mid__].member <= (key))          \
				lo__ = mid__ + 1;                \
			else                                     \
				hi__ = mid__;                    \
		}                                                \
		lo__;                                            \
	})

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An in-place sort for big tables (a library's symbols, the kernel's):
 * qsort's merge sort takes a copy of the table in fresh memory (its page
 * faults cost more than the sort) and calls its comparison through a
 * pointer. Introsort: quicksort on the median of three, insertion sort for
 * short runs, and heapsort past 2 log2 n levels, so that no order of the
 * input (a hostile file's) makes it quadratic. Not stable.
 *
 * SORT_DEFINE(name, type, less) defines
 *	static void name(type *v, size_t n);
 * with less(const type *a, const type *b) true when a sorts before b.
 */
#ifndef PJ_USER_SORT_H
#define PJ_USER_SORT_H

#include <stddef.h>

#define SORT_DEFINE(name, type, less)                                        \
	static inline void name##_swap(type *a, type *b)                     \
	{                                                                    \
		type t = *a;                                                 \
		*a = *b;                                                     \
		*b = t;                                                      \
	}                                                                    \
	static void name##_sift(type *v, size_t n, size_t i)                 \
	{                                                                    \
		for (size_t c; (c = 2 * i + 1) < n; i = c) {                 \
			if (c + 1 < n && less(&v[c], &v[c + 1]))             \
				c++;                                         \
			if (!less(&v[i], &v[c]))                             \
				return;                                      \
			name##_swap(&v[i], &v[c]);                           \
		}                                                            \
	}                                                                    \
	static void name##_heap(type *v, size_t n)                           \
	{                                                                    \
		size_t i;                                                    \
		for (i = n / 2; i-- > 0;)                                    \
			name##_sift(v, n, i);                                \
		for (i = 0; n > 1;) {                                        \
			name##_swap(v, v + --n);                             \
			name##_sift(v, n, i);                                \
		}                                                            \
	}                                                                    \
	static void name##_insert(type *v, size_t n)                         \
	{                                                                    \
		for (size_t i = 1; i < n; i++)                               \
			for (size_t j = i; j && less(&v[j], &v[j - 1]); j--) \
				name##_swap(&v[j], &v[j - 1]);               \
	}                                                                    \
	static void name##_intro(type *v, size_t n, unsigned int depth)      \
	{                                                                    \
		while (n > 16) {                                             \
			size_t m = n / 2, i = 0, j = n - 1;                  \
			if (!depth--) {                                      \
				name##_heap(v, n);                           \
				return;                                      \
			}                                                    \
			/* the median of three to v[m], then Hoare's */      \
			if (less(&v[m], &v[0]))                              \
				name##_swap(&v[m], &v[0]);                   \
			if (less(&v[n - 1], &v[m]))                          \
				name##_swap(&v[n - 1], &v[m]);               \
			if (less(&v[m], &v[0]))                              \
				name##_swap(&v[m], &v[0]);                   \
			name##_swap(&v[m], &v[n - 1]); /* the pivot */       \
			for (;;) {                                           \
				while (less(&v[i], &v[n - 1]))               \
					i++;                                 \
				do                                           \
					j--;                                 \
				while (j > i && less(&v[n - 1], &v[j]));     \
				if (j <= i)                                  \
					break;                               \
				name##_swap(&v[i], &v[j]);                   \
				i++;                                         \
			}                                                    \
			name##_swap(&v[i], &v[n - 1]);                       \
			/* the smaller side by recursion, the larger here */ \
			if (i < n - 1 - i) {                                 \
				name##_intro(v, i, depth);                   \
				v += i + 1;                                  \
				n -= i + 1;                                  \
			} else {                                             \
				name##_intro(v + i + 1, n - i - 1, depth);   \
				n = i;                                       \
			}                                                    \
		}                                                            \
		name##_insert(v, n);                                         \
	}                                                                    \
	static void name(type *v, size_t n)                                  \
	{                                                                    \
		unsigned int depth = 0;                                      \
		for (size_t k = n; k > 1; k >>= 1)                           \
			depth += 2;                                          \
		if (n > 1)                                                   \
			name##_intro(v, n, depth);                           \
	}

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/* The hashes of the hash tables: FNV-1a over bytes and strings, and a 64-bit
 * finalizer that spreads every input bit over the low bits (for tables that
 * index with hash & mask). */
#ifndef PJ_USER_HASH_H
#define PJ_USER_HASH_H

#include <stddef.h>
#include <stdint.h>

#define FNV_SEED 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

/* FNV-1a of n bytes at p, continuing from h (FNV_SEED to start). */
static inline uint64_t fnv1a(const void *p, size_t n, uint64_t h)
{
	const unsigned char *s = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * FNV_PRIME;
	return h;
}

/* FNV-1a of the NUL-terminated string s, continuing from h. */
static inline uint64_t fnv1a_str(const char *s, uint64_t h)
{
	while (*s)
		h = (h ^ (unsigned char)*s++) * FNV_PRIME;
	return h;
}

/* The murmur3 64-bit finalizer (without its last round): every bit of k
 * reaches the low bits. */
static inline uint64_t hash_mix64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k;
}

#endif

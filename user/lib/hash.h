/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hashes of the hash tables. Their keys are often the target's or a
 * file's choice (method and thread ids, addresses on its stack, names), so
 * every table hashes with the run's seed: hash_u64, hash_bytes, hash_str
 * mix in 64 random bits taken at start (lib/hash.c), and keys an attacker
 * makes collide under one run's hash spread under another's. The primitives
 * below them (FNV-1a, the finalizers) are the published, unseeded ones.
 */
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

/* murmur3's whole 64-bit finalizer: a bijection, every input bit reaching
 * every output bit. */
static inline uint64_t hash_fmix64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ull;
	k ^= k >> 33;
	return k;
}

/* The run's seed (lib/hash.c): random, set before main(). */
extern uint64_t hash_seed;

/* A u64 key's hash, seeded. */
static inline uint64_t hash_u64(uint64_t k)
{
	return hash_fmix64(k ^ hash_seed);
}

/* n bytes' hash, seeded (salt tells tables of different keys apart). */
static inline uint64_t hash_bytes(const void *p, size_t n, uint64_t salt)
{
	return hash_fmix64(fnv1a(p, n, FNV_SEED ^ hash_seed ^ salt));
}

/* A string's hash, seeded. */
static inline uint64_t hash_str(const char *s, uint64_t salt)
{
	return hash_fmix64(fnv1a_str(s, FNV_SEED ^ hash_seed ^ salt));
}

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reader's one hash map: u64 keys (never 0) to a u64 or a pointer, by
 * open addressing with linear probing; removal shifts entries back (no
 * tombstones), so a map whose keys come and go for days stays as large as
 * its live keys need. Keys are hashed with the run's seed (lib/hash.h
 * hash_u64): a target chooses most of them (addresses, thread, method and
 * class ids) and must not be able to choose colliding ones. The callers
 * bound how many keys a map may take.
 */
#ifndef PJ_USER_U64MAP_H
#define PJ_USER_U64MAP_H

#include <stdbool.h>
#include <stdint.h>

union u64map_val {
	uint64_t u; /* an id, a position, a count */
	void *p; /* what the map's owner allocated */
};

struct u64map {
	uint64_t *keys; /* 0: a free slot */
	union u64map_val *vals;
	uint32_t cap, n; /* cap is a power of two */
	/* the longest probe a new key took (slots past its home): how well
	 * the run's seed spread the keys the target chose */
	uint32_t probe_max;
};

/* k's value, or NULL when k is not in m. */
union u64map_val *u64map_find(const struct u64map *m, uint64_t k);
/* k's value, made (zero) when k is new; NULL when out of memory. */
union u64map_val *u64map_slot(struct u64map *m, uint64_t k);
/* Removes k (what its value points to is the caller's to free). */
void u64map_del(struct u64map *m, uint64_t k);
void u64map_free(struct u64map *m);
/* The next key from slot *i on (start at 0): for every key and value,
 * for (i = 0; u64map_next(m, &i, &k, &v);). */
bool u64map_next(const struct u64map *m, uint32_t *i, uint64_t *k,
		 union u64map_val **v);

/* The maps of ids and positions (below 2^32): k's value in *v, or false
 * when k is not in m. */
bool u64map_get(const struct u64map *m, uint64_t k, uint32_t *v);
/* 0, or -1 when out of memory. */
int u64map_put(struct u64map *m, uint64_t k, uint32_t v);
/* The maps of pointers: k's, or NULL. */
void *u64map_ptr(const struct u64map *m, uint64_t k);

#endif

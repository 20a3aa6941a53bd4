/* SPDX-License-Identifier: GPL-2.0 */
/* An open-addressing hash map from u64 keys to u32 values, for the hot path
 * of the recorder (address -> frame id). Key 0 cannot be stored. Hashed
 * with the run's seed (lib/hash.h): the keys are often the target's. */
#ifndef PJ_USER_U64MAP_H
#define PJ_USER_U64MAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/hash.h"

struct u64map {
	uint64_t *keys;
	uint32_t *vals;
	uint32_t cap, n; /* cap is a power of two */
};

static inline uint32_t u64map_hash(uint64_t k)
{
	return (uint32_t)hash_u64(k);
}

static inline bool u64map_get(const struct u64map *m, uint64_t k, uint32_t *v)
{
	if (!m->cap)
		return false;
	for (uint32_t i = u64map_hash(k) & (m->cap - 1);;
	     i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == k) {
			*v = m->vals[i];
			return true;
		}
		if (!m->keys[i])
			return false;
	}
}

static inline int u64map_put(struct u64map *m, uint64_t k, uint32_t v)
{
	if ((m->n + 1) * 2 > m->cap) {
		struct u64map nm = { 0 };

		nm.cap = m->cap ? m->cap * 2 : 1024;
		nm.keys = calloc(nm.cap, sizeof(*nm.keys));
		nm.vals = calloc(nm.cap, sizeof(*nm.vals));
		if (!nm.keys || !nm.vals) {
			free(nm.keys);
			free(nm.vals);
			return -1;
		}
		for (uint32_t i = 0; i < m->cap; i++)
			if (m->keys[i])
				u64map_put(&nm, m->keys[i], m->vals[i]);
		free(m->keys);
		free(m->vals);
		*m = nm;
	}
	for (uint32_t i = u64map_hash(k) & (m->cap - 1);;
	     i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == k) {
			m->vals[i] = v;
			return 0;
		}
		if (!m->keys[i]) {
			m->keys[i] = k;
			m->vals[i] = v;
			m->n++;
			return 0;
		}
	}
}

/* Removes k (backward shift: no tombstones, so a map whose keys come and go
 * stays as large as its live keys need). */
static inline void u64map_del(struct u64map *m, uint64_t k)
{
	uint32_t i, j, home, mask = m->cap - 1;

	if (!m->cap)
		return;
	for (i = u64map_hash(k) & mask; m->keys[i] != k; i = (i + 1) & mask)
		if (!m->keys[i])
			return;
	for (j = (i + 1) & mask; m->keys[j]; j = (j + 1) & mask) {
		home = u64map_hash(m->keys[j]) & mask;
		/* entry j may fill the hole at i when its home is not in
		 * (i, j] (cyclically) */
		if (((j - home) & mask) >= ((j - i) & mask)) {
			m->keys[i] = m->keys[j];
			m->vals[i] = m->vals[j];
			i = j;
		}
	}
	m->keys[i] = 0;
	m->n--;
}

static inline void u64map_free(struct u64map *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->cap = m->n = 0;
}

#endif

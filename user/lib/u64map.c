// SPDX-License-Identifier: GPL-2.0
/* The reader's one hash map; see lib/u64map.h. */
#include <stdlib.h>
#include <string.h>

#include "lib/hash.h"
#include "lib/u64map.h"

#define FIRST_CAP 256

static inline uint32_t home_of(uint64_t k)
{
	return (uint32_t)hash_u64(k);
}

union u64map_val *u64map_find(const struct u64map *m, uint64_t k)
{
	if (!m->cap || !k)
		return NULL;
	for (uint32_t i = home_of(k) & (m->cap - 1);;
	     i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == k)
			return &m->vals[i];
		if (!m->keys[i])
			return NULL;
	}
}

bool u64map_get(const struct u64map *m, uint64_t k, uint32_t *v)
{
	union u64map_val *x = u64map_find(m, k);

	if (x)
		*v = (uint32_t)x->u;
	return x != NULL;
}

int u64map_put(struct u64map *m, uint64_t k, uint32_t v)
{
	union u64map_val *x = u64map_slot(m, k);

	if (!x)
		return -1;
	x->u = v;
	return 0;
}

void *u64map_ptr(const struct u64map *m, uint64_t k)
{
	union u64map_val *x = u64map_find(m, k);

	return x ? x->p : NULL;
}

/* m twice as large (or made), every key placed again. */
static int grow(struct u64map *m)
{
	struct u64map nm = { 0 };

	if (m->cap > UINT32_MAX / 2)
		return -1;
	nm.cap = m->cap ? m->cap * 2 : FIRST_CAP;
	nm.probe_max = m->probe_max;
	nm.keys = calloc(nm.cap, sizeof(*nm.keys));
	nm.vals = calloc(nm.cap, sizeof(*nm.vals));
	if (!nm.keys || !nm.vals) {
		free(nm.keys);
		free(nm.vals);
		return -1;
	}
	for (uint32_t i = 0; i < m->cap; i++)
		if (m->keys[i])
			*u64map_slot(&nm, m->keys[i]) = m->vals[i];
	free(m->keys);
	free(m->vals);
	*m = nm;
	return 0;
}

union u64map_val *u64map_slot(struct u64map *m, uint64_t k)
{
	union u64map_val *x = u64map_find(m, k);
	uint32_t i, probe = 0;

	if (x || !k)
		return x;
	if ((uint64_t)(m->n + 1) * 2 > m->cap && grow(m))
		return NULL;
	for (i = home_of(k) & (m->cap - 1); m->keys[i];
	     i = (i + 1) & (m->cap - 1))
		probe++;
	if (probe > m->probe_max)
		m->probe_max = probe;
	m->keys[i] = k;
	m->vals[i].u = 0;
	m->n++;
	return &m->vals[i];
}

void u64map_del(struct u64map *m, uint64_t k)
{
	uint32_t i, j, home, mask = m->cap - 1;

	if (!m->cap || !k)
		return;
	for (i = home_of(k) & mask; m->keys[i] != k; i = (i + 1) & mask)
		if (!m->keys[i])
			return;
	for (j = (i + 1) & mask; m->keys[j]; j = (j + 1) & mask) {
		home = home_of(m->keys[j]) & mask;
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

void u64map_free(struct u64map *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

bool u64map_next(const struct u64map *m, uint32_t *i, uint64_t *k,
		 union u64map_val **v)
{
	for (; *i < m->cap; (*i)++)
		if (m->keys[*i]) {
			*k = m->keys[*i];
			*v = &m->vals[(*i)++];
			return true;
		}
	return false;
}

// SPDX-License-Identifier: GPL-2.0
/* A small open-addressing map from a non-zero u64 key to a pointer; see
 * lib/umap.h. */
#include <stdlib.h>

#include "lib/hash.h"
#include "lib/umap.h"

void **umap_slot(struct umap *m, uint64_t key, int create)
{
	size_t i;

	if (create && (m->n + 1) * 2 > m->cap) {
		struct umap b = { 0 };
		size_t j;

		b.cap = m->cap ? m->cap * 2 : 256;
		b.k = calloc(b.cap, sizeof(*b.k));
		b.v = calloc(b.cap, sizeof(*b.v));
		if (!b.k || !b.v) {
			free(b.k);
			free(b.v);
			return NULL;
		}
		for (j = 0; j < m->cap; j++)
			if (m->k[j])
				*umap_slot(&b, m->k[j], 1) = m->v[j];
		free(m->k);
		free(m->v);
		*m = b;
		m->n = b.n;
	}
	if (!m->cap)
		return NULL;
	for (i = hash_u64(key) & (m->cap - 1); m->k[i]; i = (i + 1) % m->cap)
		if (m->k[i] == key)
			return &m->v[i];
	if (!create)
		return NULL;
	m->k[i] = key;
	m->n++;
	return &m->v[i];
}

void *umap_get(const struct umap *m, uint64_t key)
{
	void **p = umap_slot((struct umap *)m, key, 0);

	return p ? *p : NULL;
}

int umap_del(struct umap *m, uint64_t key)
{
	size_t i, j, home;

	if (!m->cap)
		return -1;
	for (i = hash_u64(key) & (m->cap - 1); m->k[i]; i = (i + 1) % m->cap)
		if (m->k[i] == key)
			break;
	if (!m->k[i])
		return -1;
	/* backward shift: move up every entry of the run that would no
	 * longer be found past the hole */
	for (j = (i + 1) % m->cap; m->k[j]; j = (j + 1) % m->cap) {
		home = hash_u64(m->k[j]) & (m->cap - 1);
		if ((j > i && (home <= i || home > j)) ||
		    (j < i && home <= i && home > j)) {
			m->k[i] = m->k[j];
			m->v[i] = m->v[j];
			i = j;
		}
	}
	m->k[i] = 0;
	m->v[i] = NULL;
	m->n--;
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small open-addressing map from a non-zero u64 key to a pointer (the
 * agent client's methods, threads and interned strings), hashed with the
 * run's seed (lib/hash.h): the agent chooses those keys. Its capacity is a
 * power of two. The recorder's hot
 * path uses lib/u64map.h instead, which maps to u32 ids.
 */
#ifndef PJ_USER_UMAP_H
#define PJ_USER_UMAP_H

#include <stddef.h>
#include <stdint.h>

struct umap {
	uint64_t *k;
	void **v;
	size_t cap, n;
};

/* The value slot of key, created (NULL) when create is set and the key is
 * new; NULL when absent or out of memory. */
void **umap_slot(struct umap *m, uint64_t key, int create);
/* The value of key, or NULL. */
void *umap_get(const struct umap *m, uint64_t key);
/* Removes key (its value is the caller's to free): 0, or -1 when absent. */
int umap_del(struct umap *m, uint64_t key);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An open-addressing index over an array the caller owns (strings, frames,
 * stacks, call-tree nodes): a slot holds an entry's index + 1, 0 is empty,
 * collisions probe linearly. The caller looks up with its own comparison:
 *
 *	for (j = idtable_first(t, h); (v = idtable_at(t, j));
 *	     j = idtable_next(t, j))
 *		if (same(&ents[v - 1], key))
 *			return v - 1;
 *
 * then appends the new entry to its array and idtable_add()s its index.
 */
#ifndef PJ_USER_IDTABLE_H
#define PJ_USER_IDTABLE_H

#include <stddef.h>
#include <stdint.h>

struct idtable {
	uint32_t *slots; /* NULL until the first add */
	size_t mask; /* slots - 1 */
	uint32_t n; /* entries in the table */
};

/* The hash of entry i of the caller's array (the one it was added with). */
typedef uint64_t idtable_hash_fn(const void *ctx, uint32_t i);

static inline size_t idtable_first(const struct idtable *t, uint64_t h)
{
	return (size_t)h & t->mask;
}

static inline size_t idtable_next(const struct idtable *t, size_t j)
{
	return (j + 1) & t->mask;
}

/* The index + 1 in slot j, 0 when it is empty. */
static inline uint32_t idtable_at(const struct idtable *t, size_t j)
{
	return t->slots ? t->slots[j] : 0;
}

/*
 * Adds entry index i with hash h (not in the table yet). The table doubles
 * when over half full, rehashing every entry with hash_of. 0; -1 when it is
 * out of memory and too full to take more (it is still fine for lookups).
 */
int idtable_add(struct idtable *t, uint64_t h, uint32_t i,
		idtable_hash_fn *hash_of, const void *ctx);
void idtable_free(struct idtable *t);

#endif

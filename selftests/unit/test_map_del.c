// SPDX-License-Identifier: GPL-2.0
/*
 * Removal from the two hash maps (lib/u64map.h, lib/umap.h) against a plain
 * array, under churn like a target's threads: keys come and go for a long
 * time, every live key stays findable, removed ones are gone, and the maps
 * stay as large as their live keys need.
 */
#include <stdlib.h>

#include "lib/u64map.h"
#include "lib/umap.h"
#include "tap.h"

#define N 4096

int main(void)
{
	static uint64_t live[N];
	struct u64map m = { 0 };
	struct umap u = { 0 };
	unsigned int i, round, bad = 0, nlive = 0;
	uint64_t next = 1;

	srand(1);
	for (round = 0; round < 200000; round++) {
		unsigned int k = rand() % N;

		if (live[k]) {
			u64map_del(&m, live[k]);
			umap_del(&u, live[k]);
			live[k] = 0;
			nlive--;
		} else {
			live[k] = next++ * 2654435761u; /* spread, not 0 */
			u64map_put(&m, live[k], k);
			*umap_slot(&u, live[k], 1) = &live[k];
			nlive++;
		}
	}
	for (i = 0; i < N; i++) {
		uint32_t v;

		if (live[i])
			bad += !u64map_get(&m, live[i], &v) || v != i ||
			       umap_get(&u, live[i]) != &live[i];
	}
	for (i = 1; i < next; i += 7) {
		uint64_t k = i * 2654435761ull;
		uint32_t v;
		int is_live = 0;

		for (unsigned int j = 0; j < N; j++)
			is_live |= live[j] == k;
		bad += !is_live && (u64map_get(&m, k, &v) || umap_get(&u, k));
	}
	ok(!bad,
	   "after 200000 puts and removals, live keys found, removed gone (%u wrong)",
	   bad);
	ok(m.n == nlive && u.n == nlive, "counts match the live keys (%u)",
	   nlive);
	ok(m.cap <= 4 * N && u.cap <= 4 * N,
	   "the maps stay sized for the live keys (%u, %zu slots for %llu keys ever)",
	   m.cap, u.cap, (unsigned long long)next - 1);
	u64map_free(&m);
	free(u.k);
	free(u.v);
	return tap_done();
}

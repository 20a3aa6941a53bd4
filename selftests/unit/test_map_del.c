// SPDX-License-Identifier: GPL-2.0
/*
 * The one hash map (lib/u64map.h), of ids and of pointers, against a plain
 * array under churn like a target's threads: keys come and go for a long
 * time, every live key stays findable, removed ones are gone, and the map
 * stays as large as its live keys need (its seed: test_lib).
 */
#include <stdlib.h>

#include "lib/u64map.h"
#include "tap.h"

#define N 4096

int main(void)
{
	static uint64_t live[N];
	struct u64map m = { 0 }, u = { 0 };
	unsigned int i, round, bad = 0, nlive = 0, seen = 0;
	union u64map_val *v;
	uint64_t next = 1, k;

	srand(1);
	for (round = 0; round < 200000; round++) {
		unsigned int j = rand() % N;

		if (live[j]) {
			u64map_del(&m, live[j]);
			u64map_del(&u, live[j]);
			live[j] = 0;
			nlive--;
		} else {
			live[j] = next++ * 2654435761u; /* spread, not 0 */
			u64map_put(&m, live[j], j);
			u64map_slot(&u, live[j])->p = &live[j];
			nlive++;
		}
	}
	for (i = 0; i < N; i++) {
		uint32_t x;

		if (live[i])
			bad += !u64map_get(&m, live[i], &x) || x != i ||
			       u64map_ptr(&u, live[i]) != &live[i];
	}
	for (i = 1; i < next; i += 7) {
		uint32_t x;
		int is_live = 0;

		k = i * 2654435761ull;
		for (unsigned int j = 0; j < N; j++)
			is_live |= live[j] == k;
		bad += !is_live && (u64map_get(&m, k, &x) || u64map_ptr(&u, k));
	}
	ok(!bad,
	   "after 200000 puts and removals, live keys found, removed gone (%u wrong)",
	   bad);
	ok(m.n == nlive && u.n == nlive, "counts match the live keys (%u)",
	   nlive);
	ok(m.cap <= 4 * N && u.cap <= 4 * N,
	   "the map stays sized for the live keys (%u, %u slots for %llu keys ever)",
	   m.cap, u.cap, (unsigned long long)next - 1);
	for (i = 0; u64map_next(&u, &i, &k, &v);)
		seen += v->p == u64map_ptr(&u, k) && *(uint64_t *)v->p == k;
	ok(seen == nlive, "u64map_next visits every key once, with its value");
	ok(!u64map_find(&m, 0) && !u64map_slot(&m, 0) && u64map_put(&m, 0, 1),
	   "key 0 is never stored");
	u64map_free(&m);
	u64map_free(&u);
	return tap_done();
}

// SPDX-License-Identifier: GPL-2.0
/* The run's hash seed; see lib/hash.h. */
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "lib/hash.h"

uint64_t hash_seed;

/* Before main(): no table can have hashed with another seed. */
__attribute__((constructor)) static void hash_seed_init(void)
{
	struct timespec t;

	if (getrandom(&hash_seed, sizeof(hash_seed), GRND_NONBLOCK) ==
	    (ssize_t)sizeof(hash_seed))
		return;
	/* no entropy yet (early boot): still different per run */
	clock_gettime(CLOCK_MONOTONIC, &t);
	hash_seed = hash_fmix64((uint64_t)t.tv_nsec << 32 ^ (uint64_t)t.tv_sec ^
				(uint64_t)getpid() << 48);
}

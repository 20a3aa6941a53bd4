// SPDX-License-Identifier: GPL-2.0
/* The monotonic clock; see lib/clock.h. */
#include <time.h>

#include "lib/clock.h"

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

long long now_ms(void)
{
	return (long long)(now_ns() / 1000000ull);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The agent's clock and thread id, both async-signal-safe: the walk's
 * timestamps are CLOCK_MONOTONIC, the clock of the perf samples they are
 * matched with. Below every other part of the agent (stackwalk.c, ksig.c and
 * walk.c use them), so that they call into nothing above.
 */
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "pja.h"

uint64_t pja_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

pid_t pja_gettid(void)
{
	return syscall(SYS_gettid);
}

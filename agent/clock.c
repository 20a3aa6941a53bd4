// SPDX-License-Identifier: GPL-2.0
/*
 * The agent's clocks and thread id, all async-signal-safe: the walk's
 * timestamps are CLOCK_MONOTONIC, the clock of the perf samples they are
 * matched with; the handler times its own parts in ticks (the TSC on
 * x86-64: a few cycles, where clock_gettime costs tens of ns), converted to
 * ns outside the handler. Below every other part of the agent (stackwalk.c,
 * ksig.c and walk.c use them), so that they call into nothing above.
 */
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include "clock.h"

uint64_t pja_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

uint64_t pja_ticks(void)
{
#if defined(__x86_64__)
	return __rdtsc();
#else
	return pja_now();
#endif
}

/* The first reading of both clocks; the ratio is taken over the time since
 * (the longer, the better), never in a handler. */
static uint64_t ns0, ticks0;

uint64_t pja_ticks_ns(uint64_t ticks)
{
	uint64_t ns, tk;

	if (!ns0) {
		ns0 = pja_now();
		ticks0 = pja_ticks();
		return 0;
	}
	ns = pja_now() - ns0;
	tk = pja_ticks() - ticks0;
	if (!tk || ns < 1000000) /* too short to tell */
		return 0;
	return (uint64_t)((double)ticks * (double)ns / (double)tk);
}

pid_t pja_gettid(void)
{
	return syscall(SYS_gettid);
}

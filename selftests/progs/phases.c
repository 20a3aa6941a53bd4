// SPDX-License-Identifier: GPL-2.0
/*
 * A program with a phase change, for the heatmap: phase_a spins on the CPU
 * in two threads for SECONDS, then phase_b in one thread for SECONDS spins
 * 5 ms and sleeps 5 ms in turn (a quarter of the CPU density on two idle
 * cores, less than half on busy ones; waits off CPU that phase_a never
 * has). Prints each phase's bounds in CLOCK_MONOTONIC ns, the clock of the
 * samples:
 *   phase a START END
 *   phase b START END
 * Usage: phases [SECONDS] (default 2)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

static long long mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* Spins until end (ns): each phase's own loop, so its samples are its own. */
#define SPIN_UNTIL(end)                                         \
	do {                                                    \
		unsigned long x = sink;                         \
		while (mono_ns() < (end))                       \
			for (int i = 0; i < 10000; i++)         \
				x = x * 6364136223846793005UL + \
				    1442695040888963407UL;      \
		sink = x;                                       \
	} while (0)

__attribute__((noinline)) void phase_a(long long end)
{
	SPIN_UNTIL(end);
}

static void *helper_a(void *end)
{
	phase_a(*(long long *)end);
	return NULL;
}

__attribute__((noinline)) void nap_b(void)
{
	struct timespec ts = { 0, 5000000 };

	clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
}

__attribute__((noinline)) void phase_b(long long end)
{
	while (mono_ns() < end) {
		long long slice = mono_ns() + 5000000;

		SPIN_UNTIL(slice < end ? slice : end);
		nap_b();
	}
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 2;
	long long len = (long long)(secs * 1e9), a0, a1, b1;
	pthread_t helper;

	if (len <= 0 || secs > 3600) {
		fprintf(stderr, "usage: phases [SECONDS]\n");
		return 2;
	}
	a0 = mono_ns();
	a1 = a0 + len;
	if (pthread_create(&helper, NULL, helper_a, &a1)) {
		perror("pthread_create");
		return 1;
	}
	phase_a(a1);
	pthread_join(helper, NULL);
	a1 = mono_ns();
	phase_b(a1 + len);
	b1 = mono_ns();
	printf("phase a %lld %lld\nphase b %lld %lld\n", a0, a1, a1, b1);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * A native program without frame pointers (built -O2 -fomit-frame-pointer,
 * as distributions build most code), its call chain of known depth crossing
 * its own shared library, also without frame pointers:
 *   main -> nofp_a -> nofp_lib_b -> nofp_lib_c -> nofp_d -> nofp_leaf
 * Every sample of the busy thread is in nofp_leaf. Prints "ready PID", runs
 * for SECONDS (default 10) and exits. With "ticks", prints
 * "tick <CLOCK_MONOTONIC ns> <calls so far>" every 100 ms, so that a
 * benchmark can compare its rate inside and outside recordings.
 * With "clock", nofp_leaf spends its time reading the clock (in the vdso).
 * Usage: nofp [SECONDS] [ticks|clock]
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void nofp_lib_b(unsigned long n, void (*back)(unsigned long));

static double until;
static volatile unsigned long sink;

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static bool in_clock; /* "clock": the leaf reads the clock (the vdso) */

__attribute__((noinline)) void nofp_leaf(unsigned long n)
{
	unsigned long x = n;
	struct timespec ts;

	if (in_clock) {
		for (unsigned long i = 0; i < 20000; i++) {
			clock_gettime(CLOCK_MONOTONIC, &ts);
			x += (unsigned long)ts.tv_nsec;
		}
	} else {
		for (unsigned long i = 0; i < 1000000; i++)
			x = x * 6364136223846793005ul + 1442695040888963407ul;
	}
	sink = x;
}

__attribute__((noinline)) void nofp_d(unsigned long n)
{
	volatile char buf[64];

	memset((char *)buf, (int)n, sizeof(buf));
	nofp_leaf(n + buf[1]);
	buf[2] = 1;
}

__attribute__((noinline)) void nofp_a(unsigned long n)
{
	volatile char buf[200];

	memset((char *)buf, (int)n, sizeof(buf));
	nofp_lib_b(n + buf[4], nofp_d);
	buf[6] = 1;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 10;
	bool ticks = argc > 2 && !strcmp(argv[2], "ticks");

	in_clock = argc > 2 && !strcmp(argv[2], "clock");
	double now, next;

	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	now = wall();
	until = now + secs;
	next = now + 0.1;
	for (unsigned long i = 0; now < until; i++) {
		nofp_a(i);
		now = wall();
		if (ticks && now >= next) {
			printf("tick %.0f %lu\n", now * 1e9, i + 1);
			fflush(stdout);
			next = now + 0.1;
		}
	}
	return 0;
}

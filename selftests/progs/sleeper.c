// SPDX-License-Identifier: GPL-2.0
/*
 * A thread sleeping in a known function: main -> doze -> clock_nanosleep,
 * 1 ms at a time (built with frame pointers; libc's clock_nanosleep keeps
 * none, which hides doze from a frame-pointer walk). Prints "ready PID" and
 * runs for SECONDS (default 10).
 * Usage: sleeper [SECONDS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

__attribute__((noinline)) void doze(void)
{
	struct timespec ts = { 0, 1000000 };

	clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 10;
	struct timespec t0, t;

	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		doze();
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	return 0;
}

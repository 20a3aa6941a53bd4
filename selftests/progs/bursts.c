// SPDX-License-Identifier: GPL-2.0
/*
 * The limit of cpu-clock sampling with short runs between waits: one thread
 * alternates long_run (5 ms of CPU) with short_runs (100 round trips through
 * two pipes to an echo thread, each after BURST_US of CPU). It waits SETTLE
 * seconds, or until the file SETTLE names exists (a path: with a '/'; at
 * most 60 s), for the recorder, runs SECONDS, and prints the thread CPU time
 * of each:
 *   cpu long_run <ms> short_runs <ms>
 * Usage: bursts SETTLE SECONDS BURST_US
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int to_echo[2], from_echo[2];
static volatile unsigned long sink;
static long burst_ns;

static unsigned long long clock_ns(clockid_t c)
{
	struct timespec t;

	clock_gettime(c, &t);
	return t.tv_sec * 1000000000ull + t.tv_nsec;
}

__attribute__((noinline)) static void spin_for(long ns)
{
	unsigned long long end = clock_ns(CLOCK_THREAD_CPUTIME_ID) + ns;

	while (clock_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		sink++;
}

__attribute__((noinline)) void long_run(void)
{
	spin_for(5000000);
	__asm__ volatile("" ::
			     : "memory"); /* no tail call: stays on the stack */
}

__attribute__((noinline)) void short_runs(void)
{
	char c = 0;

	for (int i = 0; i < 100; i++) {
		spin_for(burst_ns);
		if (write(to_echo[1], &c, 1) != 1 ||
		    read(from_echo[0], &c, 1) != 1)
			exit(1);
	}
}

static void *echo(void *arg)
{
	char c;

	while (read(to_echo[0], &c, 1) == 1)
		if (write(from_echo[1], &c, 1) != 1)
			break;
	return arg;
}

int main(int argc, char **argv)
{
	unsigned long long a = 0, b = 0, end;
	pthread_t t;

	if (argc != 4)
		return 2;
	burst_ns = atol(argv[3]) * 1000;
	if (pipe(to_echo) || pipe(from_echo) ||
	    pthread_create(&t, NULL, echo, NULL))
		return 1;
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	if (strchr(argv[1], '/')) {
		for (int i = 0; i < 12000 && access(argv[1], F_OK); i++)
			usleep(5000);
	} else {
		usleep((useconds_t)(atof(argv[1]) * 1e6));
	}
	end = clock_ns(CLOCK_MONOTONIC) +
	      (unsigned long long)(atof(argv[2]) * 1e9);
	while (clock_ns(CLOCK_MONOTONIC) < end) {
		unsigned long long t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID), t1,
				   t2;

		long_run();
		t1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		short_runs();
		t2 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		a += t1 - t0;
		b += t2 - t1;
	}
	printf("cpu long_run %.1f short_runs %.1f\n", a / 1e6, b / 1e6);
	return 0;
}

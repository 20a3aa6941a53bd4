// SPDX-License-Identifier: GPL-2.0
/*
 * A native workload with a known CPU split: each worker thread calls
 * work_a, work_b and work_c in a 50:30:20 ratio of iterations (on average:
 * see worker) and times every call with its own thread CPU clock. After `seconds` it prints the truth:
 *   truth work_a <pct>
 *   truth work_b <pct>
 *   truth work_c <pct>
 * With EVERY_MS it also prints, every EVERY_MS ms and once at the end, the
 * CPU time so far of each (summed over the threads), so that a test can
 * take the truth over exactly the window its recording covers:
 *   cum <CLOCK_MONOTONIC ns> <ns of work_a> <ns of work_b> <ns of work_c>
 * Usage: cpusplit SECONDS [THREADS [EVERY_MS]]
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "timeline.h"

static double seconds;
static volatile unsigned long sink;

static double thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Each function spins in its own loop, so that its samples are its own. */
#define SPIN(n)                                                                \
	do {                                                                   \
		unsigned long x = sink;                                        \
		for (unsigned long i = 0; i < (n); i++)                        \
			x = x * 6364136223846793005UL + 1442695040888963407UL; \
		sink = x;                                                      \
	} while (0)

__attribute__((noinline)) void work_a(unsigned long n)
{
	SPIN(n);
}

__attribute__((noinline)) void work_b(unsigned long n)
{
	SPIN(n);
}

__attribute__((noinline)) void work_c(unsigned long n)
{
	SPIN(n);
}

/*
 * Each round calls the three in a random order, each for a random 50-150%
 * of its iterations: a fixed cycle of 0.3-0.7 ms calls would beat against
 * the sampler's fixed period (aliasing) and move whole pp between them.
 */
static void *worker(void *arg)
{
	void (*fn[3])(unsigned long) = { work_a, work_b, work_c };
	static const unsigned long base[3] = { 500000, 300000, 200000 };
	double end = wall() + seconds;
	unsigned int seed = (unsigned int)(uintptr_t)&end ^
			    (unsigned int)getpid();

	while (wall() < end) {
		int first = rand_r(&seed) % 3, step = 1 + rand_r(&seed) % 2;

		for (int k = 0; k < 3; k++) {
			int i = (first + k * step) % 3;
			unsigned long n =
			    base[i] / 2 +
			    (unsigned long)rand_r(&seed) % base[i];
			double t0 = thread_cpu();

			/* cppcheck 2.10 takes fn, an initialized array of
			 * functions, for uninitialized (a false positive) */
			// cppcheck-suppress uninitvar
			fn[i](n);
			timeline_add(i, thread_cpu() - t0);
		}
	}
	return arg;
}

int main(int argc, char **argv)
{
	int nthreads = argc > 2 ? atoi(argv[2]) : 1;
	long every = argc > 3 ? atol(argv[3]) : 0;
	pthread_t t[64];
	double spent[3], total;

	seconds = argc > 1 ? atof(argv[1]) : 5;
	if (nthreads < 1 || nthreads > 64)
		nthreads = 1;
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	timeline_start(every);
	for (int i = 1; i < nthreads; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	worker(NULL);
	for (int i = 1; i < nthreads; i++)
		pthread_join(t[i], NULL);
	timeline_end();
	for (int i = 0; i < 3; i++)
		spent[i] = timeline_get(i);
	total = spent[0] + spent[1] + spent[2];
	printf("truth work_a %.2f\ntruth work_b %.2f\ntruth work_c %.2f\n",
	       100 * spent[0] / total, 100 * spent[1] / total,
	       100 * spent[2] / total);
	return 0;
}

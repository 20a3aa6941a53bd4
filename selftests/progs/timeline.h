/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A test program's truth as a timeline: TL_N counters of nanoseconds (CPU
 * or blocked time, by what the program does) that its threads add to, and
 * with EVERY_MS > 0 a thread printing them every EVERY_MS ms, and once more
 * at the end (timeline_end), as
 *   cum <CLOCK_MONOTONIC ns> <counter 0> ... <counter TL_N - 1>
 * so that a test can take the truth over the window its recording covers
 * (selftests/lib.sh window_truth), as Truth.java's for the JVMs. One header
 * of static functions: each program is built from its one .c file.
 */
#ifndef PJ_PROGS_TIMELINE_H
#define PJ_PROGS_TIMELINE_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define TL_N 3

static uint64_t tl_ns[TL_N];
static long tl_every_ms;

static double tl_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* counter i += secs (any thread) */
static void timeline_add(int i, double secs)
{
	__atomic_fetch_add(&tl_ns[i], (uint64_t)(secs * 1e9), __ATOMIC_RELAXED);
}

/* counter i so far, in seconds */
static double timeline_get(int i)
{
	return __atomic_load_n(&tl_ns[i], __ATOMIC_RELAXED) / 1e9;
}

static void timeline_print(void)
{
	flockfile(stdout); /* one whole line */
	printf("cum %.0f", tl_now() * 1e9);
	for (int i = 0; i < TL_N; i++)
		printf(" %llu", (unsigned long long)__atomic_load_n(
				    &tl_ns[i], __ATOMIC_RELAXED));
	printf("\n");
	fflush(stdout);
	funlockfile(stdout);
}

static void *timeline_run(void *arg)
{
	struct timespec ts = { tl_every_ms / 1000,
			       (tl_every_ms % 1000) * 1000000 };

	for (;;) {
		timeline_print();
		nanosleep(&ts, NULL);
	}
	return arg;
}

/* starts the timeline's thread when every_ms is in (0, 60000] */
static void timeline_start(long every_ms)
{
	pthread_t t;

	if (every_ms <= 0 || every_ms > 60000)
		return;
	tl_every_ms = every_ms;
	pthread_create(&t, NULL, timeline_run, NULL);
}

/* its last line; after it, stdout stays this thread's (the program's
 * truth follows whole) */
static void timeline_end(void)
{
	flockfile(stdout);
	if (tl_every_ms)
		timeline_print();
}

#endif

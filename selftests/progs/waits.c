// SPDX-License-Identifier: GPL-2.0
/*
 * A workload with known waits, each on its own thread and path:
 *   wait_sleep  nanosleep 20 ms at a time
 *   wait_io     read() from a pipe another thread writes every 15 ms
 *   wait_lock   pthread_mutex_lock on a mutex held 25 ms at a time
 *   wait_never  read() from a pipe nobody writes: blocked from start to end
 * Each thread times its own blocking calls (CLOCK_MONOTONIC around them).
 * After SECONDS it prints the truth, the share of each kind among the time
 * the first three spent blocked:
 *   truth wait_sleep <pct>
 *   truth wait_io <pct>
 *   truth wait_lock <pct>
 *   blocked wait_sleep <ns> (likewise the others)
 *   life <thread> <start ns> <end ns> (CLOCK_MONOTONIC; end "-" for the
 *        never thread, still blocked at exit)
 * With EVERY_MS it also prints, every EVERY_MS ms and once at the end, the
 * time blocked so far of each kind, so that a test can take the truth over
 * exactly the window its recording covers:
 *   cum <CLOCK_MONOTONIC ns> <ns of wait_sleep> <of wait_io> <of wait_lock>
 * Usage: waits SECONDS [EVERY_MS]
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "timeline.h"

static double seconds;
static double t_end;
static int io_pipe[2], never_pipe[2];
static pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER;
static double life[6][2]; /* each thread's start and end (never: start) */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void nap(long ns)
{
	struct timespec ts = { ns / 1000000000, ns % 1000000000 };

	nanosleep(&ts, NULL);
}

__attribute__((noinline)) void wait_sleep(void)
{
	double t = now();

	nap(20000000);
	timeline_add(0, now() - t);
}

__attribute__((noinline)) void wait_io(void)
{
	double t = now();
	char c;

	if (read(io_pipe[0], &c, 1) != 1)
		exit(1);
	timeline_add(1, now() - t);
}

__attribute__((noinline)) void wait_lock(void)
{
	double t = now();

	pthread_mutex_lock(&held);
	timeline_add(2, now() - t);
	pthread_mutex_unlock(&held);
}

__attribute__((noinline)) void wait_never(void)
{
	char c;

	if (read(never_pipe[0], &c, 1) < 0)
		exit(1);
}

static void *sleeper(void *arg __attribute__((unused)))
{
	while (now() < t_end)
		wait_sleep();
	return NULL;
}

static void *reader(void *arg __attribute__((unused)))
{
	while (now() < t_end)
		wait_io();
	return NULL;
}

static void *writer(void *arg __attribute__((unused)))
{
	while (now() < t_end + 0.1) {
		nap(15000000);
		if (write(io_pipe[1], "x", 1) != 1)
			exit(1);
	}
	return NULL;
}

static void *locker(void *arg __attribute__((unused)))
{
	while (now() < t_end) {
		nap(1000000); /* the holder takes it first */
		wait_lock();
	}
	return NULL;
}

static void *holder(void *arg __attribute__((unused)))
{
	while (now() < t_end + 0.1) {
		pthread_mutex_lock(&held);
		nap(25000000);
		pthread_mutex_unlock(&held);
		nap(500000);
	}
	return NULL;
}

static void *never(void *arg __attribute__((unused)))
{
	life[5][0] = now();
	wait_never();
	return NULL;
}

/* each thread of fn[] through its life: its start and end noted */
static void *lived(void *arg)
{
	static void *(*const fn[5])(void *) = { sleeper, reader, writer, locker,
						holder };
	int i = (int)(intptr_t)arg;

	life[i][0] = now();
	fn[i](NULL);
	life[i][1] = now();
	return NULL;
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "wait_sleep", "wait_io",
					     "wait_lock" };
	static const char *const threads[] = { "sleeper", "reader", "writer",
					       "locker",  "holder", "never" };
	long every = argc > 2 ? atol(argv[2]) : 0;
	pthread_t t[5], nv;
	double blocked[3], total = 0;

	seconds = argc > 1 ? atof(argv[1]) : 3;
	if (pipe(io_pipe) || pipe(never_pipe))
		return 1;
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	t_end = now() + seconds;
	timeline_start(every);
	pthread_create(&nv, NULL, never, NULL);
	for (int i = 0; i < 5; i++)
		pthread_create(&t[i], NULL, lived, (void *)(intptr_t)i);
	for (int i = 0; i < 5; i++)
		pthread_join(t[i], NULL);
	timeline_end();
	for (int i = 0; i < 3; i++)
		blocked[i] = timeline_get(i);
	for (int i = 0; i < 3; i++)
		total += blocked[i];
	for (int i = 0; i < 3; i++)
		printf("truth %s %.2f\n", names[i],
		       total > 0 ? 100 * blocked[i] / total : 0);
	for (int i = 0; i < 3; i++)
		printf("blocked %s %.0f\n", names[i], blocked[i] * 1e9);
	for (int i = 0; i < 5; i++)
		printf("life %s %.0f %.0f\n", threads[i], life[i][0] * 1e9,
		       life[i][1] * 1e9);
	printf("life never %.0f -\n", life[5][0] * 1e9);
	fflush(stdout);
	_exit(0); /* the never thread is still blocked */
}

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
 * Usage: waits SECONDS
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double seconds;
static double t_end;
static int io_pipe[2], never_pipe[2];
static pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER;
static double blocked[3];

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
	blocked[0] += now() - t;
}

__attribute__((noinline)) void wait_io(void)
{
	double t = now();
	char c;

	if (read(io_pipe[0], &c, 1) != 1)
		exit(1);
	blocked[1] += now() - t;
}

__attribute__((noinline)) void wait_lock(void)
{
	double t = now();

	pthread_mutex_lock(&held);
	blocked[2] += now() - t;
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
	wait_never();
	return NULL;
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "wait_sleep", "wait_io",
					     "wait_lock" };
	pthread_t t[5], nv;
	void *(*fn[5])(void *) = { sleeper, reader, writer, locker, holder };
	double total = 0;

	seconds = argc > 1 ? atof(argv[1]) : 3;
	if (pipe(io_pipe) || pipe(never_pipe))
		return 1;
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	t_end = now() + seconds;
	pthread_create(&nv, NULL, never, NULL);
	for (int i = 0; i < 5; i++)
		pthread_create(&t[i], NULL, fn[i], NULL);
	for (int i = 0; i < 5; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < 3; i++)
		total += blocked[i];
	for (int i = 0; i < 3; i++)
		printf("truth %s %.2f\n", names[i],
		       total > 0 ? 100 * blocked[i] / total : 0);
	for (int i = 0; i < 3; i++)
		printf("blocked %s %.0f\n", names[i], blocked[i] * 1e9);
	fflush(stdout);
	_exit(0); /* the never thread is still blocked */
}

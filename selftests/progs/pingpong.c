// SPDX-License-Identifier: GPL-2.0
/*
 * Eight threads that take one lock in turn for SECONDS: each spins 50 us
 * holding it, lets it go and sleeps 100 us, so that they switch in and out
 * thousands of times a second on every CPU at once (the rings' writers
 * from several CPUs together: test_inherit). Prints "ready PID", then
 * "done N" with the turns taken.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static double end;
static unsigned long turns;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static void turn(void)
{
	double t;

	pthread_mutex_lock(&lock);
	t = now() + 50e-6;
	while (now() < t)
		;
	turns++;
	pthread_mutex_unlock(&lock);
}

static void *player(void *arg)
{
	while (now() < end) {
		turn();
		usleep(100);
	}
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t t[8];

	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	end = now() + (argc > 1 ? atof(argv[1]) : 3);
	for (int i = 0; i < 8; i++)
		pthread_create(&t[i], NULL, player, NULL);
	for (int i = 0; i < 8; i++)
		pthread_join(t[i], NULL);
	printf("done %lu\n", turns);
	return 0;
}

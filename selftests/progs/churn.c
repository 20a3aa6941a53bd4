// SPDX-License-Identifier: GPL-2.0
/*
 * Creates threads one after another as fast as it can for SECONDS (each
 * spins briefly and exits), for the reader's memory under thread churn
 * (make stress). Prints "ready PID", then "done N" with the threads made.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

static void *work(void *arg)
{
	for (unsigned long i = 0; i < 200000; i++)
		sink += i;
	return arg;
}

int main(int argc, char **argv)
{
	time_t end = time(NULL) + (argc > 1 ? atoi(argv[1]) : 10);
	unsigned long n = 0;

	printf("ready %d\n", getpid());
	fflush(stdout);
	while (time(NULL) < end) {
		pthread_t t;

		if (pthread_create(&t, NULL, work, NULL))
			break;
		pthread_join(t, NULL);
		n++;
	}
	printf("done %lu\n", n);
	return 0;
}

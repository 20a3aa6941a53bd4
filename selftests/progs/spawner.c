// SPDX-License-Identifier: GPL-2.0
/*
 * Starts threads while it runs: it prints "ready PID", waits until the file
 * given as argv[1] exists (the test creates it once the recorder runs), then
 * starts N threads one after another, each named "late-K" and spinning in
 * late_worker for MS ms of CPU (default 200), and exits.
 * Usage: spawner GOFILE [N [MS]]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

static double thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double spin_s = 0.2;

__attribute__((noinline)) void late_worker(void)
{
	double end = thread_cpu() + spin_s;

	while (thread_cpu() < end)
		for (int i = 0; i < 100000; i++)
			sink = sink * 31 + i;
}

static void *run(void *arg)
{
	char name[16];

	snprintf(name, sizeof(name), "late-%ld", (long)arg);
	prctl(PR_SET_NAME, name);
	late_worker();
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[2]) : 4;

	if (argc > 3)
		spin_s = atoi(argv[3]) / 1000.0;

	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	/* Bounded: give up after 30 s without the go file. */
	for (int i = 0; i < 3000 && access(argv[1], F_OK); i++)
		usleep(10000);
	for (long i = 0; i < n; i++) {
		pthread_t t;

		pthread_create(&t, NULL, run, (void *)i);
		pthread_join(t, NULL);
	}
	return 0;
}

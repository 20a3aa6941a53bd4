// SPDX-License-Identifier: GPL-2.0
/*
 * A short program: spins MS ms of its CPU time in burn_work and exits (the
 * processes a script starts, for record's children). With a second
 * argument it first forks a copy of itself that does the same (a process
 * that only forks: its parent's program).
 * Usage: burn MS [fork]
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) void burn_work(double s)
{
	double end = cpu_now() + s;

	while (cpu_now() < end)
		for (int i = 0; i < 100000; i++)
			sink = sink * 31 + i;
}

int main(int argc, char **argv)
{
	double s = argc > 1 ? atoi(argv[1]) / 1000.0 : 0.1;
	pid_t child = argc > 2 ? fork() : -1;

	burn_work(s);
	if (child > 0)
		waitpid(child, NULL, 0);
	return 0;
}

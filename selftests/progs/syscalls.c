// SPDX-License-Identifier: GPL-2.0
/* A syscall-heavy process: writes to /dev/null in a loop for SECONDS, so
 * that its samples are mostly in the kernel's write path. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

__attribute__((noinline)) void write_loop(int fd, double end)
{
	char buf[4096] = { 0 };
	struct timespec ts;

	do {
		for (int i = 0; i < 1000; i++)
			if (write(fd, buf, sizeof(buf)) < 0)
				exit(1);
		clock_gettime(CLOCK_MONOTONIC, &ts);
	} while (ts.tv_sec + ts.tv_nsec / 1e9 < end);
}

int main(int argc, char **argv)
{
	struct timespec ts;
	int fd = open("/dev/null", O_WRONLY);

	clock_gettime(CLOCK_MONOTONIC, &ts);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	write_loop(fd, ts.tv_sec + ts.tv_nsec / 1e9 +
			   (argc > 1 ? atof(argv[1]) : 5));
	return 0;
}

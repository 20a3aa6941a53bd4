// SPDX-License-Identifier: GPL-2.0
/*
 * A workload for the event tests: each round spins (CPU time), touches fresh
 * pages (page faults), writes a watched variable (breakpoints) and naps
 * (context switches, sched_switch with prev_state S), each in its own
 * function so that each event's samples land in a known one:
 *   main -> round -> spin_cpu            cpu-clock, task-clock
 *   main -> round -> touch_fresh_pages   page-faults
 *   main -> round -> bump_watched        mem:&watched:w
 *   main -> round -> nap_in_known_place  context-switches, sched:sched_switch
 * Prints "ready PID ADDR FIRED" (ADDR = &watched; FIRED: the hits a write
 * breakpoint of its own counted for 10 writes, -1 when the kernel refused it)
 * and runs for SECONDS. After each round, its counts so far, for the tests'
 * truth over a recorded window: "cum NS MINFLT NVCSW CPU_NS" (CLOCK_MONOTONIC
 * ns, faults that read no file, voluntary switches, CPU time in ns).
 * Usage: ev_mix SECONDS
 */
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define PAGES 32

volatile long watched;
static volatile long probed;
static volatile unsigned long sink;

/*
 * Whether this machine's breakpoints fire: some hypervisors let the kernel
 * arm one but never deliver its debug exception to the guest, and then
 * every breakpoint event opens and counts nothing.
 */
static long breakpoint_hits(void)
{
	struct perf_event_attr a;
	uint64_t n = 0;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_BREAKPOINT;
	a.bp_type = HW_BREAKPOINT_W;
	a.bp_addr = (uintptr_t)&probed;
	a.bp_len = HW_BREAKPOINT_LEN_8;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0)
		return -1;
	for (int i = 0; i < 10; i++)
		probed = probed + 1;
	if (read(fd, &n, sizeof(n)) != sizeof(n))
		n = 0;
	close(fd);
	return (long)n;
}

__attribute__((noinline)) void spin_cpu(void)
{
	unsigned long x = sink;

	for (unsigned long i = 0; i < 2000000; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
}

__attribute__((noinline)) void touch_fresh_pages(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, PAGES * pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return;
	for (int i = 0; i < PAGES; i++)
		p[i * pg] = (char)i;
	munmap(p, PAGES * pg);
}

__attribute__((noinline)) void bump_watched(void)
{
	for (int i = 0; i < 10; i++)
		watched = watched + 1;
}

/*
 * The nanosleep system call made right here, not through libc: libc's
 * wrapper keeps no frame pointer, which would hide this function from a
 * frame-pointer stack.
 */
__attribute__((noinline)) void nap_in_known_place(void)
{
	struct timespec ts = { 0, 2000000 };
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"((long)SYS_nanosleep), "D"(&ts), "S"(0L)
			 : "rcx", "r11", "memory");
	(void)ret;
}

__attribute__((noinline)) void round_once(void)
{
	spin_cpu();
	touch_fresh_pages();
	bump_watched();
	nap_in_known_place();
}

static void print_counts(void)
{
	struct rusage ru;
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (getrusage(RUSAGE_SELF, &ru))
		return;
	printf("cum %lld %ld %ld %lld\n", ts.tv_sec * 1000000000LL + ts.tv_nsec,
	       ru.ru_minflt, ru.ru_nvcsw,
	       (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
		   (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL);
	fflush(stdout);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 10, end = now() + secs;
	long fired = breakpoint_hits();

	printf("ready %d %p %ld\n", getpid(), (void *)&watched, fired);
	fflush(stdout);
	while (now() < end) {
		round_once();
		print_counts();
	}
	return 0;
}

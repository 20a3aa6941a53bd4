// SPDX-License-Identifier: GPL-2.0
/*
 * sigfloor SECONDS ROUNDS: what the kernel's sample and its SIGTRAP cost a
 * thread on this machine with no JVM and no walk, the floor under
 * perfjava's per-sample cost (selftests/bench/bench_walk_split.sh).
 *
 * The main thread reads CLOCK_MONOTONIC in a tight loop and keeps every
 * step longer than 1 us (a gap: time taken from it) while a cpu-clock
 * event samples it every 1 ms as perfjava's default call graph does (the
 * kernel's chain, the user registers and 1 KiB of the user stack). A second
 * thread drains the event's ring, as perfjava's reader does, and keeps each
 * sample's time. The gap that holds a sample's time is its whole cost to
 * the thread. Each round has two windows of SECONDS:
 *   sample  the event alone
 *   trap    the event with perf_event_attr.sigtrap, to a handler that
 *           returns at once (installed as the agent installs its own)
 * Printed per window: "WINDOW ROUND median_us mean_us samples" (the mean
 * leaves out gaps over 1 ms: preemptions). The difference of the two is
 * the signal's delivery and return, the part of a sample that no walker at
 * the sample can avoid.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define PAGES 64
#define MAX_GAPS (1u << 20)
#define MAX_SAMPLES (1u << 18)
#define COPY 1024

static uint64_t gap_start[MAX_GAPS], gap_len[MAX_GAPS], times[MAX_SAMPLES];
static unsigned int ngaps, nsamples;
static atomic_int done;
static struct perf_event_mmap_page *meta;
static volatile sig_atomic_t traps;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void on_trap(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	(void)uc;
	traps++;
}

/* Each sample's time: after the header, the ip and the pid/tid (the
 * kernel's order); records that wrap the ring's end read piecewise. */
static void drain(void)
{
	const unsigned char *data = (const unsigned char *)meta + 4096;
	uint64_t size = PAGES * 4096ull, mask = size - 1;
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = meta->data_tail;

	while (tail + sizeof(struct perf_event_header) <= head) {
		struct perf_event_header h = { 0, 0, 0 };
		uint64_t t = 0;
		unsigned int i;

		for (i = 0; i < sizeof(h); i++)
			((unsigned char *)&h)[i] = data[(tail + i) & mask];
		if (h.size < sizeof(h) || tail + h.size > head)
			break;
		if (h.type == PERF_RECORD_SAMPLE &&
		    h.size >= sizeof(h) + 16 + sizeof(t) &&
		    nsamples < MAX_SAMPLES) {
			for (i = 0; i < sizeof(t); i++)
				((unsigned char *)&t)[i] =
				    data[(tail + sizeof(h) + 16 + i) & mask];
			times[nsamples++] = t;
		}
		tail += h.size;
	}
	__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
}

static void *reader(void *arg)
{
	struct timespec ts = { 0, 5000000 };

	(void)arg;
	while (!atomic_load(&done)) {
		drain();
		nanosleep(&ts, NULL);
	}
	drain();
	return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* One window: the gaps of the spin, then each sample's gap. */
static int window(const char *name, int round, int trap, double seconds)
{
	struct perf_event_attr a;
	static uint64_t held[MAX_SAMPLES];
	uint64_t end, prev, t, sum = 0;
	unsigned int i, j = 0, n = 0, m = 0;
	pthread_t th;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = 1000000;
	a.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
			PERF_SAMPLE_STACK_USER;
	a.sample_regs_user = 0xff01ff; /* perfjava's (unwind/unwind.h) */
	a.sample_stack_user = COPY;
	a.use_clockid = 1;
	a.clockid = CLOCK_MONOTONIC;
	a.disabled = 1;
	a.sigtrap = trap;
	a.remove_on_exec = trap; /* the kernel asks it of sigtrap */
	a.sig_data = 1;
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0) {
		fprintf(stderr, "sigfloor: perf_event_open: %s\n",
			strerror(errno));
		return -1;
	}
	meta = mmap(NULL, (PAGES + 1) * 4096ul, PROT_READ | PROT_WRITE,
		    MAP_SHARED, fd, 0);
	if (meta == MAP_FAILED) {
		fprintf(stderr, "sigfloor: mmap: %s\n", strerror(errno));
		close(fd);
		return -1;
	}
	ngaps = nsamples = 0;
	atomic_store(&done, 0);
	if (pthread_create(&th, NULL, reader, NULL)) {
		fprintf(stderr, "sigfloor: no reader thread\n");
		return -1;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	prev = now_ns();
	end = prev + (uint64_t)(seconds * 1e9);
	for (;;) {
		t = now_ns();
		if (t - prev > 1000 && ngaps < MAX_GAPS) {
			gap_start[ngaps] = prev;
			gap_len[ngaps++] = t - prev;
		}
		prev = t;
		if (t >= end)
			break;
	}
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	atomic_store(&done, 1);
	pthread_join(th, NULL);
	munmap(meta, (PAGES + 1) * 4096ul);
	close(fd);
	/* samples and gaps both in time order */
	qsort(times, nsamples, sizeof(times[0]), cmp_u64);
	for (i = 0; i < nsamples; i++) {
		while (j < ngaps && gap_start[j] + gap_len[j] < times[i])
			j++;
		if (j < ngaps && gap_start[j] <= times[i]) {
			held[n++] = gap_len[j];
			if (gap_len[j] < 1000000) {
				sum += gap_len[j];
				m++;
			}
		}
	}
	if (!n) {
		printf("%s %d - - 0\n", name, round);
		return 0;
	}
	qsort(held, n, sizeof(held[0]), cmp_u64);
	printf("%s %d %.2f %.2f %u\n", name, round, held[(n - 1) / 2] / 1000.0,
	       m ? (double)sum / m / 1000.0 : 0.0, n);
	fflush(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	double seconds = argc > 1 ? atof(argv[1]) : 3;
	int rounds = argc > 2 ? atoi(argv[2]) : 2, r;

	if (seconds <= 0 || seconds > 60 || rounds < 1 || rounds > 20) {
		fprintf(stderr, "usage: sigfloor SECONDS(<=60) ROUNDS(<=20)\n");
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
	if (sigaction(SIGTRAP, &sa, NULL)) {
		perror("sigfloor: sigaction");
		return 1;
	}
	for (r = 1; r <= rounds; r++)
		if (window("sample", r, 0, seconds) ||
		    window("trap", r, 1, seconds))
			return 1;
	fprintf(stderr, "sigfloor: %d signals\n", (int)traps);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/* make bench's turns; see rings/benchturn.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "lib/clock.h"
#include "perfjava/agent_proto.h"
#include "rings/benchturn.h"
#include "rings/ring.h"
#include "rings/threads.h"

enum ring_alt bench_from_env(void)
{
	const char *v = getenv("PERFJAVA_BENCH");
	enum ring_alt a = !v			  ? RING_ALT_NONE
			  : !strcmp(v, "alt")	  ? RING_ALT_SIGNAL
			  : !strcmp(v, "alt-all") ? RING_ALT_ALL
						  : RING_ALT_NONE;

	if (a != RING_ALT_NONE)
		fprintf(stderr,
			"perfjava: PERFJAVA_BENCH=%s: a benchmark's recording, "
			"%s in every other %llu ms only\n",
			v,
			a == RING_ALT_SIGNAL ? "the Java walk"
					     : "samples and wake-ups",
			PJA_BENCH_ALT_NS / 1000000);
	return a;
}

/*
 * The first event again, without its signal, its records and what tracks
 * the thread, writing into r; its samples are the first event's, and the
 * reader takes them as --no-java does (pipeline/decode.h).
 */
static int open_twin(struct ring *r, const struct perf_event_attr *first)
{
	struct perf_event_attr a = *first;
	int fd;

	a.sigtrap = a.remove_on_exec = 0;
	a.sig_data = 0;
	a.task = a.comm = a.comm_exec = a.mmap = a.mmap2 = 0;
	a.disabled = 1;
	a.enable_on_exec = 0;
	fd = (int)syscall(SYS_perf_event_open, &a, r->tid, -1, -1,
			  PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, PERF_EVENT_IOC_ID, &r->twin_id) < 0 ||
	    ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, r->fd) < 0) {
		close(fd);
		return -EINVAL;
	}
	r->twin_fd = fd;
	return 0;
}

void bench_ring_opened(struct ring *r, const struct perf_event_attr *first,
		       const struct ring_opts *o, int cpu)
{
	if (o->alt == RING_ALT_NONE || cpu >= 0 || o->enable_on_exec)
		return;
	if (o->alt == RING_ALT_SIGNAL && (r->trapped & 1) && first &&
	    !open_twin(r, first))
		r->alt = RING_ALT_SIGNAL;
	if (o->alt == RING_ALT_ALL)
		r->alt = RING_ALT_ALL;
}

/* r's turn: the first event in the even periods (odd false), its twin
 * (if any) in the odd ones; alt-all's first event in the even ones only */
static void ring_turn(struct ring *r, bool odd)
{
	if (r->fd < 0 || r->alt == RING_ALT_NONE)
		return;
	if (r->alt == RING_ALT_ALL) {
		ioctl(r->fds[0],
		      odd ? PERF_EVENT_IOC_DISABLE : PERF_EVENT_IOC_ENABLE, 0);
		return;
	}
	/* never both at once: the one leaving first */
	ioctl(odd ? r->fds[0] : r->twin_fd, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(odd ? r->twin_fd : r->fds[0], PERF_EVENT_IOC_ENABLE, 0);
}

void bench_ring_enable(struct ring *r)
{
	if (r->alt != RING_ALT_NONE)
		ring_turn(r, now_ns() / PJA_BENCH_ALT_NS & 1);
}

void bench_ring_disable(struct ring *r)
{
	if (r->twin_fd >= 0)
		ioctl(r->twin_fd, PERF_EVENT_IOC_DISABLE, 0);
}

void bench_ring_close(struct ring *r)
{
	if (r->twin_fd >= 0)
		close(r->twin_fd);
	r->twin_fd = -1;
}

bool bench_turn(struct threads *t, uint64_t now, uint64_t *next)
{
	if (now >= *next) {
		if (t->enabled && t->opts.alt)
			for (unsigned int i = 0; i < t->n; i++)
				ring_turn(t->v[i], now / PJA_BENCH_ALT_NS & 1);
		*next = (now / PJA_BENCH_ALT_NS + 1) * PJA_BENCH_ALT_NS;
	}
	return t->opts.alt == RING_ALT_ALL && now / PJA_BENCH_ALT_NS & 1;
}

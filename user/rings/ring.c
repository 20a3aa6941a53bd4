// SPDX-License-Identifier: GPL-2.0
/* Per-thread perf rings through libperf; see rings/ring.h. */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <perf/core.h>
#include <perf/cpumap.h>
#include <perf/event.h>
#include <perf/evlist.h>
#include <perf/evsel.h>
#include <perf/threadmap.h>

#include "lib/clock.h"
#include "lib/file.h"
#include "perfjava/agent_proto.h"
#include "rings/benchturn.h"
#include "rings/cpurings.h"
#include "rings/ring.h"

static int quiet_print(enum libperf_print_level level, const char *fmt,
		       va_list ap)
{
	return 0;
}

void ring_init(void)
{
	libperf_init(quiet_print);
}

/* (libperf as scripts/libperf-6.1.patch makes it: perf_evsel__fd, and
 * evsels that drop their maps when deleted.) */

/*
 * A context-switch counter in the group of the clock event (fd), counting
 * while it does. Kernel mode is where switches happen: a counter that
 * excludes it reads 0, so none is opened when the kernel is excluded.
 */
static int open_switch_counter(pid_t tid, int cpu, int leader,
			       const struct ring *r)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_SW_CONTEXT_SWITCHES,
		.read_format = PERF_FORMAT_GROUP,
		.use_clockid = 1, /* a group has one clock */
		.clockid = CLOCK_MONOTONIC,
		/* a group is inherited whole, or not */
		.inherit = r->inherit,
		.inherit_thread = r->inherit && !r->inherit_procs,
	};

	return (int)syscall(SYS_perf_event_open, &a, tid, cpu, leader,
			    PERF_FLAG_FD_CLOEXEC);
}

/* The clock event's fd on the kth CPU of an inherited ring. */
static int first_fd_on(const struct ring *r, int k)
{
	struct perf_evsel *first = perf_evlist__next(r->evlist, NULL);

	return first ? perf_evsel__fd(first, k, 0) : -1;
}

/* The switch counters of r (sw_fd, or one per CPU), or none (-1). */
static void open_switch_counters(struct ring *r,
				 const struct perf_cpu_map *cpus)
{
	int ncpu = r->inherit ? perf_cpu_map__nr(cpus) : 0;

	r->sw_fd = -1;
	if (!ncpu) {
		r->sw_fd = open_switch_counter(r->tid, -1, r->fds[0], r);
		return;
	}
	r->sw_fds = malloc((size_t)ncpu * sizeof(*r->sw_fds));
	for (int k = 0; r->sw_fds && k < ncpu; k++) {
		r->sw_fds[k] =
		    open_switch_counter(r->tid, perf_cpu_map__cpu(cpus, k).cpu,
					first_fd_on(r, k), r);
		if (r->sw_fds[k] < 0) {
			while (k-- > 0)
				close(r->sw_fds[k]);
			free(r->sw_fds);
			r->sw_fds = NULL;
			return;
		}
	}
	if (r->sw_fds)
		r->sw_fd = r->sw_fds[0];
}

static void close_switch_counters(struct ring *r)
{
	if (r->sw_fds) {
		for (unsigned int k = 0; k < r->ncpus; k++)
			close(r->sw_fds[k]);
		free(r->sw_fds);
		r->sw_fds = NULL;
	} else if (r->sw_fd >= 0) {
		close(r->sw_fd);
	}
	r->sw_fd = -1;
}

/* The ring mapped by the first event, every other event's records
 * redirected to it. */
static int map_ring(struct ring *r, unsigned int pages)
{
	size_t page = (size_t)getpagesize();
	void *p;

	r->size = (uint64_t)pages * page;
	p = mmap(NULL, page + r->size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 r->fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	r->base = p;
	for (unsigned int i = 1; i < r->nevents; i++)
		if (ioctl(r->fds[i], PERF_EVENT_IOC_SET_OUTPUT, r->fd) < 0)
			return -errno;
	return 0;
}

static void unmap_ring(struct ring *r)
{
	if (r->base)
		munmap(r->base, (size_t)getpagesize() + r->size);
	r->base = NULL;
}

static int ring_open_once(struct ring *r, pid_t tid, int cpu,
			  const struct pj_event *evs, unsigned int n,
			  const struct ring_opts *o, unsigned int *bad_event)
{
	struct perf_thread_map *threads = NULL;
	struct perf_cpu_map *cpus = NULL;
	struct perf_evsel *evsel;
	const struct perf_event_attr *first = NULL;
	unsigned int i = 0;
	int err = -ENOMEM;

	memset(r, 0, sizeof(*r));
	r->tid = tid;
	r->pid = cpu >= 0 ? -1 : 0;
	r->cpu = cpu >= 0 ? cpu : 0;
	r->fd = -1;
	r->sw_fd = -1;
	r->twin_fd = -1;
	r->opened_ns = now_ns();
	r->inherit = o->inherit && cpu < 0;
	/* a child process would meet the signal at its exec, or once its
	 * handlers are reset (posix_spawn): threads alone then */
	r->inherit_procs = r->inherit && !o->inherit_thread && !o->sigtrap;
	r->sample_type = o->sample_type;
	if (o->count_switches && n == 1 && !o->exclude_kernel && cpu < 0 &&
	    event_is_clock(&evs[0]) && !o->alt)
		r->sample_type |= PERF_SAMPLE_READ;
	r->branch_sample_type = o->branch_sample_type;
	r->regs_user = o->regs_user;
	*bad_event = 0;
	if (n > RING_MAX_EVENTS)
		return -E2BIG;
	threads = perf_thread_map__new_array(1, &tid);
	if (cpu >= 0) { /* a CPU's ring: every thread on it (tid -1) */
		char list[16];

		snprintf(list, sizeof(list), "%d", cpu);
		cpus = perf_cpu_map__new(list);
	} else if (r->inherit) { /* each CPU's, into its shared ring */
		cpus = perf_cpu_map__new(NULL);
	} else {
		cpus = perf_cpu_map__dummy_new(); /* "any CPU": a thread's */
	}
	r->evlist = perf_evlist__new();
	if (!threads || !cpus || !r->evlist)
		goto fail;
	/* (without them, ring_open tries again without inheriting) */
	if (r->inherit && (err = cpu_rings_make(cpus, ring_cpu_pages(o->pages),
						o->pages)) < 0)
		goto fail;
	for (i = 0; i < n; i++) {
		struct perf_event_attr attr = evs[i].attr;

		attr.size = sizeof(attr);
		attr.sample_type = r->sample_type;
		if (r->sample_type & PERF_SAMPLE_READ)
			attr.read_format = PERF_FORMAT_GROUP;
		attr.branch_sample_type = o->branch_sample_type;
		attr.sample_regs_user = o->regs_user;
		/* an event may copy more of the stack than the others */
		/* (not on a CPU's ring: a JVM's 8 KiB switch-out copies
		 * would be every process's there) */
		if (!(attr.sample_stack_user > o->stack_user &&
		      o->stack_user) ||
		    cpu >= 0)
			attr.sample_stack_user = o->stack_user;
		attr.disabled = 1;
		attr.enable_on_exec = o->enable_on_exec;
		attr.sample_id_all = 1;
		attr.use_clockid = 1;
		attr.clockid = CLOCK_MONOTONIC;
		attr.sample_max_stack = o->max_stack;
		if (o->exclude_kernel) {
			attr.exclude_kernel = 1;
			attr.exclude_hv = 1;
		}
		if (o->exclude_kernel || attr.exclude_kernel)
			attr.exclude_callchain_kernel = 1;
		if (o->no_user_callchain)
			attr.exclude_callchain_user = 1;
		attr.inherit = r->inherit;
		attr.inherit_thread = r->inherit && !r->inherit_procs;
		if (i == 0 && o->track) {
			attr.task = 1;
			attr.comm = 1;
			attr.comm_exec = 1; /* an exec says so (misc) */
			attr.mmap = attr.mmap2 = o->mmaps;
		}
		if (o->sigtrap & (1u << i)) {
			/* sig_data (the fd) is set just before the open */
			attr.sigtrap = 1;
			attr.remove_on_exec = 1;
		}
		/* an event that asks for a watermark keeps it */
		if (o->wakeup_events && !attr.sigtrap && !attr.watermark) {
			attr.wakeup_events = o->wakeup_events;
		} else {
			/* a wake-up per sample is an interrupt the CPU
			 * sends itself: a signal at the sample goes without.
			 * The kernel wakes the reader each time this many
			 * bytes were written, read or not: at half the ring
			 * (as perf); the reader's periodic drain (run.c)
			 * empties it long before */
			attr.watermark = 1;
			attr.wakeup_watermark = o->pages * getpagesize() / 2;
		}
		evsel = perf_evsel__new(&attr);
		if (!evsel)
			goto fail;
		perf_evlist__add(r->evlist, evsel);
	}
	perf_evlist__set_maps(r->evlist, cpus, threads);
	i = 0;
	perf_evlist__for_each_evsel (r->evlist, evsel) {
		int fd;

		/* a signal of its own names the event by its fd (si_fd, once
		 * routed: ring_route); SIGTRAP by what sig_data says */
		r->keys[i] = perf_evsel__attr(evsel)->sigtrap ? RING_TRAP_KEY(i)
							      : -1;
		if (perf_evsel__attr(evsel)->sigtrap)
			perf_evsel__attr(evsel)->sig_data =
			    PJA_TRAP_DATA(r->keys[i]);
		err = perf_evsel__open(evsel, cpus, threads);
		if (err < 0)
			goto fail;
		fd = perf_evsel__fd(evsel, 0, 0);
		if (fd < 0) {
			err = -EBADF;
			goto fail;
		}
		if (i == 0) {
			r->fd = fd;
			first = perf_evsel__attr(evsel);
		}
		r->fds[i] = fd;
		if (r->keys[i] == -1)
			r->keys[i] = fd;
		if (ioctl(fd, PERF_EVENT_IOC_ID, &r->ids[i]) < 0)
			r->ids[i] = 0;
		i++;
	}
	r->nevents = n;
	r->trapped = o->sigtrap & ((1u << n) - 1);
	err = r->inherit ? cpu_rings_share(r, cpus) : map_ring(r, o->pages);
	if (err < 0) {
		i = RING_BAD_MMAP;
		goto fail;
	}
	if (r->sample_type & PERF_SAMPLE_READ) /* (after: ncpus) */
		open_switch_counters(r, cpus);
	bench_ring_opened(r, first, o, cpu);
	perf_thread_map__put(threads);
	perf_cpu_map__put(cpus);
	return 0;
fail:
	*bad_event = i < n || i == RING_BAD_MMAP ? i : 0;
	unmap_ring(r);
	close_switch_counters(r);
	cpu_rings_unshare(r);
	if (r->evlist)
		perf_evlist__delete(r->evlist);
	r->evlist = NULL;
	r->fd = -1;
	perf_thread_map__put(threads);
	perf_cpu_map__put(cpus);
	return err < 0 ? err : -EINVAL;
}

int ring_open(struct ring *r, pid_t tid, const struct pj_event *evs,
	      unsigned int n, const struct ring_opts *o,
	      unsigned int *bad_event)
{
	struct ring_opts less = *o;
	int err;

	for (;;) {
		err = ring_open_once(r, tid, -1, evs, n, &less, bad_event);
		if (err >= 0 || err == -ESRCH || err == -EMFILE ||
		    err == -ENFILE || *bad_event == RING_BAD_MMAP)
			return err;
		if (less.inherit && less.count_switches) {
			/* inherited events read at the sample: Linux 6.12 */
			less.count_switches = false;
		} else if (less.sigtrap) {
			/* a kernel before 5.13, or one that wants ptrace
			 * rights for it; the signal is then routed to the
			 * thread by its fd, which its children do not share */
			less.sigtrap = 0;
			less.inherit = false;
		} else if (less.inherit) {
			less.inherit = false;
		} else {
			return err;
		}
	}
}

int ring_open_cpu(struct ring *r, int cpu, const struct pj_event *evs,
		  unsigned int n, const struct ring_opts *o,
		  unsigned int *bad_event)
{
	struct ring_opts every = *o;

	/* a signal at the sample would go to whatever thread ran: never */
	every.sigtrap = 0;
	every.enable_on_exec = false;
	return ring_open_once(r, -1, cpu, evs, n, &every, bad_event);
}

void ring_enable(struct ring *r)
{
	if (r->evlist)
		perf_evlist__enable(r->evlist);
	bench_ring_enable(r);
}

void ring_disable(struct ring *r)
{
	if (r->evlist)
		perf_evlist__disable(r->evlist);
	bench_ring_disable(r);
}

/* What ring_peek takes ahead of the samples: what a task is (its start,
 * its name and program, its maps), not what happens in time (switches,
 * exits), which keeps its place among them. */
static bool peeked_type(uint32_t type)
{
	return type == PERF_RECORD_FORK || type == PERF_RECORD_COMM ||
	       type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2;
}

unsigned int ring_drain_max(struct ring *r, ring_record_cb cb, void *ctx,
			    unsigned int max)
{
	struct perf_event_mmap_page *pg = r->base;
	const struct perf_event_header *h;
	uint64_t head, tail, start;
	unsigned int n = 0;

	if (!pg)
		return r->xids ? cpu_rings_drain(r, cb, ctx, max) : 0;
	start = now_ns(); /* what was written by then is read below */
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	tail = pg->data_tail;
	while (n < max && (h = ring_record_at(r, tail, head))) {
		bool seen = tail < r->peeked && peeked_type(h->type);

		tail += h->size;
		if (!seen) /* (ring_peek's already) */
			cb(ctx, r, h);
		/* the kernel may write over it from now on */
		__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
		n++;
	}
	if (n < max)
		r->drained_ns = start;
	return n;
}

void ring_peek(struct ring *r, ring_record_cb cb, void *ctx)
{
	struct perf_event_mmap_page *pg = r->base;
	const struct perf_event_header *h;
	uint64_t head, pos;

	if (!pg)
		return;
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	pos = pg->data_tail > r->peeked ? pg->data_tail : r->peeked;
	for (; (h = ring_record_at(r, pos, head)); pos += h->size)
		if (peeked_type(h->type))
			cb(ctx, r, h);
	r->peeked = pos;
}

unsigned int ring_drain(struct ring *r, ring_record_cb cb, void *ctx)
{
	return ring_drain_max(r, cb, ctx, UINT_MAX);
}

void ring_close(struct ring *r)
{
	close_switch_counters(r);
	bench_ring_close(r);
	unmap_ring(r);
	cpu_rings_unshare(r);
	if (!r->evlist)
		return;
	perf_evlist__delete(r->evlist);
	r->evlist = NULL;
	r->fd = -1;
}

int ring_route(struct ring *r, unsigned int i, int signo)
{
	struct f_owner_ex own = { F_OWNER_TID, r->tid };
	int fd = i < r->nevents ? r->fds[i] : -1, fl;

	if (fd < 0 || !r->evlist)
		return -EBADF;
	fl = fcntl(fd, F_GETFL);
	if (fl < 0)
		return -errno;
	if (!signo) {
		r->routed &= ~(1u << i);
		return fcntl(fd, F_SETFL, fl & ~O_ASYNC) ? -errno : 0;
	}
	/* the signal first: an owner without it would be sent SIGIO */
	if (fcntl(fd, F_SETSIG, signo) || fcntl(fd, F_SETOWN_EX, &own) ||
	    fcntl(fd, F_SETFL, fl | O_ASYNC))
		return -errno;
	if (!r->routed)
		r->routed_at = now_ns();
	r->routed |= 1u << i;
	return 0;
}

/* r's clock event's time and switch count (an inherited ring's summed over
 * its CPUs' events). */
static int read_counts(const struct ring *r, uint64_t *event_ns,
		       uint64_t *switches)
{
	uint64_t v[1 + 2];
	ssize_t n;

	*event_ns = *switches = 0;
	for (unsigned int k = 0; k < (r->sw_fds ? r->ncpus : 1); k++) {
		n = read(r->sw_fds ? first_fd_on(r, (int)k) : r->fds[0], v,
			 sizeof(v));
		if (n != (ssize_t)sizeof(v) || v[0] != 2)
			return -1;
		*event_ns += v[1];
		*switches += v[2];
	}
	return 0;
}

int ring_read_clocks(const struct ring *r, struct ring_clocks *c)
{
	uint64_t after_ns, after_sw;
	char path[64], buf[128], *end;

	/* an inherited event counts its thread's children too */
	if (r->sw_fd < 0 || r->exited || r->carrier)
		return -1;
	/* the counts on both sides of the scheduler's, their mean taken: the
	 * thread runs on while /proc is read (a preempted reader: ms) */
	if (read_counts(r, &c->event_ns, &c->switches))
		return -1;
	/* the first field: time on a CPU, ns (CONFIG_SCHED_INFO) */
	snprintf(path, sizeof(path), "/proc/%d/schedstat", r->tid);
	if (read_small_file(path, buf, sizeof(buf)) ||
	    read_counts(r, &after_ns, &after_sw) || after_ns < c->event_ns)
		return -1;
	c->event_ns += (after_ns - c->event_ns) / 2;
	errno = 0;
	c->thread_ns = strtoull(buf, &end, 10);
	if (errno || end == buf || *end != ' ')
		return -1;
	return 0;
}

unsigned int ring_event_index(const struct ring *r, uint64_t id)
{
	for (unsigned int i = 0; i < r->nevents; i++)
		if (r->ids[i] == id)
			return i;
	/* an inherited event's on another CPU */
	for (unsigned int j = 0; r->xids && j < r->nevents * r->ncpus; j++)
		if (r->xids[j] == id)
			return j / r->ncpus;
	return 0;
}

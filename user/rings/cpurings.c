// SPDX-License-Identifier: GPL-2.0
/* The CPUs' shared rings of inherited events; see rings/cpurings.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <perf/cpumap.h>
#include <perf/evlist.h>
#include <perf/evsel.h>

#include "lib/clock.h"
#include "lib/u64map.h"
#include "rings/cpurings.h"
#include "rings/ring.h"

/* A record that wraps around the ring's end, made whole. */
static uint64_t whole[65536 / 8];

/* The record of r at pos, whole (in whole when it wraps): NULL past head,
 * or when it is not the kernel's (then the ring is read no further). */
const struct perf_event_header *ring_record_at(const struct ring *r,
					       uint64_t pos, uint64_t head)
{
	const uint8_t *data = (const uint8_t *)r->base + getpagesize();
	uint64_t off = pos & (r->size - 1), first;
	/* records are 8-byte aligned: a header never wraps */
	const struct perf_event_header *h = (const void *)(data + off);

	if (head - pos < sizeof(*h) || h->size < sizeof(*h) ||
	    h->size > head - pos)
		return NULL;
	if (off + h->size > r->size) {
		first = r->size - off;
		memcpy(whole, data + off, first);
		memcpy((uint8_t *)whole + first, data, h->size - first);
		h = (const void *)whole;
	}
	return h;
}

/*
 * Inherited events write into their CPU's shared ring, never a thread's
 * own. The kernel's ring takes one writer at a time (its head and nesting
 * count are CPU-local atomics), which a thread's ring is: its thread runs
 * on one CPU at a time. The tasks that inherit a thread's events write
 * where it does, from any CPU, at once: into one ring they lose its head
 * for good (measured here: every record of a launched program gone after
 * 0.1-3 s, 2 CPUs). An event bound to a CPU writes on that CPU alone, so
 * inherited events are opened per CPU, each CPU's writing into that CPU's
 * ring (as perf's are); a record is told by its event's id whose ring
 * object it is (the kernel names a task's inherited event by its
 * parent's id).
 */
struct cpu_ring {
	struct ring r; /* fd: the owner, a dummy event of the reader's */
	/* a drain's (cpu_rings_drain): where it reads, up to where, and
	 * whether there is a record there, of which ring, written when */
	uint64_t tail, head;
	bool more;
	struct ring *owner;
	uint64_t time;
};
static struct cpu_ring *cpu_rings;
static unsigned int ncpu_rings;
static int cpu_rings_err; /* why they could not be made (-errno) */
static struct u64map by_id; /* an inherited event's id -> its ring */
static uint64_t orphans; /* records of rings closed since */
static bool in_cpu_drain;
static uint64_t unshared; /* rings gone from by_id, ever */

/* The owner of CPU cpu's shared ring: an event of the reader's own that
 * never samples, on the events' clock (PERF_EVENT_IOC_SET_OUTPUT wants
 * one), waking a poller when the ring is half full. */
static int open_owner(int cpu, unsigned int pages)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_SW_DUMMY,
		.use_clockid = 1,
		.clockid = CLOCK_MONOTONIC,
		.watermark = 1,
		.wakeup_watermark = pages * (unsigned int)getpagesize() / 2,
	};
	int fd = (int)syscall(SYS_perf_event_open, &a, getpid(), cpu, -1,
			      PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* The shared rings of the CPUs in cpus, made at the first inherited
 * ring with pages data pages each (fewer where the kernel's limit on
 * locked memory says so, down to min). 0 or -errno. */
int cpu_rings_make(const struct perf_cpu_map *cpus, unsigned int pages,
		   unsigned int min)
{
	int n = perf_cpu_map__nr(cpus);
	size_t page = (size_t)getpagesize();

	if (cpu_rings || cpu_rings_err)
		return cpu_rings_err;
	cpu_rings = n > 0 ? calloc((size_t)n, sizeof(*cpu_rings)) : NULL;
	if (!cpu_rings)
		return cpu_rings_err = -ENOMEM;
	for (int k = 0; k < n; k++) {
		struct ring *m = &cpu_rings[k].r;
		unsigned int p = pages;
		void *b = MAP_FAILED;

		m->cpu = perf_cpu_map__cpu(cpus, k).cpu;
		m->tid = m->pid = -1;
		m->fd = open_owner(m->cpu, p);
		if (m->fd < 0) {
			cpu_rings_err = m->fd;
			break;
		}
		ncpu_rings = (unsigned int)k + 1;
		for (; p >= min; p /= 2) {
			b = mmap(NULL, page + p * page, PROT_READ | PROT_WRITE,
				 MAP_SHARED, m->fd, 0);
			if (b != MAP_FAILED ||
			    (errno != EPERM && errno != ENOMEM))
				break;
		}
		if (b == MAP_FAILED) {
			cpu_rings_err = -errno;
			break;
		}
		m->base = b;
		m->size = (uint64_t)p * page;
	}
	return cpu_rings_err;
}

/* The shared ring of cpu, or NULL. */
static struct ring *cpu_ring_of(int cpu)
{
	for (unsigned int k = 0; k < ncpu_rings; k++)
		if (cpu_rings[k].r.cpu == cpu && cpu_rings[k].r.base)
			return &cpu_rings[k].r;
	return NULL;
}

void ring_fini(void)
{
	for (unsigned int k = 0; k < ncpu_rings; k++) {
		struct ring *m = &cpu_rings[k].r;

		if (m->base)
			munmap(m->base, (size_t)getpagesize() + m->size);
		if (m->fd >= 0)
			close(m->fd);
	}
	free(cpu_rings);
	cpu_rings = NULL;
	ncpu_rings = 0;
	cpu_rings_err = 0;
	u64map_free(&by_id);
}

uint64_t ring_orphans(void)
{
	return orphans;
}

/* Every event of r, on every CPU, writing into that CPU's shared ring and
 * known by its id. 0 or -errno. */
int cpu_rings_share(struct ring *r, const struct perf_cpu_map *cpus)
{
	int ncpu = perf_cpu_map__nr(cpus);
	struct perf_evsel *evsel;
	unsigned int i = 0;

	if (!(r->sample_type & PERF_SAMPLE_IDENTIFIER)) /* (record_id) */
		return -EINVAL;
	r->xids = calloc((size_t)r->nevents * (size_t)ncpu, sizeof(*r->xids));
	if (!r->xids)
		return -ENOMEM;
	r->ncpus = (unsigned int)ncpu;
	perf_evlist__for_each_evsel (r->evlist, evsel) {
		for (int k = 0; k < ncpu; k++) {
			int fd = perf_evsel__fd(evsel, k, 0);
			struct ring *m =
			    cpu_ring_of(perf_cpu_map__cpu(cpus, k).cpu);
			uint64_t *id = &r->xids[i * (unsigned int)ncpu + k];
			union u64map_val *v;

			if (fd < 0 || !m ||
			    ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, m->fd) < 0 ||
			    ioctl(fd, PERF_EVENT_IOC_ID, id) < 0)
				return fd < 0 || !m ? -EINVAL : -errno;
			if (!(v = u64map_slot(&by_id, *id)))
				return -ENOMEM;
			v->p = r;
		}
		i++;
	}
	return 0;
}

void cpu_rings_unshare(struct ring *r)
{
	if (r->xids)
		unshared++;
	for (unsigned int j = 0; r->xids && j < r->nevents * r->ncpus; j++)
		if (r->xids[j] && u64map_ptr(&by_id, r->xids[j]) == r)
			u64map_del(&by_id, r->xids[j]);
	free(r->xids);
	r->xids = NULL;
	r->ncpus = 0;
}

/* The u64 at pos of shared ring m: records are 8-byte aligned, as
 * their fields, none of which wraps. */
static uint64_t u64_at(const struct ring *m, uint64_t pos)
{
	const uint8_t *data = (const uint8_t *)m->base + getpagesize();
	uint64_t v;

	memcpy(&v, data + (pos & (m->size - 1)), sizeof(v));
	return v;
}

/* The next record of shared ring m (at tail, before head): its ring, by
 * its event's id (every event has PERF_SAMPLE_IDENTIFIER: a sample's
 * first field, a record's sample_id's last), and its time (0 when it
 * has none). False when there is no whole record there. */
static bool next_of(struct cpu_ring *c)
{
	const struct ring *m = &c->r;
	const struct perf_event_header *h =
	    (const void *)((const uint8_t *)m->base + getpagesize() +
			   (c->tail & (m->size - 1)));
	uint64_t st, at;

	if (c->head - c->tail < sizeof(*h) || h->size < sizeof(*h) ||
	    h->size > c->head - c->tail)
		return false;
	c->owner = NULL;
	c->time = 0;
	if (h->size < sizeof(*h) + 8)
		return true;
	c->owner = u64map_ptr(&by_id,
			      u64_at(m, c->tail + (h->type == PERF_RECORD_SAMPLE
						       ? sizeof(*h)
						       : h->size - 8u)));
	if (!c->owner || !(c->owner->sample_type & PERF_SAMPLE_TIME))
		return true;
	st = c->owner->sample_type;
	if (h->type == PERF_RECORD_SAMPLE) /* identifier, ip, pid/tid, time */
		at = sizeof(*h) + 8 + (st & PERF_SAMPLE_IP ? 8 : 0) +
		     (st & PERF_SAMPLE_TID ? 8 : 0);
	else /* ... time, id, stream_id, cpu, identifier */
		at = h->size - 8u - (st & PERF_SAMPLE_CPU ? 8 : 0) -
		     (st & PERF_SAMPLE_STREAM_ID ? 8 : 0) -
		     (st & PERF_SAMPLE_ID ? 8 : 0) - 8;
	if (at >= sizeof(*h) && at + 8 <= h->size)
		c->time = u64_at(m, c->tail + at);
	return true;
}

/*
 * At most max records of the CPUs' shared rings, each to its ring's cb,
 * in the order of their times (a task's records come from the CPUs it
 * ran on: its name before its samples, a wait's start before its end),
 * among those written when the drain began.
 */
unsigned int cpu_rings_drain(struct ring *r, ring_record_cb cb, void *ctx,
			     unsigned int max)
{
	uint64_t start = now_ns();
	unsigned int n = 0, k;

	if (in_cpu_drain || !ncpu_rings) /* (a callback's: never) */
		return 0;
	in_cpu_drain = true;
	for (k = 0; k < ncpu_rings; k++) {
		struct cpu_ring *c = &cpu_rings[k];
		struct perf_event_mmap_page *pg = c->r.base;

		c->more = false;
		if (!pg) /* (one that failed: no ring writes there) */
			continue;
		c->head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
		c->tail = pg->data_tail;
		c->more = next_of(c);
	}
	while (n < max) {
		struct cpu_ring *c = NULL;
		const struct perf_event_header *h;

		for (k = 0; k < ncpu_rings; k++)
			if (cpu_rings[k].more &&
			    (!c || cpu_rings[k].time < c->time))
				c = &cpu_rings[k];
		if (!c || !(h = ring_record_at(&c->r, c->tail, c->head)))
			break;
		c->tail += h->size;
		if (c->owner) {
			uint64_t gone = unshared;

			cb(ctx, c->owner, h);
			/* a ring closed by cb: the others' owners again */
			for (k = 0; gone != unshared && k < ncpu_rings; k++)
				if (&cpu_rings[k] != c && cpu_rings[k].more)
					cpu_rings[k].more =
					    next_of(&cpu_rings[k]);
		} else { /* its ring was closed since */
			orphans++;
		}
		/* the kernel may write over it from now on */
		__atomic_store_n(
		    &((struct perf_event_mmap_page *)c->r.base)->data_tail,
		    c->tail, __ATOMIC_RELEASE);
		c->more = next_of(c);
		n++;
	}
	in_cpu_drain = false;
	if (n < max)
		r->drained_ns = start;
	return n;
}

unsigned int ring_cpu_pages(unsigned int pages)
{
	unsigned int p = pages * 4;

	return p < 64 ? 64 : p > 512 ? 512 : p;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Ring record parsing: synthesized sample bytes for every field and every
 * PERF_CONTEXT marker, malformed records, a real one-page ring that wraps
 * many times while this thread samples itself, 8 KiB stack copies that
 * come whole across the ring's end, and a real clock event with
 * its context-switch counter read into every sample (pipeline/switchcost.h).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lib/clock.h"
#include "pipeline/sample.h"
#include "pipeline/switchcost.h"
#include "profile/io.h"
#include "rings/perf_parse.h"
#include "rings/ring.h"
#include "tap.h"

struct builder {
	uint8_t buf[8192];
	size_t len;
};

static void put64(struct builder *b, uint64_t v)
{
	memcpy(b->buf + b->len, &v, 8);
	b->len += 8;
}

static struct perf_event_header *finish(struct builder *b)
{
	struct perf_event_header *h = (void *)b->buf;

	h->type = PERF_RECORD_SAMPLE;
	h->misc = 0;
	h->size = (uint16_t)b->len;
	return h;
}

static void test_all_fields(void)
{
	uint64_t st = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
		      PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
		      PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
		      PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ |
		      PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |
		      PERF_SAMPLE_BRANCH_STACK;
	struct builder b = { .len = 8 };
	struct pj_raw_sample s;
	uint32_t rawsz = 12;
	struct perf_branch_entry br[2] = { { .from = 0x1000, .to = 0x2000 },
					   { .from = 0x3000, .to = 0x4000 } };

	put64(&b, 77); /* identifier */
	put64(&b, 0x401000); /* ip */
	put64(&b, (uint64_t)1234 << 32 | 1200); /* tid << 32 | pid */
	put64(&b, 987654321); /* time */
	put64(&b, 0xdead); /* addr */
	put64(&b, 77); /* id */
	put64(&b, 5); /* stream id */
	put64(&b, 1); /* cpu (+ reserved) */
	put64(&b, 10000000); /* period */
	put64(&b, 2); /* read: PERF_FORMAT_GROUP, two values */
	put64(&b, 123456789);
	put64(&b, 42);
	put64(&b, 3); /* callchain nr */
	put64(&b, PERF_CONTEXT_KERNEL);
	put64(&b, 0xffffffff81000010ULL);
	put64(&b, 0x401000);
	memcpy(b.buf + b.len, &rawsz, 4);
	memset(b.buf + b.len + 4, 0xab, 12);
	b.len += 16; /* 4 + 12: already 8-aligned */
	put64(&b, 2);
	memcpy(b.buf + b.len, br, sizeof(br));
	b.len += sizeof(br);
	ok(!sample_parse(finish(&b), st, 0, &s),
	   "sample with every field parses");
	ok(s.id == 77 && s.ip == 0x401000 && s.pid == 1200 && s.tid == 1234,
	   "id, ip, pid, tid");
	ok(s.time == 987654321 && s.addr == 0xdead && s.cpu == 1 &&
	       s.period == 10000000 && s.stream_id == 5,
	   "time, addr, cpu, period, stream id");
	ok(s.nread == 2 && s.read[0] == 123456789 && s.read[1] == 42,
	   "group read: the clock's count and the switch counter's");
	ok(s.nr == 3 && s.ips[1] == 0xffffffff81000010ULL, "callchain");
	ok(s.raw_size == 12 && ((const uint8_t *)s.raw)[11] == 0xab,
	   "raw data");
	ok(s.nbranch == 2 && s.branches[1].to == 0x4000, "branch stack");

	/* Every truncation of the record must fail cleanly, not overread. */
	size_t full = b.len;
	int bad = 0;

	for (size_t cut = 8; cut < full; cut += 8) {
		b.len = cut;
		if (!sample_parse(finish(&b), st, 0, &s))
			bad++;
	}
	ok(bad == 0, "every truncated record is rejected (%d accepted)", bad);

	/* A group read with more values than any group perfjava opens. */
	b.len = 8;
	put64(&b, 17);
	for (int i = 0; i < 17; i++)
		put64(&b, i);
	ok(sample_parse(finish(&b), PERF_SAMPLE_READ, 0, &s) == -1,
	   "a group read of 17 values is rejected");

	/* A callchain count larger than the record. */
	b.len = 8;
	put64(&b, 1000000);
	ok(sample_parse(finish(&b), PERF_SAMPLE_CALLCHAIN, 0, &s) == -1,
	   "callchain count beyond the record is rejected");
}

static void test_markers(void)
{
	const uint64_t chain[] = {
		PERF_CONTEXT_HV,
		0xffffffff80000001ULL,
		PERF_CONTEXT_KERNEL,
		0xffffffff81000001ULL,
		0xffffffff81000002ULL,
		PERF_CONTEXT_USER,
		0x400001,
		0x400002,
		PERF_CONTEXT_GUEST,
		PERF_CONTEXT_GUEST_KERNEL,
		0xffffffff82000001ULL,
		PERF_CONTEXT_GUEST_USER,
		0x500001,
		(uint64_t)PERF_CONTEXT_MAX + 1,
		0x600001,
	};
	const enum callchain_ctx want[] = { CC_HV,	   CC_KERNEL,
					    CC_KERNEL,	   CC_USER,
					    CC_USER,	   CC_GUEST_KERNEL,
					    CC_GUEST_USER, CC_NONE };
	const uint64_t want_ip[] = { 0xffffffff80000001ULL,
				     0xffffffff81000001ULL,
				     0xffffffff81000002ULL,
				     0x400001,
				     0x400002,
				     0xffffffff82000001ULL,
				     0x500001,
				     0x600001 };
	struct callchain_iter it;
	enum callchain_ctx ctx;
	uint64_t ip;
	int n = 0, wrong = 0;

	callchain_iter_init(&it, chain, sizeof(chain) / sizeof(chain[0]));
	while (callchain_next(&it, &ip, &ctx)) {
		if (n >= 8 || ip != want_ip[n] || ctx != want[n])
			wrong++;
		n++;
	}
	ok(n == 8 && !wrong,
	   "every PERF_CONTEXT marker sets the context of the addresses after it (%d addresses, %d wrong)",
	   n, wrong);
	ok(callchain_marker(PERF_CONTEXT_USER) == CC_USER &&
	       callchain_marker(PERF_CONTEXT_KERNEL) == CC_KERNEL &&
	       callchain_marker(PERF_CONTEXT_HV) == CC_HV &&
	       callchain_marker(0x400000) == CC_NONE,
	   "marker values");
}

struct wrap_ctx {
	pid_t tid;
	unsigned long samples, other, bad;
	uint64_t last_time;
	unsigned long backwards;
};

static void on_rec(void *c, struct ring *r, const struct perf_event_header *h)
{
	struct wrap_ctx *w = c;
	struct pj_raw_sample s;

	if (h->type != PERF_RECORD_SAMPLE) {
		w->other++;
		return;
	}
	if (sample_parse(h, r->sample_type, 0, &s) ||
	    s.tid != (uint32_t)w->tid || !s.nr) {
		w->bad++;
		return;
	}
	if (s.time < w->last_time)
		w->backwards++;
	w->last_time = s.time;
	w->samples++;
}

static volatile unsigned long sink;

static uint64_t thread_cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void test_real_wrap(void)
{
	struct pj_event ev = { .name = "cpu-clock" };
	struct ring_opts o = {
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
			       PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_CALLCHAIN,
		.pages = 1, /* 4 KiB: wraps every few dozen samples */
		.wakeup_events = 1,
		.max_stack = 64,
	};
	struct wrap_ctx w = { .tid = (pid_t)syscall(SYS_gettid) };
	struct ring r;
	unsigned int bad_ev;
	uint64_t t0, cpu0;
	int err;

	ev.attr.type = PERF_TYPE_SOFTWARE;
	ev.attr.config = PERF_COUNT_SW_TASK_CLOCK;
	ev.attr.sample_period = 50000; /* 50 us of this thread's CPU */
	ring_init();
	err = ring_open(&r, w.tid, &ev, 1, &o, &bad_ev);
	if (err) {
		skip("real ring wrap-around", "cannot open a perf event here");
		return;
	}
	ok(r.fd >= 0, "the ring's fd is known (%d)", r.fd);
	ring_enable(&r);
	/* until 1200 samples have come (about 60 ms of this thread's CPU),
	 * however busy the machine; bounded by 1 s of its CPU, 30 s of wall */
	t0 = now_ns();
	cpu0 = thread_cpu_ns();
	do {
		for (int i = 0; i < 20000; i++)
			sink = sink * 31 + i;
		ring_drain(&r, on_rec, &w);
	} while (w.samples < 1200 && thread_cpu_ns() - cpu0 < 1000000000ull &&
		 now_ns() - t0 < 30000000000ull);
	ring_disable(&r);
	ring_drain(&r, on_rec, &w);
	ring_close(&r);
	printf("# %lu samples through a 4 KiB ring, %lu other records\n",
	       w.samples, w.other);
	ok(w.samples > 1000,
	   "the one-page ring wrapped many times (%lu samples)", w.samples);
	ok(w.bad == 0, "every record read across wrap-around parses (%lu bad)",
	   w.bad);
	ok(w.backwards == 0, "samples come in time order");
}

/* Samples of this thread with 8 KiB stack copies, through a 64 KiB ring:
 * every record that wraps around the ring's end must come whole. The copy
 * starts at the sampled stack pointer, below a buffer of a known pattern,
 * so each copy must hold the pattern's bytes where they stand. */
struct copy_ctx {
	const uint8_t *pattern; /* PATTERN_LEN bytes on this thread's stack */
	unsigned long samples, bad, short_copy, wrong;
};
#define PATTERN_LEN 2048

static void on_copy_rec(void *c, struct ring *r,
			const struct perf_event_header *h)
{
	struct copy_ctx *w = c;
	struct pj_raw_sample s;
	uint64_t sp, at;

	if (h->type != PERF_RECORD_SAMPLE)
		return;
	if (sample_parse_regs(h, r->sample_type, 0, r->regs_user, &s) ||
	    s.nregs != 1) {
		w->bad++;
		return;
	}
	w->samples++;
	memcpy(&sp, s.regs, 8);
	at = (uintptr_t)w->pattern - sp;
	if (s.stack_size != 8192 || at + PATTERN_LEN > s.stack_size) {
		w->short_copy++;
		return;
	}
	if (memcmp(s.stack + at, w->pattern, PATTERN_LEN))
		w->wrong++;
}

static void __attribute__((noinline))
sleep_under(struct ring *r, struct copy_ctx *w)
{
	volatile uint8_t pattern[PATTERN_LEN];

	for (unsigned int i = 0; i < PATTERN_LEN; i++)
		pattern[i] = (uint8_t)(i * 7 + 1);
	w->pattern = (const uint8_t *)pattern;
	for (int i = 0; i < 2000; i++) {
		usleep(1); /* a switch out, and a sample */
		if (i % 4 == 3)
			ring_drain(r, on_copy_rec, w);
	}
	ring_drain(r, on_copy_rec, w);
}

/* sleep_under with 12 KiB of this thread's stack above it: its copies
 * never reach the stack's top, so each is whole. */
static void __attribute__((noinline))
deep_sleep_under(struct ring *r, struct copy_ctx *w)
{
	volatile uint8_t room[12288];

	room[0] = 1;
	sleep_under(r, w);
	room[sizeof(room) - 1] = room[0];
}

static void test_real_wrap_copies(void)
{
	struct pj_event ev = { .name = "context-switches" };
	struct ring_opts o = {
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
			       PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER,
		.regs_user = 1ull << 7, /* sp */
		.stack_user = 8192,
		.pages = 16,
		.wakeup_events = 1,
	};
	struct copy_ctx w = { 0 };
	struct ring r;
	unsigned int bad_ev;

	ev.attr.type = PERF_TYPE_SOFTWARE;
	ev.attr.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
	ev.attr.sample_period = 1;
	if (ring_open(&r, (pid_t)syscall(SYS_gettid), &ev, 1, &o, &bad_ev)) {
		skip("stack copies across the ring's end",
		     "cannot open a perf event here");
		return;
	}
	ring_enable(&r);
	deep_sleep_under(&r, &w);
	ring_disable(&r);
	ring_close(&r);
	printf("# %lu samples with 8 KiB stack copies through a 64 KiB ring\n",
	       w.samples);
	ok(w.samples > 100 && !w.bad,
	   "records with stack copies parse (%lu samples, %lu bad)", w.samples,
	   w.bad);
	ok(!w.short_copy && !w.wrong,
	   "every copy is whole, wrapped or not (%lu short, %lu wrong bytes)",
	   w.short_copy, w.wrong);
}

struct switch_ctx {
	struct switchcost sc;
	unsigned long samples, unread, bad;
	uint64_t weight, last_count, switches, last_switches;
};

static void on_switch_rec(void *c, struct ring *r,
			  const struct perf_event_header *h)
{
	struct switch_ctx *w = c;
	struct pj_raw_sample rs;
	struct sample smp = { .s = { .period = 50000 } };
	const struct pj_sample *s = &smp.s;

	if (h->type != PERF_RECORD_SAMPLE)
		return;
	if (sample_parse(h, r->sample_type, 0, &rs)) {
		w->bad++;
		return;
	}
	if (rs.nread != 2) {
		w->unread++;
		return;
	}
	smp.s.tid = rs.tid;
	smp.read[0] = rs.read[0];
	smp.read[1] = rs.read[1];
	smp.nread = rs.nread;
	switchcost_sample(&w->sc, &smp);
	w->samples++;
	w->weight += s->period;
	w->switches += s->switches;
	w->last_count = rs.read[0];
	w->last_switches = rs.read[1];
}

/* A thread that runs 30 us and sleeps, sampling itself every 50 us of its
 * task-clock with the switch counter in the event's group. */
static void test_real_switch_counter(void)
{
	struct pj_event ev = { .name = "task-clock" };
	struct ring_opts o = {
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
			       PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
		.pages = 16,
		.wakeup_events = 1,
		.count_switches = true,
	};
	struct switch_ctx w = { 0 };
	struct ring_clocks c0, c1;
	struct ring r;
	unsigned int bad_ev;
	uint64_t t0, cpu0, cpu1;
	int err;

	ev.attr.type = PERF_TYPE_SOFTWARE;
	ev.attr.config = PERF_COUNT_SW_TASK_CLOCK;
	ev.attr.sample_period = 50000;
	err = ring_open(&r, (pid_t)syscall(SYS_gettid), &ev, 1, &o, &bad_ev);
	if (err) {
		skip("clock event with a switch counter",
		     "cannot open a perf event here");
		return;
	}
	ok(r.sw_fd >= 0 && (r.sample_type & PERF_SAMPLE_READ),
	   "a single clock event gets a switch counter in its group");
	ring_enable(&r);
	ok(!ring_read_clocks(&r, &c0),
	   "the thread's clocks are read when the ring is enabled");
	/* 400 rounds (each 30 us of CPU and a switch), however long a busy
	 * machine makes them; bounded by 30 s of wall */
	cpu0 = thread_cpu_ns();
	t0 = now_ns();
	for (int round = 0; round < 400 && now_ns() - t0 < 30000000000ull;
	     round++) {
		uint64_t s0 = thread_cpu_ns();

		while (thread_cpu_ns() - s0 < 30000)
			sink++;
		usleep(50);
		ring_drain(&r, on_switch_rec, &w);
	}
	cpu1 = thread_cpu_ns();
	ring_disable(&r);
	ok(!ring_read_clocks(&r, &c1), "the thread's clocks read again");
	ring_drain(&r, on_switch_rec, &w);
	ring_close(&r);
	switchcost_free(&w.sc);
	printf("# %lu samples, weights %.1f ms for %.1f ms of task-clock, "
	       "%llu switches; scheduler %.1f ms, CPU clock %.1f ms\n",
	       w.samples, w.weight / 1e6, w.last_count / 1e6,
	       (unsigned long long)w.switches,
	       (c1.thread_ns - c0.thread_ns) / 1e6, (cpu1 - cpu0) / 1e6);
	ok(w.samples > 100 && !w.unread && !w.bad,
	   "every sample carries both counts (%lu samples, %lu without, %lu bad)",
	   w.samples, w.unread, w.bad);
	ok(w.weight == w.last_count,
	   "the samples' weights add up to the event's count at the last one");
	ok(w.switches == w.last_switches && w.switches > 100,
	   "the samples' switches add up to the counter's (%llu)",
	   (unsigned long long)w.switches);
	ok(c1.switches >= w.last_switches && c1.event_ns >= w.last_count,
	   "the clocks read after the samples are not behind them");
	/* the same kernel counter as this thread's CPU clock, which adds the
	 * running slice schedstat has not yet (updated at the scheduler's
	 * tick and at switches): up to a tick apart at each end */
	ok(c1.thread_ns - c0.thread_ns + 10000000 > cpu1 - cpu0 &&
	       cpu1 - cpu0 + 10000000 > c1.thread_ns - c0.thread_ns,
	   "schedstat's time is the thread's CPU clock, within a tick at each end");
}

int main(void)
{
	test_all_fields();
	test_markers();
	test_real_wrap();
	test_real_wrap_copies();
	test_real_switch_counter();
	return tap_done();
}

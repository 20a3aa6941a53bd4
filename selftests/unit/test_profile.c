// SPDX-License-Identifier: GPL-2.0
/*
 * The profile file: round trip of every chunk and field, interning, write
 * errors, a writer in memory and its tap, and the size of a sample on a
 * long recording. Damaged files:
 * test_profile_damage.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "lib/clock.h"
#include "profile/io.h"
#include "profile_util.h"
#include "tap.h"
#include "lib/varint.h"

/* --- round trip --- */

static const struct pj_sample rt_samples[] = {
	{ 5000000000ull, 1000000, 11, 0, 0, 0, 0 },
	{ 5000000100ull, 1000000, 12, 1, 0, 1, 0, 7 }, /* switches */
	{ 4999999000ull, 7, 12, 1, 1, 2, 0 }, /* time goes back, 0 switches */
	{ 4999999000ull, 7, 12, 1, 1, 2, 3 }, /* info set */
	{ UINT64_MAX - 5, UINT64_MAX, UINT32_MAX, 63, 1, 1, 0, UINT32_MAX },
};

static void test_round_trip(void)
{
	char err[256] = "";
	struct pj_writer *w = pj_writer_open(tmp("rt.data"), err, sizeof(err));
	struct pj_event_desc ev[2] = {
		{ 0, "cpu-clock", "ns", 1, 0, 10000000, 0 },
		{ 1, "cycles", "events", 0, 0, 4000, 99 },
	};
	uint32_t f[4], st[3], s_info, id;
	struct pj_profile *p;
	int ok_all;

	if (!ok(w, "writer opens (%s)", w ? "" : err))
		return;
	ok(pj_writer_meta(w, "command", "java -jar x.jar") == 0, "meta");
	pj_writer_meta(w, "pid", "42");
	pj_writer_event(w, &ev[0]);
	pj_writer_event(w, &ev[1]);
	f[0] = pj_writer_frame(w, PJ_FRAME_JIT, "Foo.bar", "", "Foo.java", 17);
	f[1] = pj_writer_frame(w, PJ_FRAME_KERNEL, "do_sys_open", "vmlinux",
			       NULL, 0);
	f[2] = pj_writer_frame(w, PJ_FRAME_NATIVE, "start_thread",
			       "/lib/x86_64-linux-gnu/libc.so.6", "pthread.c",
			       447);
	ok(f[0] == 0 && f[1] == 1 && f[2] == 2, "frame ids count from 0");
	pj_writer_frame_addr(w, f[1], 0xffffffff81000000ull);
	pj_writer_frame_addr(w, f[1], 0x1234); /* the first one counts */
	pj_writer_frame_addr(w, f[2], 0x88ef0);
	st[0] = pj_writer_stack(w, f, 3);
	st[1] = pj_writer_stack(w, (uint32_t[]){ f[1] }, 1);
	pj_writer_thread(w, 11, 10, "main");
	s_info = pj_writer_string(w, "prev_state=S");
	ok(s_info == 8, "string ids count from 1 in order (%u)", s_info);
	pj_writer_sample(w, &rt_samples[0]);
	pj_writer_sample(w, &rt_samples[1]);
	pj_writer_stat(w, "lost", 1);
	ok(pj_writer_flush(w) == 0, "flush");
	/* Second round: definitions after a flush, sample state reset. */
	f[3] = pj_writer_frame(w, PJ_FRAME_MARKER, "[java frames unavailable]",
			       NULL, NULL, 0);
	st[2] = pj_writer_stack(w, (uint32_t[]){ f[3], f[0], f[2] }, 3);
	ok(st[0] == 0 && st[1] == 1 && st[2] == 2, "stack ids count from 0");
	pj_writer_thread(w, 12, 10, "worker-1");
	pj_writer_thread(w, 11, 10, "renamed-main");
	pj_writer_thread(w, UINT32_MAX, 10, "");
	for (unsigned int i = 2; i < 5; i++) {
		struct pj_sample s = rt_samples[i];

		if (s.info)
			s.info = s_info;
		pj_writer_sample(w, &s);
	}
	pj_writer_stat(w, "lost", 5); /* later keys override */
	pj_writer_stat(w, "walks", 3);
	pj_writer_meta(w, "pid", "43");
	ok(pj_writer_pending(w) > 0, "pending counts buffered bytes");
	id = pj_writer_string(w, "Foo.bar");
	ok(id == 1, "an interned string keeps its id (%u)", id);
	ok(pj_writer_close(w) == 0, "close");

	if (!ok(pj_profile_load(tmp("rt.data"), &p, err, sizeof(err)) == 0,
		"load (%s)", err))
		return;
	ok(p->finished && !p->truncated, "finished, not truncated");
	ok(p->nstrings >= 9 && !strcmp(pj_str(p, 0), "") &&
	       !strcmp(pj_str(p, 1), "Foo.bar") &&
	       !strcmp(pj_str(p, s_info), "prev_state=S"),
	   "strings");
	ok(p->nframes == 4 && p->frames[0].type == PJ_FRAME_JIT &&
	       !strcmp(pj_str(p, p->frames[0].name), "Foo.bar") &&
	       p->frames[0].module == 0 &&
	       !strcmp(pj_str(p, p->frames[0].file), "Foo.java") &&
	       p->frames[0].line == 17 &&
	       p->frames[1].type == PJ_FRAME_KERNEL &&
	       !strcmp(pj_str(p, p->frames[1].module), "vmlinux") &&
	       !strcmp(pj_str(p, p->frames[2].module),
		       "/lib/x86_64-linux-gnu/libc.so.6") &&
	       p->frames[2].line == 447 && p->frames[3].type == PJ_FRAME_MARKER,
	   "frames: type, name, module, file, line");
	ok(p->frames[0].addr == 0 &&
	       p->frames[1].addr == 0xffffffff81000000ull &&
	       p->frames[2].addr == 0x88ef0 && p->frames[3].addr == 0,
	   "frame addresses: the first given, 0 for none");
	ok(p->nstacks == 3 && p->stack_start[1] == 3 &&
	       p->stack_start[2] == 4 && p->stack_start[3] == 7 &&
	       p->stack_frames[0] == f[0] && p->stack_frames[2] == f[2] &&
	       p->stack_frames[3] == f[1] && p->stack_frames[4] == f[3],
	   "stacks, leaf first");
	ok_all = p->nsamples == 5;
	for (size_t i = 0; ok_all && i < 5; i++) {
		struct pj_sample e = rt_samples[i], *g = &p->samples[i];

		if (e.info)
			e.info = s_info;
		ok_all = g->time == e.time && g->period == e.period &&
			 g->tid == e.tid && g->cpu == e.cpu &&
			 g->event == e.event && g->stack == e.stack &&
			 g->info == e.info && g->switches == e.switches;
	}
	ok(ok_all, "samples: every field, across two SAMPLES chunks");
	ok(p->nthreads == 3 &&
	       !strcmp(pj_profile_thread_name(p, 0, 11), "renamed-main") &&
	       !strcmp(pj_profile_thread_name(p, 0, 12), "worker-1") &&
	       !strcmp(pj_profile_thread_name(p, 0, 13), "") &&
	       p->threads[0].pid == 10,
	   "threads, renamed by a later entry");
	ok(p->nevents == 2 && !strcmp(p->events[1].name, "cycles") &&
	       !strcmp(p->events[1].unit, "events") &&
	       p->events[1].freq == 99 && p->events[1].period == 4000 &&
	       p->events[0].type == 1 && p->events[0].period == 10000000,
	   "events");
	ok(!strcmp(pj_profile_meta(p, "pid"), "43") &&
	       !strcmp(pj_profile_meta(p, "command"), "java -jar x.jar") &&
	       !pj_profile_meta(p, "nope"),
	   "meta, later keys override");
	ok(pj_profile_stat(p, "lost", 0) == 5 &&
	       pj_profile_stat(p, "walks", 0) == 3 &&
	       pj_profile_stat(p, "nope", 77) == 77,
	   "stats, later keys override");
	pj_profile_free(p);
}

static void test_interning(void)
{
	char err[256];
	struct pj_writer *w = pj_writer_open(tmp("in.data"), err, sizeof(err));
	uint32_t a, b, c, s1, s2, fr[3], x, y;
	char name[32];
	int same = 1;

	a = pj_writer_string(w, "alpha");
	b = pj_writer_string(w, "beta");
	c = pj_writer_string(w, "alpha");
	ok(a == 1 && b == 2 && c == 1, "strings interned");
	ok(pj_writer_string(w, "") == 0 && pj_writer_string(w, NULL) == 0,
	   "empty and NULL strings are id 0");
	fr[0] = pj_writer_frame(w, PJ_FRAME_JIT, "m", "", "F.java", 1);
	fr[1] = pj_writer_frame(w, PJ_FRAME_JIT, "m", "", "F.java", 2);
	fr[2] = pj_writer_frame(w, PJ_FRAME_JIT, "m", NULL, "F.java", 1);
	ok(fr[0] != fr[1] && fr[2] == fr[0], "frames interned by all fields");
	ok(pj_writer_frame(w, PJ_FRAME_C1, "m", "", "F.java", 1) != fr[0],
	   "frame type is part of a frame");
	/* the memo by the arguments' addresses: the same buffer with another
	 * string is another frame, another buffer with the same string the
	 * same frame */
	snprintf(name, sizeof(name), "n.a");
	x = pj_writer_frame(w, PJ_FRAME_JIT, name, "", "F.java", 1);
	ok(pj_writer_frame(w, PJ_FRAME_JIT, name, "", "F.java", 1) == x,
	   "a frame asked again is the same frame");
	snprintf(name, sizeof(name), "n.b");
	y = pj_writer_frame(w, PJ_FRAME_JIT, name, "", "F.java", 1);
	snprintf(name, sizeof(name), "n.a");
	ok(y != x &&
	       pj_writer_frame(w, PJ_FRAME_JIT, name, "", "F.java", 1) == x &&
	       pj_writer_frame(w, PJ_FRAME_JIT, "n.b", "", "F.java", 1) == y,
	   "a frame is its strings, not where they are");
	s1 = pj_writer_stack(w, fr, 2);
	s2 = pj_writer_stack(w, (uint32_t[]){ fr[0], fr[1] }, 2);
	ok(s1 == s2 && pj_writer_stack(w, fr, 1) != s1 &&
	       pj_writer_stack(w, (uint32_t[]){ fr[1], fr[0] }, 2) != s1,
	   "stacks interned by frames and order");
	/* Many entries: the tables grow and keep every id. */
	for (int i = 0; i < 200000; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		pj_writer_string(w, name);
	}
	a = pj_writer_string(w, "f0");
	for (int i = 0; i < 200000 && same; i += 7) {
		snprintf(name, sizeof(name), "f%d", i);
		same = pj_writer_string(w, name) == a + (uint32_t)i;
	}
	ok(same, "200000 strings keep their ids while the table grows");
	ok(pj_writer_close(w) == 0, "close");
}

/* --- a writer in memory (perfjava top) --- */

struct tapped {
	unsigned int samples, threads, procs;
	struct pj_sample last;
	char thread[64], cmdline[64];
};

static void tap_sample(void *ctx, const struct pj_sample *s)
{
	struct tapped *t = ctx;

	t->samples++;
	t->last = *s;
}

static void tap_thread(void *ctx, uint32_t tid, uint32_t pid, const char *n)
{
	struct tapped *t = ctx;

	t->threads++;
	snprintf(t->thread, sizeof(t->thread), "%u/%u %s", pid, tid, n);
}

static void tap_process(void *ctx, uint32_t pid, enum pj_process_kind kind,
			const char *comm, const char *cmdline)
{
	struct tapped *t = ctx;

	t->procs++;
	snprintf(t->cmdline, sizeof(t->cmdline), "%u %d %s %s", pid, kind, comm,
		 cmdline);
}

static void test_mem_writer(void)
{
	struct tapped t = { 0 };
	struct pj_writer_tap tap = { tap_sample, tap_thread, tap_process, &t };
	struct pj_writer *w = pj_writer_open_mem(&tap);
	struct pj_sample s = { .time = 7, .period = 1, .tid = 12, .pid = 10 };
	uint32_t fr[2], st;
	const uint32_t *got;
	struct pj_frame f;
	unsigned int n;

	if (!ok(w != NULL, "a writer in memory opens"))
		return;
	fr[0] = pj_writer_frame(w, PJ_FRAME_JIT, "A.leaf", "", "A.java", 3);
	fr[1] = pj_writer_frame(w, PJ_FRAME_KERNEL, "", "vmlinux", "", 0);
	st = pj_writer_stack(w, fr, 2);
	got = pj_writer_stack_frames(w, st, &n);
	ok(n == 2 && got && got[0] == fr[0] && got[1] == fr[1],
	   "a stack's frames are read back, leaf first");
	ok(!pj_writer_frame_get(w, fr[0], &f) && f.type == PJ_FRAME_JIT &&
	       !strcmp(pj_writer_str(w, f.name), "A.leaf") && f.line == 3 &&
	       !strcmp(pj_writer_str(w, f.file), "A.java"),
	   "a frame is read back: type, name, file, line");
	ok(!pj_writer_frame_get(w, fr[1], &f) && !*pj_writer_str(w, f.name) &&
	       !strcmp(pj_writer_str(w, f.module), "vmlinux"),
	   "... a frame of a module alone");
	ok(pj_writer_frame_get(w, 999, &f) == -1 &&
	       !pj_writer_stack_frames(w, 999, &n) && n == 0 &&
	       !strcmp(pj_writer_str(w, 99999), ""),
	   "unknown ids are refused");
	s.stack = st;
	pj_writer_thread(w, 12, 10, "work\033[2Jer");
	pj_writer_process(w, 10, PJ_PROC_JVM, 0, "java", "java -cp x\nY", "");
	ok(pj_writer_sample(w, &s) == 0 && t.samples == 1 &&
	       t.last.stack == st && t.last.tid == 12 && t.last.time == 7,
	   "the tap gets each sample as written");
	ok(t.threads == 1 && !strcmp(t.thread, "10/12 work?[2Jer"),
	   "... each thread's name, made safe for a terminal (%s)", t.thread);
	ok(t.procs == 1 && !strcmp(t.cmdline, "10 1 java java -cp x?Y"),
	   "... each process's name and command line (%s)", t.cmdline);
	ok(pj_writer_flush(w) == 0 && pj_writer_bytes(w) == 0 &&
	       pj_writer_pending(w) == 0,
	   "its chunks are dropped at a flush: nothing written, nothing kept");
	ok(pj_writer_frame(w, PJ_FRAME_JIT, "A.leaf", "", "A.java", 3) == fr[0],
	   "... its frames are still known after it");
	ok(pj_writer_close(w) == 0, "a writer in memory closes");
}

/* A write error (here: the file size limit) is kept, not a crash. */
static void test_write_error(void)
{
	struct rlimit old, lim = { 20000, RLIM_INFINITY };
	struct pj_writer *w;
	struct pj_profile *p;
	char err[256];
	int r = 0, i;

	w = pj_writer_open("/dev/full", err, sizeof(err));
	ok(!w && strstr(err, "not a regular file"), "a device is no output: %s",
	   err);

	/* committed, as a recording is once it started */
	w = pj_writer_open(tmp("big.data"), err, sizeof(err));
	ok(w && !pj_writer_commit(w, err, sizeof(err)), "open and commit");
	getrlimit(RLIMIT_FSIZE, &old);
	lim.rlim_max = old.rlim_max;
	signal(SIGXFSZ, SIG_IGN);
	setrlimit(RLIMIT_FSIZE, &lim);
	for (i = 0; i < 200 && !r; i++) {
		for (int j = 0; j < 100; j++) {
			char name[32];
			uint32_t f;
			struct pj_sample s = { .time = (uint64_t)j,
					       .period = 1 };

			snprintf(name, sizeof(name), "f%d_%d", i, j);
			f = pj_writer_frame(w, PJ_FRAME_NATIVE, name, NULL,
					    NULL, 0);
			s.stack = pj_writer_stack(w, &f, 1);
			pj_writer_sample(w, &s);
		}
		r = pj_writer_flush(w);
	}
	ok(r == -1 && pj_writer_error(w) &&
	       strstr(pj_writer_error(w), "too large"),
	   "flush past the size limit fails: %s",
	   pj_writer_error(w) ? pj_writer_error(w) : "no error");
	ok(pj_writer_sample(w, &(struct pj_sample){ 0 }) == -1 &&
	       pj_writer_flush(w) == -1 && pj_writer_close(w) == -1,
	   "after an error every call fails, close too");
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, SIG_DFL);
	r = pj_profile_load(tmp("big.data"), &p, err, sizeof(err));
	ok(r == 0 && p->truncated && p->nsamples > 0,
	   "the file keeps its complete chunks (%s)",
	   r ? err : "truncated, loads");
	if (!r)
		pj_profile_free(p);
}

/*
 * Size of a long recording: 8 threads at 100 Hz (10 ms period), 1M
 * samples, 3000 unique stacks of 20-40 frames chosen with a skew.
 */
static void test_size(void)
{
	const unsigned int nthreads = 8, nstacks = 3000;
	const size_t nsamples = 1000000;
	struct pj_event_desc ev = { 0, "cpu-clock", "ns", 1, 0, 10000000, 0 };
	uint32_t *stacks = malloc(nstacks * sizeof(*stacks));
	uint64_t next[8];
	unsigned int seed = 7;
	uint64_t t0, t1;
	struct pj_writer *w;
	struct pj_profile *p;
	char err[256];
	double bps, secs;
	int r;

	t0 = now_ns();
	w = pj_writer_open(tmp("size.data"), err, sizeof(err));
	pj_writer_event(w, &ev);
	for (unsigned int i = 0; i < nstacks; i++) {
		uint32_t f[40];
		unsigned int depth = 20 + i % 21;

		for (unsigned int j = 0; j < depth; j++) {
			char name[64];

			snprintf(name, sizeof(name),
				 "com.example.Service%u.method%u",
				 (i * 7 + j) % 500, j);
			f[j] = pj_writer_frame(
			    w, j < 2 ? PJ_FRAME_JIT : PJ_FRAME_INTERPRETED,
			    name, NULL, "Service.java", 10 + j);
		}
		stacks[i] = pj_writer_stack(w, f, depth);
	}
	for (unsigned int t = 0; t < nthreads; t++) {
		char name[32];

		snprintf(name, sizeof(name), "worker-%u", t);
		pj_writer_thread(w, 1000 + t, 1000, name);
		next[t] = 1000000000000ull + t * 1250000ull;
	}
	for (size_t i = 0; i < nsamples; i++) {
		unsigned int t = (unsigned int)(i % nthreads);
		unsigned int r1 = (unsigned int)rand_r(&seed);
		/* skewed: a few hot stacks */
		unsigned int k = (r1 % 4) ? r1 % 30 : r1 % nstacks;
		struct pj_sample s = { .time = next[t],
				       .period = 10000000,
				       .tid = 1000 + t,
				       .cpu = t % 2,
				       .stack = stacks[k] };

		next[t] += 10000000 + (r1 >> 8) % 200000; /* jitter */
		pj_writer_sample(w, &s);
		if (pj_writer_pending(w) > (1u << 20))
			pj_writer_flush(w);
	}
	r = pj_writer_close(w);
	t1 = now_ns();
	secs = (double)(t1 - t0) / 1e9;
	{
		size_t fsize;
		uint8_t *b = slurp(tmp("size.data"), &fsize);

		bps = (double)fsize / (double)nsamples;
		free(b);
	}
	printf("# 1M samples: %.2f bytes/sample, written in %.2f s\n", bps,
	       secs);
	ok(r == 0 && bps < 16, "bytes per sample %.2f < 16", bps);
	t0 = now_ns();
	r = pj_profile_load(tmp("size.data"), &p, err, sizeof(err));
	t1 = now_ns();
	printf("# loaded in %.2f s\n", (double)(t1 - t0) / 1e9);
	ok(r == 0 && p->nsamples == nsamples && p->nstacks == nstacks &&
	       p->samples[nsamples - 1].tid == 1000 + nthreads - 1,
	   "the long recording loads back");
	if (!r)
		pj_profile_free(p);
	free(stacks);
}

static void test_varint(void)
{
	static const uint64_t v[] = { 0,   1,	       127,	  128,
				      300, 1ull << 35, UINT64_MAX };
	static const int64_t sv[] = { 0, -1, 1, -64, 64, INT64_MIN, INT64_MAX };
	uint8_t b[PJ_VARINT_MAX];
	int good = 1;

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		const uint8_t *q = b;
		uint64_t x;
		size_t n = pj_put_uv(b, v[i]);

		good &= !pj_get_uv(&q, b + n, &x) && x == v[i] && q == b + n &&
			(n > 1
			     ? pj_get_uv(&(const uint8_t *){ b }, b + n - 1, &x)
			     : 1);
	}
	for (size_t i = 0; i < sizeof(sv) / sizeof(sv[0]); i++) {
		const uint8_t *q = b;
		int64_t x;
		size_t n = pj_put_sv(b, sv[i]);

		good &= !pj_get_sv(&q, b + n, &x) && x == sv[i];
	}
	ok(good, "varints and zigzag round trip; a cut varint fails");
}

int main(void)
{
	if (tmpdir_make())
		return 1;
	test_varint();
	test_round_trip();
	test_interning();
	test_mem_writer();
	test_write_error();
	test_size();
	tmpdir_remove();
	return tap_done();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The profile file: round trip of every chunk and field, interning, recovery
 * of truncated files, rejection of damaged ones, robustness against random
 * damage, write errors, and the size of a sample on a long recording.
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

#include "profile/io.h"
#include "tap.h"
#include "lib/varint.h"

static char dir[] = "/tmp/pj-profile-XXXXXX";

static char *tmp(const char *name)
{
	static char path[4][256];
	static int n;
	char *p = path[n++ % 4];

	snprintf(p, sizeof(path[0]), "%s/%s", dir, name);
	return p;
}

static uint8_t *slurp(const char *path, size_t *size)
{
	struct stat st;
	int fd = open(path, O_RDONLY);
	uint8_t *buf;

	if (fd < 0 || fstat(fd, &st))
		return NULL;
	buf = malloc((size_t)st.st_size + 1);
	*size = (size_t)read(fd, buf, (size_t)st.st_size);
	close(fd);
	return buf;
}

static void spit(const char *path, const void *buf, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, buf, size) != (ssize_t)size)
		abort();
	close(fd);
}

/* --- round trip --- */

static const struct pj_sample rt_samples[] = {
	{ 5000000000ull, 1000000, 11, 0, 0, 0, 0 },
	{ 5000000100ull, 1000000, 12, 1, 0, 1, 0 },
	{ 4999999000ull, 7, 12, 1, 1, 2, 0 }, /* time goes back */
	{ 4999999000ull, 7, 12, 1, 1, 2, 3 }, /* info set */
	{ UINT64_MAX - 5, UINT64_MAX, UINT32_MAX, 63, 1, 1, 0 },
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
			 g->info == e.info;
	}
	ok(ok_all, "samples: every field, across two SAMPLES chunks");
	ok(p->nthreads == 3 &&
	       !strcmp(pj_profile_thread_name(p, 11), "renamed-main") &&
	       !strcmp(pj_profile_thread_name(p, 12), "worker-1") &&
	       !strcmp(pj_profile_thread_name(p, 13), "") &&
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
	uint32_t a, b, c, s1, s2, fr[3];
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
	for (int i = 0; i < 200000 && same; i += 7) {
		snprintf(name, sizeof(name), "f%d", i);
		same = pj_writer_string(w, name) == (uint32_t)i + 5;
	}
	ok(same, "200000 strings keep their ids while the table grows");
	ok(pj_writer_close(w) == 0, "close");
}

/* --- truncation and damage --- */

/* Writes a file of many small chunks; returns the number of samples. */
static size_t write_chunky(const char *path)
{
	char err[256];
	struct pj_writer *w = pj_writer_open(path, err, sizeof(err));
	struct pj_event_desc ev = { 0, "cpu-clock", "ns", 1, 0, 1000000, 0 };
	size_t n = 0;

	pj_writer_event(w, &ev);
	pj_writer_meta(w, "command", "chunky");
	for (int round = 0; round < 6; round++) {
		uint32_t f[3];
		char name[32];

		for (int i = 0; i < 3; i++) {
			snprintf(name, sizeof(name), "fn_%d_%d", round, i);
			f[i] = pj_writer_frame(w, PJ_FRAME_NATIVE, name,
					       "/bin/x", NULL, 0);
		}
		uint32_t st = pj_writer_stack(w, f, 3);

		snprintf(name, sizeof(name), "t%d", round);
		pj_writer_thread(w, 100 + round, 100, name);
		for (int i = 0; i < 5; i++, n++) {
			struct pj_sample s = { .time = 1000 + n * 10,
					       .period = 1000000,
					       .tid = 100 + round,
					       .stack = st };

			pj_writer_sample(w, &s);
		}
		pj_writer_stat(w, "samples", n);
		pj_writer_flush(w);
	}
	pj_writer_close(w);
	return n;
}

static void test_truncation(void)
{
	size_t size, nb = 0, total = write_chunky(tmp("ch.data"));
	uint8_t *buf = slurp(tmp("ch.data"), &size);
	size_t bounds[128], samples_at[128], nsamples = 0;
	int bad = 0, boundaries_ok = 0;
	char err[256];

	/* Chunk boundaries and the samples complete at each. */
	for (size_t off = sizeof(struct pj_file_header);;) {
		struct pj_chunk_header h;

		bounds[nb] = off;
		samples_at[nb++] = nsamples;
		if (off + sizeof(h) > size || nb == 128)
			break;
		memcpy(&h, buf + off, sizeof(h));
		if (h.type == PJ_CHUNK_SAMPLES)
			nsamples += 5;
		off += sizeof(h) + h.size;
	}
	ok(nsamples == total && bounds[nb - 1] == size,
	   "%zu chunks, %zu samples", nb - 1, nsamples);
	for (size_t len = 0; len <= size; len++) {
		struct pj_profile *p;
		size_t k = 0, expect;
		int r, at_bound = 0;

		spit(tmp("cut.data"), buf, len);
		r = pj_profile_load(tmp("cut.data"), &p, err, sizeof(err));
		if (len < sizeof(struct pj_file_header)) {
			if (r == 0) {
				bad++;
				pj_profile_free(p);
			}
			continue;
		}
		while (k + 1 < nb && bounds[k + 1] <= len)
			k++;
		expect = samples_at[k];
		at_bound = bounds[k] == len;
		if (r != 0 || p->truncated == at_bound ||
		    p->nsamples != expect || p->finished != (len == size)) {
			if (bad++ < 3)
				printf("# cut at %zu: r=%d %s\n", len, r,
				       r ? err : "");
		} else if (at_bound) {
			boundaries_ok++;
		}
		if (r == 0)
			pj_profile_free(p);
	}
	ok(!bad,
	   "cut at each of %zu lengths: complete chunks load, the rest "
	   "is flagged truncated",
	   size + 1);
	ok(boundaries_ok == (int)nb, "every chunk boundary loads untruncated");
	free(buf);
}

/* Loads buf and checks that it fails with a message starting with want. */
static void expect_damage(const uint8_t *buf, size_t size, const char *want,
			  const char *what)
{
	struct pj_profile *p;
	char err[256] = "";
	int r;

	spit(tmp("bad.data"), buf, size);
	r = pj_profile_load(tmp("bad.data"), &p, err, sizeof(err));
	ok(r == -1 && !strncmp(err, want, strlen(want)), "%s: \"%s\"", what,
	   r ? err : "loaded");
	if (!r)
		pj_profile_free(p);
}

/* Appends a chunk with a correct crc after the first n bytes of base. */
static size_t with_chunk(uint8_t *out, const uint8_t *base, size_t n,
			 unsigned int type, const uint8_t *payload, size_t plen)
{
	struct pj_chunk_header h = { PJ_CHUNK_MAGIC, (uint16_t)type, 0,
				     (uint32_t)plen,
				     (uint32_t)crc32(0, payload, (uInt)plen) };

	memcpy(out, base, n);
	memcpy(out + n, &h, sizeof(h));
	memcpy(out + n + sizeof(h), payload, plen);
	return n + sizeof(h) + plen;
}

static void test_damage(void)
{
	size_t size, n, first = sizeof(struct pj_file_header);
	uint8_t *buf, *b2;
	struct pj_chunk_header h;
	char want[64];

	write_chunky(tmp("dm.data"));
	buf = slurp(tmp("dm.data"), &size);
	b2 = malloc(size + 256);

	memcpy(b2, buf, size);
	memcpy(b2, "NOTAPROF", 8);
	expect_damage(b2, size, "not a perfjava profile", "wrong magic");
	expect_damage(b2, 0, "empty file", "empty file");

	memcpy(b2, buf, size);
	b2[8] = 2;
	expect_damage(b2, size,
		      "unsupported profile version 2 (this perfjava reads "
		      "version 1)",
		      "wrong version");

	memcpy(b2, buf, size);
	b2[first + 16 + 1] ^= 0x40; /* in the first payload */
	snprintf(want, sizeof(want), "damaged at offset %zu: checksum", first);
	expect_damage(b2, size, want, "crc mismatch");

	memcpy(b2, buf, size);
	memcpy(&h, buf + first, sizeof(h));
	n = first + sizeof(h) + h.size; /* the second chunk */
	b2[n] ^= 1;
	snprintf(want, sizeof(want), "damaged at offset %zu: bad chunk magic",
		 n);
	expect_damage(b2, size, want, "bad chunk magic");

	/* A sample that names a stack that was never defined. */
	n = with_chunk(b2, buf, first, PJ_CHUNK_SAMPLES,
		       (const uint8_t[]){ 0, 2, 0 }, 3);
	snprintf(want, sizeof(want), "damaged at offset %zu: stack id 0 is",
		 first + sizeof(h) + 2);
	expect_damage(b2, n, want, "out-of-range stack id");
	/* A frame whose name is an undefined string. */
	n = with_chunk(b2, buf, first, PJ_CHUNK_FRAMES,
		       (const uint8_t[]){ 0, 5, 0, 0, 0 }, 5);
	expect_damage(b2, n, "damaged at offset 49: string id 5",
		      "out-of-range string id");
	/* A stack with an undefined frame. */
	n = with_chunk(b2, buf, first, PJ_CHUNK_STACKS,
		       (const uint8_t[]){ 1, 0 }, 2);
	expect_damage(b2, n, "damaged at offset 49: frame id 0",
		      "out-of-range frame id");
	/* An 11-byte varint. */
	n = with_chunk(b2, buf, first, PJ_CHUNK_STRINGS,
		       (const uint8_t[]){ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					  0xff, 0xff, 0xff, 0xff, 0x01 },
		       11);
	expect_damage(b2, n, "damaged at offset 48: malformed varint",
		      "malformed varint");
	n = with_chunk(b2, buf, first, PJ_CHUNK_STRINGS,
		       (const uint8_t[]){ 9, 'a', 'b' }, 3);
	expect_damage(b2, n, "damaged at offset 48: string of 9 bytes",
		      "string past its chunk");
	n = with_chunk(b2, buf, first, PJ_CHUNK_FRAMES,
		       (const uint8_t[]){ 42, 0, 0, 0, 0 }, 5);
	expect_damage(b2, n, "damaged at offset 48: unknown frame type 42",
		      "unknown frame type");
	free(b2);
	free(buf);
}

/* Random flips and cuts of a valid file: each loads or fails cleanly. */
static void test_fuzz(void)
{
	size_t size;
	uint8_t *buf, *b2;
	int loaded = 0, failed = 0, unclear = 0;
	unsigned int seed = 12345;

	write_chunky(tmp("fz.data"));
	buf = slurp(tmp("fz.data"), &size);
	b2 = malloc(size);
	for (int iter = 0; iter < 3000; iter++) {
		struct pj_profile *p;
		char err[256] = "";
		size_t len = size;
		int nflips = 1 + rand_r(&seed) % 4;

		memcpy(b2, buf, size);
		for (int i = 0; i < nflips; i++)
			b2[rand_r(&seed) % size] ^=
			    (uint8_t)(1u << (rand_r(&seed) % 8));
		if (iter % 3 == 0)
			len = (size_t)rand_r(&seed) % size;
		spit(tmp("fz2.data"), b2, len);
		if (pj_profile_load(tmp("fz2.data"), &p, err, sizeof(err)) ==
		    0) {
			/* What loaded must be consistent. */
			for (size_t i = 0; i < p->nsamples; i++)
				if (p->samples[i].stack >= p->nstacks)
					unclear++;
			loaded++;
			pj_profile_free(p);
		} else {
			failed++;
			if (!strstr(err, "damaged at offset") &&
			    strcmp(err, "not a perfjava profile") &&
			    !strstr(err, "unsupported profile version") &&
			    !strstr(err, "empty file")) {
				if (unclear++ < 3)
					printf("# unexpected message: %s\n",
					       err);
			}
		}
	}
	printf("# fuzz: %d loaded, %d rejected\n", loaded, failed);
	ok(!unclear && loaded && failed,
	   "3000 damaged copies: each loads consistently or fails with a "
	   "clear message");
	free(b2);
	free(buf);
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
	ok(!w && strstr(err, "No space left"), "open on a full device: %s",
	   err);

	w = pj_writer_open(tmp("big.data"), err, sizeof(err));
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
	struct timespec t0, t1;
	struct pj_writer *w;
	struct pj_profile *p;
	char err[256];
	double bps, secs;
	int r;

	clock_gettime(CLOCK_MONOTONIC, &t0);
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
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	{
		size_t fsize;
		uint8_t *b = slurp(tmp("size.data"), &fsize);

		bps = (double)fsize / (double)nsamples;
		free(b);
	}
	printf("# 1M samples: %.2f bytes/sample, written in %.2f s\n", bps,
	       secs);
	ok(r == 0 && bps < 16, "bytes per sample %.2f < 16", bps);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	r = pj_profile_load(tmp("size.data"), &p, err, sizeof(err));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("# loaded in %.2f s\n",
	       (double)(t1.tv_sec - t0.tv_sec) +
		   (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
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
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_varint();
	test_round_trip();
	test_interning();
	test_truncation();
	test_damage();
	test_fuzz();
	test_write_error();
	test_size();
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd))
			printf("# could not remove %s\n", dir);
	}
	return tap_done();
}

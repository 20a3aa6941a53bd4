// SPDX-License-Identifier: GPL-2.0
/*
 * A large profile of realistic shape, written through the real writer, for
 * `make bench` and the browser test: `test_report_big --make FILE [SAMPLES
 * [STACKS]]` (default 1000000 samples over 100000 unique stacks). Stacks
 * share their outer frames the way real call trees do (thread entry, a
 * framework, then branching application code), end in unique leaf chains,
 * and mix every frame kind; samples are skewed towards a few hot stacks but
 * every stack occurs. `--make-deep FILE` writes the shape of
 * selftests/java/src/Recurse.java instead: a thread 1500 calls deep (90% of
 * the samples) beside shallow ones, for the flame page's first screen;
 * `--make-long FILE` 10 minutes of 8 threads at 1 kHz for the heatmap. Run
 * without arguments it checks a small one: the collapsed report counts
 * every sample and every unique stack.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile/io.h"
#include "report/report.h"
#include "tap.h"

#define NFUNCS 6000
#define BRANCH 4
#define NTHREADS 16

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x ^ (x >> 33);
}

/* A writer on path with NTHREADS threads and nstacks stacks of the shape
 * above (their ids in stacks), starting at time t0; NULL after a message. */
static struct pj_writer *open_stacks(const char *path, uint32_t nstacks,
				     uint32_t *stacks, uint64_t t0)
{
	static const enum pj_frame_type kinds[] = {
		PJ_FRAME_JIT,	      PJ_FRAME_JIT, PJ_FRAME_INLINED,
		PJ_FRAME_INTERPRETED, PJ_FRAME_C1,  PJ_FRAME_NATIVE,
	};
	struct pj_event_desc ev = { 0, "cpu-clock", "ns", 1, 0, 1000000, 0 };
	uint32_t *funcs = malloc(NFUNCS * sizeof(*funcs));
	uint32_t digits = 0, frames[64];
	struct pj_writer *w;
	char err[256], name[128];

	w = pj_writer_open(path, err, sizeof(err));
	if (!w || !funcs) {
		printf("# %s\n", w ? "out of memory" : err);
		free(funcs);
		return NULL;
	}
	snprintf(name, sizeof(name), "%llu", (unsigned long long)t0);
	pj_writer_meta(w, "start_ns", name);
	pj_writer_event(w, &ev);
	for (uint32_t f = 0; f < NFUNCS; f++) {
		enum pj_frame_type k = kinds[mix(f) % 6];

		if (f % 10 == 9)
			k = PJ_FRAME_KERNEL;
		if (k == PJ_FRAME_KERNEL)
			snprintf(name, sizeof(name), "f_%u_kernel_path", f);
		else if (k == PJ_FRAME_NATIVE)
			snprintf(name, sizeof(name), "f_%u::native_helper()",
				 f);
		else
			snprintf(name, sizeof(name),
				 "com.example.pkg%u.Class%u.f_%u", f % 37,
				 f % 401, f);
		funcs[f] = pj_writer_frame(
		    w, k, name,
		    k == PJ_FRAME_KERNEL   ? "vmlinux"
		    : k == PJ_FRAME_NATIVE ? "/usr/lib/libapp.so"
					   : NULL,
		    k == PJ_FRAME_NATIVE || k == PJ_FRAME_KERNEL ? NULL
								 : "App.java",
		    (uint32_t)(mix(f + 7) % 900));
	}
	for (uint32_t n = nstacks; n > 1; n = (n + BRANCH - 1) / BRANCH)
		digits++;
	for (uint32_t i = 0; i < nstacks; i++) {
		unsigned int n = 0, tail = (unsigned int)(mix(i) % 4);

		/* Root first here; reversed into leaf first below. */
		frames[n++] = funcs[0]; /* start_thread-like entry */
		frames[n++] = funcs[1 + i % 3];
		for (uint32_t d = digits, pre = 0; d > 0; d--) {
			uint32_t digit = i, width = 1;

			for (uint32_t k = 1; k < d; k++)
				width *= BRANCH;
			digit = (i / width) % BRANCH;
			pre = pre * BRANCH + digit;
			/* One or two frames per branching level. */
			frames[n++] =
			    funcs[4 + mix(pre * 31 + d) % (NFUNCS - 4)];
			if (mix(pre + d) % 3 == 0)
				frames[n++] =
				    funcs[4 + mix(pre * 17 + d) % (NFUNCS - 4)];
		}
		for (unsigned int k = 0; k < tail; k++)
			frames[n++] = funcs[4 + mix(i * 7 + k) % (NFUNCS - 4)];
		for (unsigned int a = 0, b = n - 1; a < b; a++, b--) {
			uint32_t x = frames[a];

			frames[a] = frames[b];
			frames[b] = x;
		}
		stacks[i] = pj_writer_stack(w, frames, n);
	}
	for (uint32_t i = 0; i < NTHREADS; i++) {
		snprintf(name, sizeof(name), "worker-%u", i);
		pj_writer_thread(w, 100 + i, 100, name);
	}
	free(funcs);
	return w;
}

static int make(const char *path, size_t nsamples, uint32_t nstacks)
{
	uint32_t *stacks = malloc(nstacks * sizeof(*stacks));
	uint64_t t = 1000000000;
	struct pj_writer *w = stacks ? open_stacks(path, nstacks, stacks, t)
				     : NULL;

	if (!w) {
		free(stacks);
		return -1;
	}
	for (size_t j = 0; j < nsamples; j++) {
		struct pj_sample s = { .time = t, .period = 1000000 };
		uint64_t h = mix(j + 12345);

		/* Every stack once, then half the samples on 1% of them. */
		if (j < nstacks)
			s.stack = stacks[j];
		else if (h & 1)
			s.stack = stacks[(h >> 8) % (nstacks / 100 + 1)];
		else
			s.stack = stacks[(h >> 8) % nstacks];
		s.tid = 100 + (uint32_t)(h >> 40) % NTHREADS;
		s.cpu = (uint32_t)(h >> 50) % 2;
		t += 1000000 / NTHREADS;
		s.time = t;
		pj_writer_sample(w, &s);
		if (pj_writer_pending(w) > (4u << 20))
			pj_writer_flush(w);
	}
	pj_writer_stat(w, "samples", nsamples);
	free(stacks);
	return pj_writer_close(w);
}

#define LONG_SECS 600
#define LONG_THREADS 8

/*
 * A 10-minute recording of 8 threads sampled at 1 kHz while on CPU, for the
 * heatmap's size and load time: each thread runs 75% of the time, 40% in
 * the first 10 s of each minute, all of it in a 3-second spike at 400 s
 * that one stack dominates; the hot 1% of the stacks moves each minute.
 */
static int make_long(const char *path)
{
	const uint32_t nstacks = 100000;
	uint32_t *stacks = malloc(nstacks * sizeof(*stacks));
	uint64_t t0 = 1000000000, n = 0;
	struct pj_writer *w = stacks ? open_stacks(path, nstacks, stacks, t0)
				     : NULL;

	if (!w) {
		free(stacks);
		return -1;
	}
	for (uint64_t ms = 0; ms < LONG_SECS * 1000ull; ms++) {
		uint64_t sec = ms / 1000, minute = sec / 60;
		bool spike = sec >= 400 && sec < 403;
		unsigned int busy = spike ? 100 : sec % 60 < 10 ? 40 : 75;

		for (uint32_t th = 0; th < LONG_THREADS; th++) {
			uint64_t h = mix(ms * LONG_THREADS + th);
			struct pj_sample s = { .period = 1000000,
					       .tid = 100 + th };

			if (h % 100 >= busy)
				continue;
			h >>= 8;
			if (spike && h % 4)
				s.stack = stacks[nstacks / 2];
			else if (h & 1)
				s.stack = stacks[(minute * 1000 +
						  (h >> 8) % (nstacks / 100)) %
						 nstacks];
			else
				s.stack = stacks[(h >> 8) % nstacks];
			s.time =
			    t0 + ms * 1000000 + th * 1000000 / LONG_THREADS;
			pj_writer_sample(w, &s);
			n++;
			if (pj_writer_pending(w) > (4u << 20))
				pj_writer_flush(w);
		}
	}
	pj_writer_stat(w, "samples", n);
	free(stacks);
	return pj_writer_close(w);
}

#define DEEP 1500

/* Recurse.down 1500 calls deep under its thread (90 samples), and two
 * shallow stacks (5 samples each). */
static int make_deep(const char *path)
{
	struct pj_event_desc ev = { 0, "cpu-clock", "ns", 1, 0, 1000000, 0 };
	uint32_t *deep = malloc((DEEP + 3) * sizeof(*deep)), shallow[3];
	uint32_t down, lambda, run, start, sd, ss1, ss2;
	struct pj_sample smp = { .time = 1000000000, .period = 1000000 };
	struct pj_writer *w;
	char err[256];

	w = pj_writer_open(path, err, sizeof(err));
	if (!w || !deep) {
		printf("# %s\n", w ? "out of memory" : err);
		free(deep);
		return -1;
	}
	pj_writer_event(w, &ev);
	pj_writer_thread(w, 1, 1, "deep");
	down = pj_writer_frame(w, PJ_FRAME_JIT, "Recurse.down", NULL,
			       "Recurse.java", 7);
	lambda = pj_writer_frame(w, PJ_FRAME_INTERPRETED,
				 "Recurse.lambda$main$0", NULL, NULL, 0);
	run = pj_writer_frame(w, PJ_FRAME_INTERPRETED, "java.lang.Thread.run",
			      NULL, NULL, 0);
	start = pj_writer_frame(w, PJ_FRAME_NATIVE, "start_thread",
				"/lib/libc.so.6", NULL, 0);
	for (uint32_t i = 0; i < DEEP; i++) /* leaf first */
		deep[i] = down;
	deep[DEEP] = lambda;
	deep[DEEP + 1] = run;
	deep[DEEP + 2] = start;
	sd = pj_writer_stack(w, deep, DEEP + 3);
	shallow[0] = pj_writer_frame(w, PJ_FRAME_NATIVE, "C2Compiler::compile",
				     "/jvm/libjvm.so", NULL, 0);
	shallow[1] = pj_writer_frame(w, PJ_FRAME_NATIVE, "thread_native_entry",
				     "/jvm/libjvm.so", NULL, 0);
	shallow[2] = start;
	ss1 = pj_writer_stack(w, shallow, 3);
	ss2 = pj_writer_stack(w, shallow + 1, 2);
	for (int i = 0; i < 100; i++) {
		smp.stack = i < 90 ? sd : i < 95 ? ss1 : ss2;
		smp.tid = i < 90 ? 1 : 2;
		smp.time += 1000000;
		pj_writer_sample(w, &smp);
	}
	free(deep);
	return pj_writer_close(w);
}

int main(int argc, char **argv)
{
	char path[] = "/tmp/pj-big-XXXXXX", data[64], out[64], cmd[200];
	char *argv2[] = { "report",    "-i", data, "--format",
			  "collapsed", "-o", out,  NULL };
	unsigned long long total = 0, lines = 0, n;
	FILE *f;

	if (argc == 3 && !strcmp(argv[1], "--make-long"))
		return make_long(argv[2]) ? 1 : 0;
	if (argc == 3 && !strcmp(argv[1], "--make-deep"))
		return make_deep(argv[2]) ? 1 : 0;
	if (argc >= 3 && !strcmp(argv[1], "--make"))
		return make(argv[2],
			    argc > 3 ? strtoull(argv[3], NULL, 10) : 1000000,
			    argc > 4 ? (uint32_t)strtoul(argv[4], NULL, 10)
				     : 100000)
			   ? 1
			   : 0;
	if (!mkdtemp(path))
		return 1;
	snprintf(data, sizeof(data), "%s/big.data", path);
	snprintf(out, sizeof(out), "%s/c.txt", path);
	if (ok(make(data, 20000, 2000) == 0, "20000 samples, 2000 stacks") &&
	    ok(cmd_report(7, argv2) == 0, "collapsed report of it")) {
		f = fopen(out, "r");
		while (f && fscanf(f, "%*[^ ] %llu\n", &n) == 1) {
			total += n;
			lines++;
		}
		if (f)
			fclose(f);
		ok(total == 20000, "collapsed counts every sample (%llu)",
		   total);
		ok(lines == 2000, "every stack is unique (%llu)", lines);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", path);
	if (system(cmd))
		printf("# could not remove %s\n", path);
	return tap_done();
}

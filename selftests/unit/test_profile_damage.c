// SPDX-License-Identifier: GPL-2.0
/*
 * The profile file when it is damaged: recovery of truncated files, rejection
 * of damaged ones with a message saying where, and robustness against random
 * flips and cuts.
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
#include "profile_util.h"
#include "tap.h"
#include "lib/varint.h"

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
	b2[8] = 3;
	expect_damage(b2, size,
		      "unsupported profile version 3 (this perfjava reads "
		      "versions 1 to 2: a newer perfjava wrote it)",
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

int main(void)
{
	if (tmpdir_make())
		return 1;
	test_truncation();
	test_damage();
	test_fuzz();
	tmpdir_remove();
	return tap_done();
}

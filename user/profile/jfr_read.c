// SPDX-License-Identifier: GPL-2.0
/*
 * A JDK Flight Recorder file read as a profile (profile/jfr.h): the JDK's
 * own recordings, async-profiler's (-o jfr) and perfjava's (report
 * --format jfr), into the same arrays as a perfjava file, so that every
 * report format and --diff work on them.
 *
 * The file is read one chunk at a time, as perfjava's own (profile/read.c):
 * memory holds what is decoded and one chunk. A chunk's header is checked
 * against the bytes the file has, and a chunk with a hole (a sparse file:
 * its header claims gigabytes that take no disk) is refused before it is
 * read. Each chunk: its header (version 2, compressed integers), its
 * metadata, then two passes over its events: the first reads the
 * checkpoints (constant pools), the settings and the JVM's information,
 * the second the samples (profile/jfr_event.c). A chunk may cost
 * JFR_WORK_PER_BYTE steps a byte of it, no more.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/grow.h"
#include "profile/jfr.h"

struct rd {
	struct jfr_build b;
	struct jfr_cur c;
	uint64_t duration;
	uint64_t work; /* steps the chunk being read may still cost */
	bool have_start;
	uint8_t *buf; /* the chunk */
	size_t cap;
};

static int oom(struct rd *r)
{
	snprintf(r->c.err, r->c.errlen, "out of memory");
	return -1;
}

/* One pass over the chunk's events: checkpoints and settings first
 * (samples refer to them), samples second. */
static int pass(struct rd *r, struct jfr_chunk *ch, enum jfr_pass which)
{
	struct jfr_cur *c = &r->c;

	for (const uint8_t *at = ch->events; at < ch->end;) {
		uint64_t size, type;
		uint32_t k;

		c->p = at;
		c->end = ch->end;
		if (jfr_get_varint(c, &size))
			return -1;
		if (size < 2 || size > (uint64_t)(ch->end - at))
			return jfr_damaged(c, at, "event size %llu",
					   (unsigned long long)size);
		c->end = at + size;
		if (jfr_get_varint(c, &type))
			return -1;
		at += size;
		if (type == 1) {
			if (which == JFR_PASS_FIRST && jfr_cp_read(ch->cp, c))
				return -1;
			continue;
		}
		if (jfr_event_pass(ch->ev, type, &k) == which &&
		    jfr_event_read(ch, &r->b, c, k))
			return -1;
	}
	return 0;
}

static uint64_t be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static void free_chunk(struct jfr_chunk *ch)
{
	jfr_events_free(ch->ev);
	jfr_stacks_free(ch->st);
	jfr_cp_free(ch->cp);
	jfr_meta_free(&ch->m);
}

/* The file's start, from its first chunk: the report's time 0. */
static int first_start(struct rd *r, uint64_t ns)
{
	char t[32];

	r->have_start = true;
	snprintf(t, sizeof(t), "%llu", (unsigned long long)ns);
	if (jfr_add_meta(&r->b, "start_ns", t) ||
	    jfr_add_meta(&r->b, "start_realtime_ns", t))
		return oom(r);
	snprintf(t, sizeof(t), "%llu", (unsigned long long)(ns / 1000000000));
	return jfr_add_meta(&r->b, "start_realtime", t) ? oom(r) : 0;
}

/* The chunk in r->buf (csize bytes, its header checked): metadata,
 * pools, events. */
static int parse_chunk(struct rd *r, uint64_t csize)
{
	const uint8_t *h = r->buf;
	struct jfr_cur *c = &r->c;
	struct jfr_chunk ch = { .start = h };
	uint64_t meta_off = be64(h + 24), v;
	int ret = -1;

	ch.start_nanos = be64(h + 32);
	ch.start_ticks = be64(h + 48);
	ch.tps = be64(h + 56);
	ch.events = h + JFR_HEADER_SIZE;
	ch.end = h + csize;
	r->duration += be64(h + 40);
	if (!r->have_start && first_start(r, ch.start_nanos))
		return -1;
	/* the metadata event: size, type 0, start, duration, id, body */
	c->p = h + meta_off;
	c->end = ch.end;
	if (jfr_get_varint(c, &v) || v > (uint64_t)(ch.end - (h + meta_off)))
		return jfr_damaged(c, h + meta_off, "bad metadata event");
	c->end = h + meta_off + v;
	for (int i = 0; i < 4; i++)
		if (jfr_get_varint(c, &v))
			return -1;
	if (jfr_meta_parse(&ch.m, c))
		goto out;
	ch.cp = jfr_cp_new(&ch.m);
	ch.st = ch.cp ? jfr_stacks_new(&ch.m, ch.cp, c) : NULL;
	ch.ev = ch.st ? jfr_events_new(&ch) : NULL;
	if (!ch.ev) {
		oom(r);
		goto out;
	}
	if (pass(r, &ch, JFR_PASS_FIRST) || pass(r, &ch, JFR_PASS_SAMPLES))
		goto out;
	ret = 0;
out:
	free_chunk(&ch);
	return ret;
}

/* n bytes at off into buf; false when the file is shorter (cut under us). */
static bool read_at(int fd, uint8_t *buf, uint64_t n, uint64_t off)
{
	while (n) {
		ssize_t k =
		    pread(fd, buf, n < (1u << 30) ? n : (1u << 30), (off_t)off);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		buf += k;
		off += (uint64_t)k;
		n -= (uint64_t)k;
	}
	return true;
}

/* Whether [off, off + n) of the file is all on disk: a hole (SEEK_HOLE
 * finds one before its end) is no JFR recorder's; a file system that
 * cannot tell says there is none. */
static bool no_hole(int fd, uint64_t off, uint64_t n)
{
	off_t h = lseek(fd, (off_t)off, SEEK_HOLE);

	return h < 0 || (uint64_t)h >= off + n;
}

/* The chunk at off: 0, 1 when it is incomplete (the file ends), -1. */
static int read_chunk(struct rd *r, int fd, uint64_t size, uint64_t off,
		      uint64_t *next)
{
	struct jfr_cur *c = &r->c;
	uint8_t h[JFR_HEADER_SIZE];
	uint64_t csize, cp_off, meta_off;

	c->base = h;
	c->base_off = off;
	if (size - off < JFR_HEADER_SIZE || !read_at(fd, h, sizeof(h), off))
		return 1;
	if (memcmp(h, "FLR\0", 4))
		return jfr_damaged(c, h, "no chunk header");
	if ((h[4] << 8 | h[5]) != 2 || !(h[67] & 1)) {
		snprintf(c->err, c->errlen,
			 "unsupported JFR version %u.%u%s (perfjava reads "
			 "2.x with compressed integers)",
			 (unsigned int)(h[4] << 8 | h[5]),
			 (unsigned int)(h[6] << 8 | h[7]),
			 h[67] & 1 ? "" : " without compressed integers");
		return -1;
	}
	csize = be64(h + 8);
	cp_off = be64(h + 16);
	meta_off = be64(h + 24);
	if (csize > size - off || !meta_off || !cp_off)
		return 1; /* still being written, or cut */
	if (csize < JFR_HEADER_SIZE || meta_off < JFR_HEADER_SIZE ||
	    meta_off >= csize || cp_off < JFR_HEADER_SIZE || cp_off >= csize ||
	    !be64(h + 56))
		return jfr_damaged(c, h, "bad chunk header");
	if (csize > SIZE_MAX - 1 || !no_hole(fd, off, csize))
		return jfr_damaged(c, h,
				   "a chunk of %llu bytes with a hole (a "
				   "sparse file, not a recording)",
				   (unsigned long long)csize);
	if (GROW(r->buf, r->cap, (size_t)csize))
		return oom(r);
	if (!read_at(fd, r->buf, csize, off))
		return 1; /* shortened under us */
	*next = off + csize;
	c->base = r->buf;
	r->work = JFR_WORK_PER_BYTE * csize + (1u << 20);
	return parse_chunk(r, csize);
}

int profile_jfr_parse(struct priv *d, int fd, uint64_t size, char *err,
		      size_t errlen)
{
	struct rd r = { .b.d = d, .c = { .err = err, .errlen = errlen } };
	uint64_t off = 0, next = 0;
	int ret = -1, rc;

	r.c.work = &r.work;
	while (off < size) {
		rc = read_chunk(&r, fd, size, off, &next);
		if (rc < 0)
			goto out;
		if (rc > 0) {
			if (!off) {
				snprintf(err, errlen,
					 "incomplete JFR file: its first chunk "
					 "is not finished");
				goto out;
			}
			d->p.truncated = true;
			break;
		}
		off = next;
	}
	if (jfr_finish_events(&r.b) || jfr_add_meta(&r.b, "format", "jfr") ||
	    GROW(d->p.stats, d->stats_cap, 2)) {
		oom(&r);
		goto out;
	}
	d->p.finished = !d->p.truncated;
	d->p.stats[d->p.nstats++] =
	    (struct pj_kv){ .key = (char *)"duration_ns", .num = r.duration };
	d->p.stats[d->p.nstats++] =
	    (struct pj_kv){ .key = (char *)"jfr_dropped", .num = r.b.dropped };
	ret = 0;
out:
	jfr_build_free(&r.b);
	free(r.buf);
	return ret;
}

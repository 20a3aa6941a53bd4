// SPDX-License-Identifier: GPL-2.0
/*
 * Writing the profile file: chunked, append-only output (format:
 * include/perfjava/profile.h); strings, frames and stacks are interned by
 * profile/intern.c.
 *
 * Every kind of record goes to its own buffer; pj_writer_flush() turns each
 * non-empty buffer into one chunk, in dependency order, and writes each chunk
 * (header and payload) with one write() call, so that a recorder killed at any
 * moment leaves only complete chunks behind (plus at most one cut short).
 * After the first write error the writer writes nothing more: the file keeps
 * its complete chunks, and the error is reported by pj_writer_error().
 * A writer in memory (pj_writer_open_mem) drops its chunks instead, and its
 * tap gets each sample, thread and process as the file would.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "lib/grow.h"
#include "lib/text.h"
#include "lib/varint.h"
#include "profile/writer.h"

/* A buffer that grows past this is flushed at the next record boundary. */
#define CHUNK_SOFT_MAX (4u << 20)

static const unsigned int buf_type[B_NR] = {
	[B_META] = PJ_CHUNK_META,	    [B_EVENTS] = PJ_CHUNK_EVENTS,
	[B_STRINGS] = PJ_CHUNK_STRINGS,	    [B_FRAMES] = PJ_CHUNK_FRAMES,
	[B_ADDRS] = PJ_CHUNK_ADDRS,	    [B_STACKS] = PJ_CHUNK_STACKS,
	[B_THREADS] = PJ_CHUNK_THREADS,	    [B_SAMPLES] = PJ_CHUNK_SAMPLES,
	[B_VTHREADS] = PJ_CHUNK_VTHREADS,   [B_STATS] = PJ_CHUNK_STATS,
	[B_PROCESSES] = PJ_CHUNK_PROCESSES, [B_END] = PJ_CHUNK_END,
};

void writer_fail(struct pj_writer *w, int err)
{
	if (!w->err)
		w->err = err ? err : EIO;
}

static uint8_t *buf_room(struct pj_writer *w, int b, size_t n)
{
	struct buf *bf = &w->bufs[b];

	if (bf->len + n > bf->cap) {
		/* The chunk header goes before the payload: room for both. */
		size_t total = bf->data ? HDR_SIZE + bf->cap : 0;

		if (GROW(bf->data, total, HDR_SIZE + bf->len + n)) {
			w->oom = 1;
			return NULL;
		}
		bf->cap = total - HDR_SIZE;
	}
	return bf->data + HDR_SIZE + bf->len;
}

int writer_put_uv(struct pj_writer *w, int b, uint64_t v)
{
	uint8_t *p = buf_room(w, b, PJ_VARINT_MAX);

	if (!p)
		return -1;
	w->bufs[b].len += pj_put_uv(p, v);
	return 0;
}

int writer_put_str(struct pj_writer *w, int b, const char *s, size_t n)
{
	uint8_t *p;

	if (writer_put_uv(w, b, n))
		return -1;
	p = buf_room(w, b, n);
	if (!p)
		return -1;
	memcpy(p, s, n);
	w->bufs[b].len += n;
	return 0;
}

/* Flushes when a buffer grew past the soft limit (at a record boundary). */
void writer_maybe_flush(struct pj_writer *w, int b)
{
	if (w->bufs[b].len >= CHUNK_SOFT_MAX)
		pj_writer_flush(w);
}

struct pj_writer *pj_writer_open(const char *path, char *err, size_t errlen)
{
	struct pj_file_header h = { .version = PJ_FILE_VERSION,
				    .header_size = sizeof(h) };
	struct pj_writer *w = calloc(1, sizeof(*w));
	struct timespec ts;
	ssize_t n;

	if (!w) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	w->fd = -1;
	/* 0600, as perf.data: it holds the target's command line. A new
	 * file under a temporary name (lib/outfile.h): what was there stays
	 * until pj_writer_commit(), as NAME.old after it. */
	if (outfile_create(&w->out, path, 0600, true, err, errlen)) {
		pj_writer_abort(w);
		return NULL;
	}
	w->fd = w->out.fd;
	memcpy(h.magic, PJ_FILE_MAGIC, sizeof(h.magic));
	clock_gettime(CLOCK_REALTIME, &ts);
	h.created_realtime_ns =
	    (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	n = write(w->fd, &h, sizeof(h));
	if (n != (ssize_t)sizeof(h)) {
		snprintf(err, errlen, "cannot write %s: %s", path,
			 n < 0 ? strerror(errno) : "short write");
		pj_writer_abort(w);
		return NULL;
	}
	w->bytes = sizeof(h);
	for (int i = 0; i < B_NR; i++)
		w->bufs[i].type = buf_type[i];
	return w;
}

struct pj_writer *pj_writer_open_mem(const struct pj_writer_tap *tap)
{
	struct pj_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	/* no file: committed already, nothing to remove */
	w->out = (struct outfile){ .dirfd = -1, .fd = -1, .committed = true };
	w->fd = -1;
	w->tap = tap;
	for (int i = 0; i < B_NR; i++)
		w->bufs[i].type = buf_type[i];
	return w;
}

int pj_writer_commit(struct pj_writer *w, char *err, size_t errlen)
{
	return outfile_commit(&w->out, err, errlen);
}

static int check(struct pj_writer *w)
{
	if (w->oom)
		writer_fail(w, ENOMEM);
	if (w->err) {
		errno = w->err;
		return -1;
	}
	return 0;
}

static int kv(struct pj_writer *w, int b, const char *key, const char *value,
	      uint64_t num)
{
	if (writer_put_str(w, b, key, writer_cut(key)) ||
	    (value ? writer_put_str(w, b, value, writer_cut(value))
		   : writer_put_uv(w, b, num)))
		writer_fail(w, ENOMEM);
	writer_maybe_flush(w, b);
	return check(w);
}

/* A copy of target text (a command line, a thread name) that is safe for
 * a terminal: reports print the file's header as it is. */
static char *clean_copy(struct pj_writer *w, const char *s)
{
	char *c = strndup(s ? s : "", STRING_MAX);

	if (!c)
		writer_fail(w, ENOMEM);
	else
		text_clean(c, strlen(c));
	return c;
}

int pj_writer_meta(struct pj_writer *w, const char *key, const char *value)
{
	char *v = clean_copy(w, value);
	int r = v ? kv(w, B_META, key, v, 0) : check(w);

	free(v);
	return r;
}

int pj_writer_stat(struct pj_writer *w, const char *key, uint64_t value)
{
	return kv(w, B_STATS, key, NULL, value);
}

int pj_writer_event(struct pj_writer *w, const struct pj_event_desc *ev)
{
	if (writer_put_uv(w, B_EVENTS, ev->index) ||
	    writer_put_str(w, B_EVENTS, ev->name, writer_cut(ev->name)) ||
	    writer_put_str(w, B_EVENTS, ev->unit, writer_cut(ev->unit)) ||
	    writer_put_uv(w, B_EVENTS, ev->type) ||
	    writer_put_uv(w, B_EVENTS, ev->config) ||
	    writer_put_uv(w, B_EVENTS, ev->period) ||
	    writer_put_uv(w, B_EVENTS, ev->freq))
		writer_fail(w, ENOMEM);
	return check(w);
}

int pj_writer_thread(struct pj_writer *w, uint32_t tid, uint32_t pid,
		     const char *name)
{
	char *n = clean_copy(w, name);

	if (n && w->tap && w->tap->thread)
		w->tap->thread(w->tap->ctx, tid, pid, n);
	if (!n || writer_put_uv(w, B_THREADS, tid) ||
	    writer_put_uv(w, B_THREADS, pid) ||
	    writer_put_str(w, B_THREADS, n, writer_cut(n)))
		writer_fail(w, ENOMEM);
	free(n);
	writer_maybe_flush(w, B_THREADS);
	return check(w);
}

int pj_writer_vthread(struct pj_writer *w, uint64_t id, const char *name)
{
	char *n = clean_copy(w, name);

	if (!n || writer_put_uv(w, B_VTHREADS, id) ||
	    writer_put_str(w, B_VTHREADS, n, writer_cut(n)))
		writer_fail(w, ENOMEM);
	free(n);
	writer_maybe_flush(w, B_VTHREADS);
	return check(w);
}

int pj_writer_process(struct pj_writer *w, uint32_t pid,
		      enum pj_process_kind kind, uint32_t flags,
		      const char *comm, const char *cmdline,
		      const char *container)
{
	char *c[3] = { clean_copy(w, comm), clean_copy(w, cmdline),
		       clean_copy(w, container) };

	if (c[0] && c[1] && c[2] && w->tap && w->tap->process)
		w->tap->process(w->tap->ctx, pid, kind, c[0], c[1]);
	if (!c[0] || !c[1] || !c[2] || writer_put_uv(w, B_PROCESSES, pid) ||
	    writer_put_uv(w, B_PROCESSES, kind) ||
	    writer_put_uv(w, B_PROCESSES, flags) ||
	    writer_put_str(w, B_PROCESSES, c[0], writer_cut(c[0])) ||
	    writer_put_str(w, B_PROCESSES, c[1], writer_cut(c[1])) ||
	    writer_put_str(w, B_PROCESSES, c[2], writer_cut(c[2])))
		writer_fail(w, ENOMEM);
	for (int i = 0; i < 3; i++)
		free(c[i]);
	writer_maybe_flush(w, B_PROCESSES);
	return check(w);
}

/* Which fields of s follow its dtime (PJ_S_*): those that changed from
 * the previous sample o, and those present when not their default. */
static uint32_t sample_flags(const struct pj_sample *s,
			     const struct pj_sample *o)
{
	return (s->tid != o->tid ? PJ_S_TID : 0) |
	       (s->cpu != o->cpu ? PJ_S_CPU : 0) |
	       (s->event != o->event ? PJ_S_EVENT : 0) |
	       (s->period != o->period ? PJ_S_PERIOD : 0) |
	       (s->info != o->info ? PJ_S_INFO : 0) |
	       (s->switches ? PJ_S_SWITCHES : 0) |
	       (s->count > 1 ? PJ_S_COUNT : 0) |
	       (s->vthread ? PJ_S_VTHREAD : 0) |
	       (s->pid != o->pid ? PJ_S_PID : 0);
}

int pj_writer_sample(struct pj_writer *w, const struct pj_sample *s)
{
	struct pj_sample *o = &w->prev;
	uint32_t flags = sample_flags(s, o);
	uint8_t *p, *q;

	if (check(w))
		return -1;
	if (w->tap && w->tap->sample)
		w->tap->sample(w->tap->ctx, s);
	p = buf_room(w, B_SAMPLES, 12 * PJ_VARINT_MAX);
	if (!p) {
		writer_fail(w, ENOMEM);
		return -1;
	}
	q = p + pj_put_uv(p, flags);
	q += pj_put_sv(q, (int64_t)(s->time - o->time));
	if (flags & PJ_S_TID)
		q += pj_put_uv(q, s->tid);
	if (flags & PJ_S_CPU)
		q += pj_put_uv(q, s->cpu);
	if (flags & PJ_S_EVENT)
		q += pj_put_uv(q, s->event);
	if (flags & PJ_S_PERIOD)
		q += pj_put_uv(q, s->period);
	q += pj_put_uv(q, s->stack);
	if (flags & PJ_S_INFO)
		q += pj_put_uv(q, s->info);
	if (flags & PJ_S_SWITCHES)
		q += pj_put_uv(q, s->switches);
	if (flags & PJ_S_COUNT)
		q += pj_put_uv(q, s->count);
	if (flags & PJ_S_VTHREAD)
		q += pj_put_uv(q, s->vthread);
	if (flags & PJ_S_PID)
		q += pj_put_uv(q, s->pid);
	w->bufs[B_SAMPLES].len += (size_t)(q - p);
	*o = *s;
	writer_maybe_flush(w, B_SAMPLES);
	return check(w);
}

size_t pj_writer_pending(const struct pj_writer *w)
{
	size_t n = 0;

	for (int i = 0; i < B_NR; i++)
		n += w->bufs[i].len;
	return n;
}

/* One chunk, header and payload, in one write() (retried if cut short). */
static void write_chunk(struct pj_writer *w, struct buf *b)
{
	struct pj_chunk_header h = { .magic = PJ_CHUNK_MAGIC,
				     .type = (uint16_t)b->type,
				     .size = (uint32_t)b->len };
	static const uint8_t none[1];
	const uint8_t *p;
	size_t left;

	if (w->fd < 0) { /* in memory: its tap had what it holds */
		b->len = 0;
		return;
	}
	if (!b->data) {
		/* An empty chunk (END) that never had a buffer. */
		b->data = malloc(HDR_SIZE);
		if (!b->data) {
			writer_fail(w, ENOMEM);
			return;
		}
	}
	h.crc = (uint32_t)crc32(0, b->len ? b->data + HDR_SIZE : none,
				(uInt)b->len);
	memcpy(b->data, &h, HDR_SIZE);
	p = b->data;
	left = HDR_SIZE + b->len;
	b->len = 0;
	while (left && !w->err) {
		ssize_t n = write(w->fd, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			writer_fail(w, n < 0 ? errno : EIO);
			break;
		}
		p += n;
		left -= (size_t)n;
		w->bytes += (uint64_t)n;
	}
}

int pj_writer_flush(struct pj_writer *w)
{
	if (check(w))
		goto drop;
	for (int i = 0; i < B_END; i++) {
		struct buf *b = &w->bufs[i];

		if (!b->len)
			continue;
		write_chunk(w, b);
		if (i == B_SAMPLES)
			memset(&w->prev, 0, sizeof(w->prev));
		if (w->err)
			goto drop;
	}
	return 0;
drop:
	/* Nothing more will be written: do not let buffers grow. */
	for (int i = 0; i < B_NR; i++)
		w->bufs[i].len = 0;
	memset(&w->prev, 0, sizeof(w->prev));
	errno = w->err;
	return -1;
}

int pj_writer_close(struct pj_writer *w)
{
	int ret = pj_writer_flush(w);
	char why[256];
	int err;

	if (!ret) {
		write_chunk(w, &w->bufs[B_END]);
		if (!w->err && w->fd >= 0 && fsync(w->fd) && errno != EINVAL)
			writer_fail(w, errno);
	}
	if (w->fd >= 0 && close(w->fd) && !w->err && errno != EINTR)
		writer_fail(w, errno);
	w->fd = w->out.fd = -1;
	/* a complete file takes its name (when not done at its start) */
	if (!w->err && outfile_commit(&w->out, why, sizeof(why)))
		writer_fail(w, errno ? errno : EIO);
	err = w->err;
	pj_writer_abort(w);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

void pj_writer_abort(struct pj_writer *w)
{
	if (!w)
		return;
	w->out.fd = w->fd;
	outfile_discard(&w->out); /* a file never committed goes */
	for (int i = 0; i < B_NR; i++)
		free(w->bufs[i].data);
	writer_intern_free(w);
	free(w);
}

const char *pj_writer_error(const struct pj_writer *w)
{
	if (w->err)
		return strerror(w->err);
	if (w->oom)
		return strerror(ENOMEM);
	return NULL;
}

uint64_t pj_writer_bytes(const struct pj_writer *w)
{
	return w->bytes;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Writing the profile file: interning of strings, frames and stacks, and
 * chunked, append-only output (format: include/perfjava/profile.h).
 *
 * Every kind of record goes to its own buffer; pj_writer_flush() turns each
 * non-empty buffer into one chunk, in dependency order, and writes each chunk
 * (header and payload) with one write() call, so that a recorder killed at any
 * moment leaves only complete chunks behind (plus at most one cut short).
 * After the first write error the writer writes nothing more: the file keeps
 * its complete chunks, and the error is reported by pj_writer_error().
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "lib/text.h"
#include "profile/io.h"
#include "lib/grow.h"
#include "lib/hash.h"
#include "lib/idtable.h"
#include "lib/strpool.h"
#include "lib/outfile.h"
#include "lib/varint.h"

/* A buffer that grows past this is flushed at the next record boundary. */
#define CHUNK_SOFT_MAX (4u << 20)
/* Longer strings are cut: a record must fit in a chunk. */
#define STRING_MAX (64u << 10)
#define HDR_SIZE sizeof(struct pj_chunk_header)

struct buf {
	uint8_t *data; /* HDR_SIZE bytes of room, then the payload */
	size_t len; /* payload bytes */
	size_t cap; /* payload capacity */
	unsigned int type;
};

struct str_ent {
	uint64_t hash;
	uint32_t off, len; /* in names */
};

struct frame_ent {
	uint64_t hash;
	uint32_t type, name, module, file, line; /* hashed together */
	bool has_addr;
};

/*
 * pj_writer_frame's last answers by the addresses of its arguments: its
 * callers pass the same strings again and again (a Java method's name for
 * every sample it is in). A hit is checked against the strings kept, so a
 * string that changed at the same address only misses.
 */
#define FRAME_MEMO 1024
struct frame_memo {
	const char *name, *module, *file;
	uint32_t type, line;
	uint32_t id; /* + 1; 0: empty */
};

struct stack_ent {
	uint64_t hash;
	uint32_t off, n; /* in stackpool */
};

enum {
	B_META,
	B_EVENTS,
	B_STRINGS,
	B_FRAMES,
	B_ADDRS,
	B_STACKS,
	B_THREADS,
	B_VTHREADS,
	B_PROCESSES,
	B_SAMPLES,
	B_STATS,
	B_END,
	B_NR
};

static const unsigned int buf_type[B_NR] = {
	[B_META] = PJ_CHUNK_META,	    [B_EVENTS] = PJ_CHUNK_EVENTS,
	[B_STRINGS] = PJ_CHUNK_STRINGS,	    [B_FRAMES] = PJ_CHUNK_FRAMES,
	[B_ADDRS] = PJ_CHUNK_ADDRS,	    [B_STACKS] = PJ_CHUNK_STACKS,
	[B_THREADS] = PJ_CHUNK_THREADS,	    [B_SAMPLES] = PJ_CHUNK_SAMPLES,
	[B_VTHREADS] = PJ_CHUNK_VTHREADS,   [B_STATS] = PJ_CHUNK_STATS,
	[B_PROCESSES] = PJ_CHUNK_PROCESSES, [B_END] = PJ_CHUNK_END,
};

struct pj_writer {
	struct outfile out; /* out.fd: the file written */
	int fd;
	int err; /* first errno, 0 = none */
	int oom;
	uint64_t bytes;
	struct buf bufs[B_NR];

	struct idtable strtab;
	struct str_ent *strs; /* index = id - 1 */
	uint32_t nstrs, strs_cap;
	struct strpool names; /* the strings' bytes (lib/strpool.h) */

	struct idtable frametab;
	struct frame_ent *frames;
	uint32_t nframes, frames_cap;
	struct frame_memo *memo; /* FRAME_MEMO of them, or NULL */

	struct idtable stacktab;
	struct stack_ent *stacks;
	uint32_t nstacks, stacks_cap;
	uint32_t *stackpool;
	size_t stackpool_len, stackpool_cap;

	/* Delta state of the current SAMPLES chunk. */
	struct pj_sample prev;
};

static void fail(struct pj_writer *w, int err)
{
	if (!w->err)
		w->err = err ? err : EIO;
}

/* The hashes of the tables' entries, for rehashing (lib/idtable.h). */
static uint64_t str_hash(const void *w, uint32_t i)
{
	return ((const struct pj_writer *)w)->strs[i].hash;
}

static uint64_t frame_hash(const void *w, uint32_t i)
{
	return ((const struct pj_writer *)w)->frames[i].hash;
}

static uint64_t stack_hash(const void *w, uint32_t i)
{
	return ((const struct pj_writer *)w)->stacks[i].hash;
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

static int put_uv(struct pj_writer *w, int b, uint64_t v)
{
	uint8_t *p = buf_room(w, b, PJ_VARINT_MAX);

	if (!p)
		return -1;
	w->bufs[b].len += pj_put_uv(p, v);
	return 0;
}

static int put_str(struct pj_writer *w, int b, const char *s, size_t n)
{
	uint8_t *p;

	if (put_uv(w, b, n))
		return -1;
	p = buf_room(w, b, n);
	if (!p)
		return -1;
	memcpy(p, s, n);
	w->bufs[b].len += n;
	return 0;
}

static size_t cut(const char *s)
{
	return s ? strnlen(s, STRING_MAX) : 0;
}

/* Flushes when a buffer grew past the soft limit (at a record boundary). */
static void maybe_flush(struct pj_writer *w, int b)
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

int pj_writer_commit(struct pj_writer *w, char *err, size_t errlen)
{
	return outfile_commit(&w->out, err, errlen);
}

uint32_t pj_writer_string(struct pj_writer *w, const char *s)
{
	size_t n = cut(s);
	uint64_t h;
	uint32_t i, v, off;

	if (!n)
		return 0;
	h = hash_bytes(s, n, 0);
	for (i = idtable_first(&w->strtab, h); (v = idtable_at(&w->strtab, i));
	     i = idtable_next(&w->strtab, i)) {
		struct str_ent *e = &w->strs[v - 1];

		if (e->hash == h && e->len == n &&
		    !memcmp(w->names.buf + e->off, s, n))
			return v;
	}
	if (w->oom || GROW(w->strs, w->strs_cap, w->nstrs + 1) ||
	    strpool_add(&w->names, s, n, &off) || put_str(w, B_STRINGS, s, n)) {
		w->oom = 1;
		fail(w, ENOMEM);
		return 0;
	}
	w->strs[w->nstrs] = (struct str_ent){ h, off, (uint32_t)n };
	v = ++w->nstrs; /* ids start at 1 */
	if (idtable_add(&w->strtab, h, v - 1, str_hash, w))
		w->oom = 1; /* nearly full and cannot grow: stop adding */
	maybe_flush(w, B_STRINGS);
	return v;
}

/* Whether string id (0: none) is s, as pj_writer_string keeps it. */
static bool same_string(const struct pj_writer *w, uint32_t id, const char *s)
{
	size_t n = cut(s);
	const struct str_ent *e;

	if (!id)
		return !n;
	e = &w->strs[id - 1];
	return e->len == n && !memcmp(w->names.buf + e->off, s, n);
}

static struct frame_memo *frame_memo(struct pj_writer *w, uint32_t type,
				     const char *name, const char *module,
				     const char *file, uint32_t line)
{
	uint64_t k = (uintptr_t)name ^ (uint64_t)(uintptr_t)module << 1 ^
		     (uint64_t)(uintptr_t)file << 2 ^ (uint64_t)type << 56 ^
		     (uint64_t)line << 24;

	if (!w->memo && !(w->memo = calloc(FRAME_MEMO, sizeof(*w->memo))))
		return NULL;
	return &w->memo[hash_u64(k) & (FRAME_MEMO - 1)];
}

uint32_t pj_writer_frame(struct pj_writer *w, enum pj_frame_type type,
			 const char *name, const char *module, const char *file,
			 uint32_t line)
{
	struct frame_ent k = { .type = type };
	struct frame_memo *m = frame_memo(w, type, name, module, file, line);
	uint32_t i, v;

	if (m && m->id && m->name == name && m->module == module &&
	    m->file == file && m->type == (uint32_t)type && m->line == line) {
		const struct frame_ent *e = &w->frames[m->id - 1];

		if (same_string(w, e->name, name) &&
		    same_string(w, e->module, module) &&
		    same_string(w, e->file, file))
			return m->id - 1;
	}
	k.name = pj_writer_string(w, name);
	k.module = pj_writer_string(w, module);
	k.file = pj_writer_string(w, file);
	k.line = line;
	k.hash = hash_bytes((const uint32_t[]){ k.type, k.name, k.module,
						k.file, k.line },
			    5 * sizeof(uint32_t), 1);
	for (i = idtable_first(&w->frametab, k.hash);
	     (v = idtable_at(&w->frametab, i));
	     i = idtable_next(&w->frametab, i)) {
		struct frame_ent *e = &w->frames[v - 1];

		if (e->hash == k.hash && e->type == k.type &&
		    e->name == k.name && e->module == k.module &&
		    e->file == k.file && e->line == k.line)
			goto found;
	}
	if (w->oom || GROW(w->frames, w->frames_cap, w->nframes + 1) ||
	    put_uv(w, B_FRAMES, k.type) || put_uv(w, B_FRAMES, k.name) ||
	    put_uv(w, B_FRAMES, k.module) || put_uv(w, B_FRAMES, k.file) ||
	    put_uv(w, B_FRAMES, k.line)) {
		fail(w, ENOMEM);
		return 0;
	}
	w->frames[w->nframes] = k;
	v = ++w->nframes;
	if (idtable_add(&w->frametab, k.hash, v - 1, frame_hash, w))
		w->oom = 1;
	maybe_flush(w, B_FRAMES);
found:
	if (m && !w->oom)
		*m = (struct frame_memo){ name, module, file, type, line, v };
	return v - 1;
}

void pj_writer_frame_addr(struct pj_writer *w, uint32_t frame, uint64_t addr)
{
	if (!addr || frame >= w->nframes || w->frames[frame].has_addr)
		return;
	if (put_uv(w, B_ADDRS, frame) || put_uv(w, B_ADDRS, addr)) {
		fail(w, ENOMEM);
		return;
	}
	w->frames[frame].has_addr = true;
	maybe_flush(w, B_ADDRS);
}

uint32_t pj_writer_stack(struct pj_writer *w, const uint32_t *frames,
			 unsigned int n)
{
	uint64_t h = hash_bytes(frames, n * sizeof(*frames), 2 + n);
	struct stack_ent *e;
	uint32_t i, v;

	for (i = idtable_first(&w->stacktab, h);
	     (v = idtable_at(&w->stacktab, i));
	     i = idtable_next(&w->stacktab, i)) {
		e = &w->stacks[v - 1];
		if (e->hash == h && e->n == n &&
		    (!n || !memcmp(w->stackpool + e->off, frames,
				   n * sizeof(*frames))))
			return v - 1;
	}
	if (w->oom || w->stackpool_len + n > UINT32_MAX ||
	    GROW(w->stacks, w->stacks_cap, w->nstacks + 1) ||
	    GROW(w->stackpool, w->stackpool_cap, w->stackpool_len + n) ||
	    put_uv(w, B_STACKS, n)) {
		fail(w, ENOMEM);
		return 0;
	}
	for (unsigned int j = 0; j < n; j++) {
		if (put_uv(w, B_STACKS, frames[j])) {
			fail(w, ENOMEM);
			return 0;
		}
	}
	if (n)
		memcpy(w->stackpool + w->stackpool_len, frames,
		       n * sizeof(*frames));
	w->stacks[w->nstacks] =
	    (struct stack_ent){ h, (uint32_t)w->stackpool_len, n };
	w->stackpool_len += n;
	v = ++w->nstacks;
	if (idtable_add(&w->stacktab, h, v - 1, stack_hash, w))
		w->oom = 1;
	maybe_flush(w, B_STACKS);
	return v - 1;
}

static int check(struct pj_writer *w)
{
	if (w->oom)
		fail(w, ENOMEM);
	if (w->err) {
		errno = w->err;
		return -1;
	}
	return 0;
}

static int kv(struct pj_writer *w, int b, const char *key, const char *value,
	      uint64_t num)
{
	if (put_str(w, b, key, cut(key)) ||
	    (value ? put_str(w, b, value, cut(value)) : put_uv(w, b, num)))
		fail(w, ENOMEM);
	maybe_flush(w, b);
	return check(w);
}

/* A copy of target text (a command line, a thread name) that is safe for
 * a terminal: reports print the file's header as it is. */
static char *clean_copy(struct pj_writer *w, const char *s)
{
	char *c = strndup(s ? s : "", STRING_MAX);

	if (!c)
		fail(w, ENOMEM);
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
	if (put_uv(w, B_EVENTS, ev->index) ||
	    put_str(w, B_EVENTS, ev->name, cut(ev->name)) ||
	    put_str(w, B_EVENTS, ev->unit, cut(ev->unit)) ||
	    put_uv(w, B_EVENTS, ev->type) || put_uv(w, B_EVENTS, ev->config) ||
	    put_uv(w, B_EVENTS, ev->period) || put_uv(w, B_EVENTS, ev->freq))
		fail(w, ENOMEM);
	return check(w);
}

int pj_writer_thread(struct pj_writer *w, uint32_t tid, uint32_t pid,
		     const char *name)
{
	char *n = clean_copy(w, name);

	if (!n || put_uv(w, B_THREADS, tid) || put_uv(w, B_THREADS, pid) ||
	    put_str(w, B_THREADS, n, cut(n)))
		fail(w, ENOMEM);
	free(n);
	maybe_flush(w, B_THREADS);
	return check(w);
}

int pj_writer_vthread(struct pj_writer *w, uint64_t id, const char *name)
{
	char *n = clean_copy(w, name);

	if (!n || put_uv(w, B_VTHREADS, id) ||
	    put_str(w, B_VTHREADS, n, cut(n)))
		fail(w, ENOMEM);
	free(n);
	maybe_flush(w, B_VTHREADS);
	return check(w);
}

int pj_writer_process(struct pj_writer *w, uint32_t pid,
		      enum pj_process_kind kind, uint32_t flags,
		      const char *comm, const char *cmdline,
		      const char *container)
{
	char *c[3] = { clean_copy(w, comm), clean_copy(w, cmdline),
		       clean_copy(w, container) };

	if (!c[0] || !c[1] || !c[2] || put_uv(w, B_PROCESSES, pid) ||
	    put_uv(w, B_PROCESSES, kind) || put_uv(w, B_PROCESSES, flags) ||
	    put_str(w, B_PROCESSES, c[0], cut(c[0])) ||
	    put_str(w, B_PROCESSES, c[1], cut(c[1])) ||
	    put_str(w, B_PROCESSES, c[2], cut(c[2])))
		fail(w, ENOMEM);
	for (int i = 0; i < 3; i++)
		free(c[i]);
	maybe_flush(w, B_PROCESSES);
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
	p = buf_room(w, B_SAMPLES, 12 * PJ_VARINT_MAX);
	if (!p) {
		fail(w, ENOMEM);
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
	maybe_flush(w, B_SAMPLES);
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

	if (!b->data) {
		/* An empty chunk (END) that never had a buffer. */
		b->data = malloc(HDR_SIZE);
		if (!b->data) {
			fail(w, ENOMEM);
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
			fail(w, n < 0 ? errno : EIO);
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
		if (!w->err && fsync(w->fd) && errno != EINVAL)
			fail(w, errno);
	}
	if (close(w->fd) && !w->err && errno != EINTR)
		fail(w, errno);
	w->fd = w->out.fd = -1;
	/* a complete file takes its name (when not done at its start) */
	if (!w->err && outfile_commit(&w->out, why, sizeof(why)))
		fail(w, errno ? errno : EIO);
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
	idtable_free(&w->strtab);
	idtable_free(&w->frametab);
	idtable_free(&w->stacktab);
	free(w->strs);
	free(w->names.buf);
	free(w->frames);
	free(w->memo);
	free(w->stacks);
	free(w->stackpool);
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

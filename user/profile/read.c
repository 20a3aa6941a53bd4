// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the profile file into flat arrays (format:
 * include/perfjava/profile.h), or a JDK Flight Recorder file
 * (profile/jfr_read.c) into the same arrays.
 *
 * The file is read a chunk at a time and every chunk is checked (magic,
 * crc) and decoded (profile/decode.c) with bounds checks on every byte: any
 * input either loads or fails with one line saying where the file is
 * damaged. A chunk that runs past the end of the file ends the load with
 * p->truncated set.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "lib/file.h"
#include "lib/grow.h"
#include "profile/internal.h"
#include "profile/jfr.h"

static const char *const chunk_names[] = {
	[PJ_CHUNK_META] = "META",	  [PJ_CHUNK_STRINGS] = "STRINGS",
	[PJ_CHUNK_FRAMES] = "FRAMES",	  [PJ_CHUNK_STACKS] = "STACKS",
	[PJ_CHUNK_SAMPLES] = "SAMPLES",	  [PJ_CHUNK_THREADS] = "THREADS",
	[PJ_CHUNK_EVENTS] = "EVENTS",	  [PJ_CHUNK_STATS] = "STATS",
	[PJ_CHUNK_END] = "END",		  [PJ_CHUNK_ADDRS] = "ADDRS",
	[PJ_CHUNK_VTHREADS] = "VTHREADS", [PJ_CHUNK_PROCESSES] = "PROCESSES",
};

static int cmp_thread(const void *a, const void *b)
{
	const struct thread_ent *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int cmp_proc(const void *a, const void *b)
{
	const struct proc_ent *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int cmp_kv_idx(const void *a, const void *b, void *arg)
{
	const struct pj_kv *kv = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int r = strcmp(kv[x].key, kv[y].key);

	return r ? r : (x < y ? -1 : x > y);
}

/* Later keys override earlier ones: keeps the last entry of each key. */
static int dedupe_kv(struct pj_kv *kv, uint32_t *n)
{
	uint32_t *idx, o = 0;
	struct pj_kv *tmp;

	if (*n < 2)
		return 0;
	idx = malloc(*n * sizeof(*idx));
	tmp = malloc(*n * sizeof(*tmp));
	if (!idx || !tmp) {
		free(idx);
		free(tmp);
		return -1;
	}
	for (uint32_t i = 0; i < *n; i++)
		idx[i] = i;
	qsort_r(idx, *n, sizeof(*idx), cmp_kv_idx, kv);
	for (uint32_t i = 0; i < *n; i++) {
		if (i + 1 < *n && !strcmp(kv[idx[i]].key, kv[idx[i + 1]].key))
			continue;
		tmp[o++] = kv[idx[i]];
	}
	memcpy(kv, tmp, o * sizeof(*kv));
	*n = o;
	free(idx);
	free(tmp);
	return 0;
}

static int cmp_vthread(const void *a, const void *b)
{
	const struct pj_vthread *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* By id, the last entry of an id kept (it renames). */
static void finish_vthreads(struct pj_profile *p)
{
	size_t o = 0;

	if (!p->nvthreads)
		return;
	qsort(p->vthreads, p->nvthreads, sizeof(*p->vthreads), cmp_vthread);
	for (size_t i = 0; i < p->nvthreads; i++)
		if (i + 1 == p->nvthreads ||
		    p->vthreads[i + 1].id != p->vthreads[i].id)
			p->vthreads[o++] = p->vthreads[i];
	p->nvthreads = o;
}

/* s appended to the string table (after every string of the file, so
 * that the file's ids do not move): its id (0 for ""), UINT32_MAX when out
 * of memory. */
static uint32_t add_string(struct priv *d, const char *s)
{
	struct pj_profile *p = &d->p;

	if (!*s)
		return 0;
	if (p->nstrings == UINT32_MAX ||
	    GROW(p->strings, d->strings_cap, (size_t)p->nstrings + 1))
		return UINT32_MAX;
	p->strings[p->nstrings] = (char *)s;
	return p->nstrings++;
}

/*
 * Threads: later entries rename. Keeps the last entry per tid and pid,
 * sorted by tid then pid, their names appended to the string table.
 */
static int finish_threads(struct priv *d)
{
	struct pj_profile *p = &d->p;
	size_t o = 0;

	if (!d->nthreads)
		return 0;
	qsort(d->threads, d->nthreads, sizeof(*d->threads), cmp_thread);
	p->threads = malloc(d->nthreads * sizeof(*p->threads));
	if (!p->threads)
		return -1;
	for (size_t i = 0; i < d->nthreads; i++) {
		struct thread_ent *t = &d->threads[i];

		uint32_t name;

		if (i + 1 < d->nthreads && t[1].tid == t->tid &&
		    t[1].pid == t->pid)
			continue;
		name = add_string(d, t->name);
		if (name == UINT32_MAX)
			return -1;
		p->threads[o++] = (struct pj_thread){ .tid = t->tid,
						      .pid = t->pid,
						      .name = name };
	}
	p->nthreads = (uint32_t)o;
	return 0;
}

/* Processes: the last entry of each pid, sorted by pid. */
static int finish_procs(struct priv *d)
{
	struct pj_profile *p = &d->p;
	size_t o = 0;

	if (!d->nprocs)
		return 0;
	qsort(d->procs, d->nprocs, sizeof(*d->procs), cmp_proc);
	p->procs = malloc(d->nprocs * sizeof(*p->procs));
	if (!p->procs)
		return -1;
	for (size_t i = 0; i < d->nprocs; i++) {
		const struct proc_ent *e = &d->procs[i];
		struct pj_process pr = { .pid = e->pid,
					 .kind = (uint8_t)e->kind,
					 .flags = e->flags };

		if (i + 1 < d->nprocs && e[1].pid == e->pid)
			continue;
		pr.comm = add_string(d, e->comm);
		pr.cmdline = add_string(d, e->cmdline);
		pr.container = add_string(d, e->container);
		if (pr.comm == UINT32_MAX || pr.cmdline == UINT32_MAX ||
		    pr.container == UINT32_MAX)
			return -1;
		p->procs[o++] = pr;
	}
	p->nprocs = (uint32_t)o;
	return 0;
}

/* A sample without a pid (version 1, JFR) has its thread's, else the
 * file's one target's (META pid). */
static void fill_pids(struct pj_profile *p)
{
	const char *m = pj_profile_meta(p, "pid");
	uint32_t target = m ? (uint32_t)strtoul(m, NULL, 10) : 0;

	for (size_t i = 0; i < p->nsamples; i++) {
		struct pj_sample *s = &p->samples[i];
		const struct pj_thread *t;

		if (s->pid || !s->tid)
			continue;
		t = pj_profile_thread(p, 0, s->tid);
		s->pid = t ? t->pid : target;
	}
}

/* Bound of a profile file (both kinds are read a chunk at a time). */
#define PROFILE_MAX ((size_t)16 << 30)

/* The arrays every profile starts with: string 0 is "", stack 0 starts at 0. */
static int setup(struct priv *d, struct cur *c)
{
	struct pj_profile *p = &d->p;

	p->strings = malloc(256 * sizeof(*p->strings));
	if (!p->strings)
		return profile_oom(c);
	d->strings_cap = 256;
	p->strings[0] = profile_pool_str(d, (const uint8_t *)"", 0);
	p->nstrings = 1;
	p->stack_start = calloc(256, sizeof(*p->stack_start));
	if (!p->strings[0] || !p->stack_start)
		return profile_oom(c);
	d->stack_start_cap = 256;
	return 0;
}

static int finish(struct priv *d, struct cur *c)
{
	struct pj_profile *p = &d->p;

	finish_vthreads(p);
	if (finish_threads(d) || finish_procs(d) ||
	    dedupe_kv(p->meta, &p->nmeta) || dedupe_kv(p->stats, &p->nstats))
		return profile_oom(c);
	fill_pids(p);
	pj_profile_count_pids(p);
	if (pj_profile_index_events(p))
		return profile_oom(c);
	return 0;
}

/* The file header (its first bytes, n of them, in head): -1 with a line in
 * err when it is no profile of ours or a version we do not read. */
static int check_header(struct priv *d, const uint8_t *head, size_t n,
			uint64_t size, struct pj_file_header *h, struct cur *c)
{
	if (n < sizeof(h->magic) ||
	    memcmp(head, PJ_FILE_MAGIC, sizeof(h->magic))) {
		snprintf(c->err, c->errlen,
			 size ? "not a perfjava profile"
			      : "empty file, not a perfjava profile");
		return -1;
	}
	if (n < sizeof(*h)) {
		snprintf(c->err, c->errlen,
			 "damaged at offset %llu: the file header is "
			 "incomplete",
			 (unsigned long long)size);
		return -1;
	}
	memcpy(h, head, sizeof(*h));
	if (h->version < PJ_FILE_VERSION_MIN || h->version > PJ_FILE_VERSION) {
		snprintf(c->err, c->errlen,
			 "unsupported profile version %u (this perfjava reads "
			 "versions %u to %u: a newer perfjava wrote it)",
			 h->version, (unsigned int)PJ_FILE_VERSION_MIN,
			 (unsigned int)PJ_FILE_VERSION);
		return -1;
	}
	d->version = h->version;
	d->p.created_ns = h->created_realtime_ns;
	if (h->header_size < sizeof(*h) || h->header_size > size)
		return profile_damaged(c, head + 12, "bad header size %u",
				       h->header_size);
	return setup(d, c);
}

/*
 * A perfjava profile read one chunk at a time from fd (size bytes): memory
 * holds what is decoded and one chunk, and a file that is no profile past
 * some point (a sparse giant, zeros) fails at that point, at once.
 */
static int parse_chunks(struct priv *d, int fd, uint64_t size, char *err,
			size_t errlen)
{
	struct pj_profile *p = &d->p;
	struct pj_file_header h;
	struct cur c = { .err = err, .errlen = errlen };
	uint8_t head[sizeof(h)], *buf = NULL;
	size_t cap = 0;
	uint64_t off;
	ssize_t n = pread(fd, head, sizeof(head), 0);
	int ret = -1;

	c.base = head;
	if (n < 0) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	if (check_header(d, head, (size_t)n, size, &h, &c))
		return -1;
	for (off = h.header_size; off < size;) {
		struct pj_chunk_header ch;
		unsigned int type;

		c.base = (const uint8_t *)&ch;
		c.base_off = off;
		if (size - off < sizeof(ch) ||
		    pread(fd, &ch, sizeof(ch), (off_t)off) !=
			(ssize_t)sizeof(ch)) {
			p->truncated = true;
			break;
		}
		if (ch.magic != PJ_CHUNK_MAGIC) {
			profile_damaged(&c, c.base, "bad chunk magic");
			goto out;
		}
		if (ch.size > PJ_CHUNK_MAX) {
			profile_damaged(&c, c.base + 8,
					"chunk size %u is too large", ch.size);
			goto out;
		}
		if (ch.size > size - off - sizeof(ch)) {
			p->truncated = true;
			break;
		}
		if (GROW(buf, cap, (size_t)ch.size + 1)) {
			profile_oom(&c);
			goto out;
		}
		if (pread(fd, buf, ch.size, (off_t)(off + sizeof(ch))) !=
		    (ssize_t)ch.size) {
			p->truncated = true; /* shortened under us */
			break;
		}
		if ((uint32_t)crc32(0, buf, ch.size) != ch.crc) {
			profile_damaged(&c, c.base, "checksum mismatch");
			goto out;
		}
		type = ch.type;
		c.base = c.p = buf;
		c.base_off = off + sizeof(ch);
		c.end = buf + ch.size;
		c.chunk = type < sizeof(chunk_names) / sizeof(chunk_names[0]) &&
				  chunk_names[type]
			      ? chunk_names[type]
			      : "unknown";
		if (profile_read_chunk(d, &c, type))
			goto out;
		off += sizeof(ch) + ch.size;
	}
	ret = finish(d, &c);
out:
	free(buf);
	return ret;
}

/* A JDK Flight Recorder file, a chunk at a time (profile/jfr_read.c). */
static int parse_jfr(struct priv *d, int fd, uint64_t size, char *err,
		     size_t errlen)
{
	struct cur c = { .err = err, .errlen = errlen };

	d->version = PJ_FILE_VERSION;
	return setup(d, &c) || profile_jfr_parse(d, fd, size, err, errlen) ||
		       finish(d, &c)
		   ? -1
		   : 0;
}

int pj_profile_load(const char *path, struct pj_profile **out, char *err,
		    size_t errlen)
{
	/* the file as given, never a FIFO (a read would block) or a device
	 * (/dev/zero reads forever): regular files only */
	int fd = open_regular(path), ret;
	char magic[4] = "";
	struct priv *d;
	struct stat st;

	*out = NULL;
	if (fd < 0 || fstat(fd, &st)) {
		snprintf(err, errlen, "%s",
			 errno == EINVAL ? "not a regular file (a FIFO, a "
					   "device or a directory)"
					 : strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if ((uint64_t)st.st_size > PROFILE_MAX) {
		snprintf(err, errlen, "larger than %zu GiB: not a profile",
			 PROFILE_MAX >> 30);
		close(fd);
		return -1;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		close(fd);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	d->p.file_size = (uint64_t)st.st_size;
	if (pread(fd, magic, sizeof(magic), 0) == (ssize_t)sizeof(magic) &&
	    !memcmp(magic, "FLR\0", 4)) /* JDK Flight Recorder */
		ret = parse_jfr(d, fd, (uint64_t)st.st_size, err, errlen);
	else
		ret = parse_chunks(d, fd, (uint64_t)st.st_size, err, errlen);
	close(fd);
	free(d->threads);
	d->threads = NULL;
	free(d->procs);
	d->procs = NULL;
	if (ret) {
		pj_profile_free(&d->p);
		return -1;
	}
	*out = &d->p;
	return 0;
}

void pj_profile_free(struct pj_profile *p)
{
	struct priv *d = (struct priv *)p;

	if (!p)
		return;
	profile_pool_free(d);
	free(p->strings);
	free(p->frames);
	free(p->stack_start);
	free(p->stack_frames);
	free(p->samples);
	free(p->threads);
	free(p->procs);
	free(p->vthreads);
	free(p->events);
	free(p->event_at);
	free(p->meta);
	free(p->stats);
	free(d->threads);
	free(d->procs);
	free(d);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Decoding the payload of each chunk of a profile file (format:
 * include/perfjava/profile.h) into the arrays of struct pj_profile, with
 * bounds checks on every byte; profile/read.c finds and checks the chunks.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/text.h"
#include "profile/internal.h"
#include "lib/grow.h"
#include "lib/varint.h"

__attribute__((format(printf, 3, 4))) int
profile_damaged(struct cur *c, const uint8_t *at, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	n = (size_t)snprintf(c->err, c->errlen, "damaged at offset %zu: ",
			     c->base_off + (size_t)(at - c->base));
	if (n < c->errlen) {
		va_start(ap, fmt);
		vsnprintf(c->err + n, c->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int get_uv(struct cur *c, uint64_t *v)
{
	const uint8_t *at = c->p;

	if (pj_get_uv(&c->p, c->end, v))
		return profile_damaged(c, at, "malformed varint in %s chunk",
				       c->chunk);
	return 0;
}

static int get_u32(struct cur *c, uint32_t *v, const char *what)
{
	const uint8_t *at = c->p;
	uint64_t x;

	*v = 0;
	if (get_uv(c, &x))
		return -1;
	if (x > UINT32_MAX)
		return profile_damaged(c, at,
				       "%s %llu out of range in %s chunk", what,
				       (unsigned long long)x, c->chunk);
	*v = (uint32_t)x;
	return 0;
}

/* An id that must be below limit (defined earlier). */
static int get_id(struct cur *c, uint32_t *v, uint64_t limit, const char *what)
{
	const uint8_t *at = c->p;

	if (get_u32(c, v, what))
		return -1;
	if (*v >= limit)
		return profile_damaged(c, at,
				       "%s id %u is not defined (%llu defined)",
				       what, *v, (unsigned long long)limit);
	return 0;
}

int profile_oom(struct cur *c)
{
	snprintf(c->err, c->errlen, "out of memory");
	return -1;
}

char *profile_pool_str(struct priv *d, const uint8_t *s, size_t n)
{
	char *q = strstore_add(&d->pool, (const char *)s, n);

	if (q)
		text_clean(q, n); /* the file is not trusted: no raw escapes */
	return q;
}

void profile_pool_free(struct priv *d)
{
	strstore_free(&d->pool);
}

/* Reads a str; *out is a NUL-terminated copy in the pool. */
static int get_str(struct priv *d, struct cur *c, char **out)
{
	const uint8_t *at = c->p;
	uint64_t n;

	if (get_uv(c, &n))
		return -1;
	if (n > (uint64_t)(c->end - c->p))
		return profile_damaged(
		    c, at,
		    "string of %llu bytes runs past the end of "
		    "its %s chunk",
		    (unsigned long long)n, c->chunk);
	*out = profile_pool_str(d, c->p, (size_t)n);
	if (!*out)
		return profile_oom(c);
	c->p += n;
	return 0;
}

static int read_strings(struct priv *d, struct cur *c)
{
	struct pj_profile *p = &d->p;

	while (c->p < c->end) {
		char *s;

		if (p->nstrings == UINT32_MAX)
			return profile_damaged(c, c->p, "too many strings");
		if (GROW(p->strings, d->strings_cap, (size_t)p->nstrings + 1))
			return profile_oom(c);
		if (get_str(d, c, &s))
			return -1;
		p->strings[p->nstrings++] = s;
	}
	return 0;
}

static int read_frames(struct priv *d, struct cur *c)
{
	struct pj_profile *p = &d->p;

	while (c->p < c->end) {
		struct pj_frame f;
		const uint8_t *at = c->p;
		uint32_t type;

		if (GROW(p->frames, d->frames_cap, (size_t)p->nframes + 1))
			return profile_oom(c);
		if (get_u32(c, &type, "frame type"))
			return -1;
		if (type >= PJ_FRAME_TYPE_MAX)
			return profile_damaged(c, at, "unknown frame type %u",
					       type);
		f.type = (uint8_t)type;
		f.addr = 0;
		if (get_id(c, &f.name, p->nstrings, "string") ||
		    get_id(c, &f.module, p->nstrings, "string") ||
		    get_id(c, &f.file, p->nstrings, "string") ||
		    get_u32(c, &f.line, "line"))
			return -1;
		if (p->nframes == UINT32_MAX)
			return profile_damaged(c, at, "too many frames");
		p->frames[p->nframes++] = f;
	}
	return 0;
}

static int read_addrs(struct priv *d, struct cur *c)
{
	struct pj_profile *p = &d->p;

	while (c->p < c->end) {
		uint32_t f;
		uint64_t addr;

		if (get_id(c, &f, p->nframes, "frame") || get_uv(c, &addr))
			return -1;
		if (!p->frames[f].addr)
			p->frames[f].addr = addr;
	}
	return 0;
}

static int read_stacks(struct priv *d, struct cur *c)
{
	struct pj_profile *p = &d->p;

	while (c->p < c->end) {
		const uint8_t *at = c->p;
		uint64_t n;

		if (get_uv(c, &n))
			return -1;
		/* Every frame id takes at least one byte. */
		if (n > (uint64_t)(c->end - c->p))
			return profile_damaged(
			    c, at,
			    "stack of %llu frames runs past the end "
			    "of its chunk",
			    (unsigned long long)n);
		if (p->nstacks >= UINT32_MAX - 1 ||
		    d->nstack_frames + n > UINT32_MAX)
			return profile_damaged(c, at, "too many stacks");
		if (GROW(p->stack_start, d->stack_start_cap,
			 (size_t)p->nstacks + 2))
			return profile_oom(c);
		for (uint64_t i = 0; i < n; i++) {
			uint32_t f;

			if (GROW(p->stack_frames, d->stack_frames_cap,
				 d->nstack_frames + 1))
				return profile_oom(c);
			if (get_id(c, &f, p->nframes, "frame"))
				return -1;
			p->stack_frames[d->nstack_frames++] = f;
		}
		p->stack_start[++p->nstacks] = (uint32_t)d->nstack_frames;
	}
	return 0;
}

/* A sample's flags: one byte in version 1, a uv from version 2 on. */
static int get_flags(struct priv *d, struct cur *c, uint64_t *flags)
{
	const uint8_t *at = c->p;

	if (d->version == 1)
		*flags = *c->p++;
	else if (get_uv(c, flags))
		return -1;
	if (*flags & ~(uint64_t)(PJ_S_TID | PJ_S_CPU | PJ_S_EVENT |
				 PJ_S_PERIOD | PJ_S_INFO | PJ_S_SWITCHES |
				 PJ_S_COUNT | PJ_S_VTHREAD | PJ_S_PID) ||
	    (d->version == 1 && (*flags & PJ_S_PID)))
		return profile_damaged(c, at, "unknown sample flags 0x%llx",
				       (unsigned long long)*flags);
	return 0;
}

static int read_samples(struct priv *d, struct cur *c)
{
	struct pj_profile *p = &d->p;
	struct pj_sample s = { 0 };

	while (c->p < c->end) {
		const uint8_t *at;
		uint64_t flags;
		int64_t dt;

		if (get_flags(d, c, &flags))
			return -1;
		at = c->p;
		if (pj_get_sv(&c->p, c->end, &dt))
			return profile_damaged(
			    c, at, "malformed varint in %s chunk", c->chunk);
		s.time += (uint64_t)dt;
		if (((flags & PJ_S_TID) && get_u32(c, &s.tid, "tid")) ||
		    ((flags & PJ_S_CPU) && get_u32(c, &s.cpu, "cpu")) ||
		    ((flags & PJ_S_EVENT) && get_u32(c, &s.event, "event")) ||
		    ((flags & PJ_S_PERIOD) && get_uv(c, &s.period)) ||
		    get_id(c, &s.stack, p->nstacks, "stack") ||
		    ((flags & PJ_S_INFO) &&
		     get_id(c, &s.info, p->nstrings, "string")))
			return -1;
		s.switches = 0; /* not carried over: present when not 0 */
		if ((flags & PJ_S_SWITCHES) &&
		    get_u32(c, &s.switches, "switches"))
			return -1;
		s.count = 1; /* neither carried over */
		s.vthread = 0;
		if (((flags & PJ_S_COUNT) && get_uv(c, &s.count)) ||
		    ((flags & PJ_S_VTHREAD) && get_uv(c, &s.vthread)) ||
		    ((flags & PJ_S_PID) && get_u32(c, &s.pid, "pid")))
			return -1;
		if (GROW(p->samples, d->samples_cap, (size_t)p->nsamples + 1))
			return profile_oom(c);
		p->samples[p->nsamples++] = s;
	}
	return 0;
}

static int read_vthreads(struct priv *d, struct cur *c)
{
	struct pj_profile *p = &d->p;

	while (c->p < c->end) {
		struct pj_vthread v;
		char *name;

		if (get_uv(c, &v.id) || get_str(d, c, &name))
			return -1;
		v.name = name;
		v.order = p->nvthreads;
		if (GROW(p->vthreads, d->vthreads_cap, p->nvthreads + 1))
			return profile_oom(c);
		p->vthreads[p->nvthreads++] = v;
	}
	return 0;
}

static int read_threads(struct priv *d, struct cur *c)
{
	while (c->p < c->end) {
		struct thread_ent t;
		char *name;

		if (get_u32(c, &t.tid, "tid") || get_u32(c, &t.pid, "pid") ||
		    get_str(d, c, &name))
			return -1;
		t.name = name;
		t.order = d->nthreads;
		if (GROW(d->threads, d->threads_cap, d->nthreads + 1))
			return profile_oom(c);
		d->threads[d->nthreads++] = t;
	}
	return 0;
}

static int read_processes(struct priv *d, struct cur *c)
{
	while (c->p < c->end) {
		const uint8_t *at = c->p;
		struct proc_ent e = { 0 };
		char *str[3];

		if (get_u32(c, &e.pid, "pid") || get_u32(c, &e.kind, "kind") ||
		    get_u32(c, &e.flags, "flags") || get_str(d, c, &str[0]) ||
		    get_str(d, c, &str[1]) || get_str(d, c, &str[2]))
			return -1;
		if (e.kind >= PJ_PROC_KIND_MAX)
			e.kind = PJ_PROC_USER; /* a kind of a newer writer */
		if (d->nprocs >= UINT32_MAX)
			return profile_damaged(c, at, "too many processes");
		e.comm = str[0];
		e.cmdline = str[1];
		e.container = str[2];
		e.order = d->nprocs;
		if (GROW(d->procs, d->procs_cap, d->nprocs + 1))
			return profile_oom(c);
		d->procs[d->nprocs++] = e;
	}
	return 0;
}

static int read_events(struct priv *d, struct cur *c)
{
	struct pj_profile *p = &d->p;
	uint32_t i;

	while (c->p < c->end) {
		struct pj_event_desc e;
		char *name, *unit;

		if (get_u32(c, &e.index, "event index") ||
		    get_str(d, c, &name) || get_str(d, c, &unit) ||
		    get_uv(c, &e.type) || get_uv(c, &e.config) ||
		    get_uv(c, &e.period) || get_uv(c, &e.freq))
			return -1;
		e.name = name;
		e.unit = unit;
		if (e.index >= PJ_MAX_EVENTS)
			return profile_damaged(c, c->p,
					       "event index %u is out of range "
					       "(at most %u events)",
					       e.index, PJ_MAX_EVENTS);
		if (GROW(p->events, d->events_cap, (size_t)p->nevents + 1) ||
		    (!p->event_at &&
		     !(p->event_at =
			   calloc(PJ_MAX_EVENTS, sizeof(*p->event_at)))))
			return profile_oom(c);
		/* A later definition of the same index replaces it. */
		i = p->event_at[e.index] ? p->event_at[e.index] - 1
					 : p->nevents++;
		p->events[i] = e;
		p->event_at[e.index] = i + 1;
	}
	return 0;
}

static int read_kv(struct priv *d, struct cur *c, struct pj_kv **arr,
		   uint32_t *n, size_t *cap, bool num)
{
	while (c->p < c->end) {
		struct pj_kv kv = { 0 };

		if (get_str(d, c, &kv.key) ||
		    (num ? get_uv(c, &kv.num) : get_str(d, c, &kv.value)))
			return -1;
		if (*n == UINT32_MAX)
			return profile_damaged(c, c->p, "too many keys");
		if (GROW(*arr, *cap, (size_t)*n + 1))
			return profile_oom(c);
		(*arr)[(*n)++] = kv;
	}
	return 0;
}

int profile_read_chunk(struct priv *d, struct cur *c, unsigned int type)
{
	struct pj_profile *p = &d->p;

	switch (type) {
	case PJ_CHUNK_META:
		return read_kv(d, c, &p->meta, &p->nmeta, &d->meta_cap, false);
	case PJ_CHUNK_STRINGS:
		return read_strings(d, c);
	case PJ_CHUNK_FRAMES:
		return read_frames(d, c);
	case PJ_CHUNK_STACKS:
		return read_stacks(d, c);
	case PJ_CHUNK_ADDRS:
		return read_addrs(d, c);
	case PJ_CHUNK_SAMPLES:
		return read_samples(d, c);
	case PJ_CHUNK_THREADS:
		return read_threads(d, c);
	case PJ_CHUNK_VTHREADS:
		return read_vthreads(d, c);
	case PJ_CHUNK_PROCESSES:
		return read_processes(d, c);
	case PJ_CHUNK_EVENTS:
		return read_events(d, c);
	case PJ_CHUNK_STATS:
		return read_kv(d, c, &p->stats, &p->nstats, &d->stats_cap,
			       true);
	case PJ_CHUNK_END:
		if (c->p != c->end)
			return profile_damaged(c, c->p,
					       "END chunk is not empty");
		p->finished = true;
		return 0;
	default:
		/* A chunk type from a newer writer: skip it. */
		return 0;
	}
}

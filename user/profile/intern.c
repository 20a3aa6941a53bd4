// SPDX-License-Identifier: GPL-2.0
/*
 * The writer's strings, frames and stacks, each kept once (interned by
 * hash, lib/idtable.h) and appended to its buffers the first time; and
 * what an id is, for a reader of the writer itself (perfjava top: the
 * stacks of samples written to no file).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "lib/hash.h"
#include "profile/writer.h"

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

uint32_t pj_writer_string(struct pj_writer *w, const char *s)
{
	size_t n = writer_cut(s);
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
	    strpool_add(&w->names, s, n, &off) ||
	    writer_put_str(w, B_STRINGS, s, n)) {
		w->oom = 1;
		writer_fail(w, ENOMEM);
		return 0;
	}
	w->strs[w->nstrs] = (struct str_ent){ h, off, (uint32_t)n };
	v = ++w->nstrs; /* ids start at 1 */
	if (idtable_add(&w->strtab, h, v - 1, str_hash, w))
		w->oom = 1; /* nearly full and cannot grow: stop adding */
	writer_maybe_flush(w, B_STRINGS);
	return v;
}

/* Whether string id (0: none) is s, as pj_writer_string keeps it. */
static bool same_string(const struct pj_writer *w, uint32_t id, const char *s)
{
	size_t n = writer_cut(s);
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
	    writer_put_uv(w, B_FRAMES, k.type) ||
	    writer_put_uv(w, B_FRAMES, k.name) ||
	    writer_put_uv(w, B_FRAMES, k.module) ||
	    writer_put_uv(w, B_FRAMES, k.file) ||
	    writer_put_uv(w, B_FRAMES, k.line)) {
		writer_fail(w, ENOMEM);
		return 0;
	}
	w->frames[w->nframes] = k;
	v = ++w->nframes;
	if (idtable_add(&w->frametab, k.hash, v - 1, frame_hash, w))
		w->oom = 1;
	writer_maybe_flush(w, B_FRAMES);
found:
	if (m && !w->oom)
		*m = (struct frame_memo){ name, module, file, type, line, v };
	return v - 1;
}

void pj_writer_frame_addr(struct pj_writer *w, uint32_t frame, uint64_t addr)
{
	if (!addr || frame >= w->nframes || w->frames[frame].has_addr)
		return;
	if (writer_put_uv(w, B_ADDRS, frame) ||
	    writer_put_uv(w, B_ADDRS, addr)) {
		writer_fail(w, ENOMEM);
		return;
	}
	w->frames[frame].has_addr = true;
	writer_maybe_flush(w, B_ADDRS);
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
	    writer_put_uv(w, B_STACKS, n)) {
		writer_fail(w, ENOMEM);
		return 0;
	}
	for (unsigned int j = 0; j < n; j++) {
		if (writer_put_uv(w, B_STACKS, frames[j])) {
			writer_fail(w, ENOMEM);
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
	writer_maybe_flush(w, B_STACKS);
	return v - 1;
}
const char *pj_writer_str(const struct pj_writer *w, uint32_t id)
{
	return id && id <= w->nstrs ? w->names.buf + w->strs[id - 1].off : "";
}

int pj_writer_frame_get(const struct pj_writer *w, uint32_t id,
			struct pj_frame *f)
{
	const struct frame_ent *e;

	if (id >= w->nframes)
		return -1;
	e = &w->frames[id];
	*f = (struct pj_frame){ .type = (uint8_t)e->type,
				.name = e->name,
				.module = e->module,
				.file = e->file,
				.line = e->line };
	return 0;
}

const uint32_t *pj_writer_stack_frames(const struct pj_writer *w, uint32_t id,
				       unsigned int *n)
{
	if (id >= w->nstacks) {
		*n = 0;
		return NULL;
	}
	*n = w->stacks[id].n;
	return w->stackpool + w->stacks[id].off;
}

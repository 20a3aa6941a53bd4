// SPDX-License-Identifier: GPL-2.0
/* perfjava top's window folded; see top/fold.h. */
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "lib/hash.h"
#include "top/fold.h"

/* Frames named by the fold at most (their names kept from fold to fold,
 * as the writer keeps the frames themselves). */
#define FOLD_MAX_FRAMES (1u << 22)

/* The index of id's entry in *v (made, zero but for its id, when new);
 * -1 out of memory. */
#define ENTRY(map, v, n, cap, idfield, key)                       \
	({                                                        \
		uint32_t at_;                                     \
		long r_ = -1;                                     \
		if (u64map_get(map, (uint64_t)(key) + 1, &at_)) { \
			r_ = at_;                                 \
		} else if (!GROW(v, cap, (n) + 1) &&              \
			   !u64map_put(map, (uint64_t)(key) + 1,  \
				       (uint32_t)(n))) {          \
			memset(&(v)[n], 0, sizeof(*(v)));         \
			(v)[n].idfield = (key);                   \
			r_ = (long)(n)++;                         \
		}                                                 \
		r_;                                               \
	})

static void clear(struct fold *f)
{
	u64map_free(&f->row_at);
	u64map_free(&f->task_at);
	u64map_free(&f->stack_at);
	f->nrows = f->ntasks = f->nstacks = 0;
	f->samples = 0;
}

/* The first frame folded with the name of frame n, named (n itself when
 * new); -1 out of memory. */
static long first_named(struct fold *f, uint32_t frame)
{
	char buf[1024];
	const char *name = f->namer.name(f->namer.ctx, frame, buf, sizeof(buf));
	size_t len = strlen(name);
	uint64_t h = hash_bytes(name, len, 7) | 1;
	uint32_t at, off;

	/* the next odd key after a name of the same hash */
	for (; u64map_get(&f->name_at, h, &at); h += 2)
		if (!strcmp(f->names.buf + f->byname[at].off, name))
			return f->byname[at].frame;
	if (GROW(f->byname, f->capnames, f->nnames + 1) ||
	    strpool_add(&f->names, name, len, &off) ||
	    u64map_put(&f->name_at, h, (uint32_t)f->nnames))
		return -1;
	f->byname[f->nnames++] = (struct fname){ frame, off };
	return frame;
}

/* The frame that frame is folded as: the first of its name. */
static long canon(struct fold *f, uint32_t frame)
{
	uint32_t c;
	long r;

	if (!f->namer.name)
		return frame;
	if (u64map_get(&f->canon, (uint64_t)frame + 1, &c))
		return c;
	r = first_named(f, frame);
	if (r < 0 || u64map_put(&f->canon, (uint64_t)frame + 1, (uint32_t)r))
		return -1;
	return r;
}

/* The same for a frame already folded (fold_callers). */
static uint32_t canon_of(const struct fold *f, uint32_t frame)
{
	uint32_t c;

	return f->namer.name && u64map_get(&f->canon, (uint64_t)frame + 1, &c)
		   ? c
		   : frame;
}

/* Each sample of win that passes flt: its task's and its stack's. */
static int count_samples(struct fold *f, const struct window *win,
			 const struct fold_filter *flt)
{
	for (uint32_t i = 0; i < win->n; i++) {
		const struct wsample *s = window_at(win, i);
		uint32_t task = flt->by_process ? s->pid : s->tid;
		long t, k;

		if ((flt->tid && s->tid != flt->tid) ||
		    (flt->pid && s->pid != flt->pid))
			continue;
		t = ENTRY(&f->task_at, f->tasks, f->ntasks, f->captasks, id,
			  task);
		k = ENTRY(&f->stack_at, f->stacks, f->nstacks, f->capstacks,
			  stack, s->stack);
		if (t < 0 || k < 0)
			return -1;
		f->tasks[t].pid = s->pid;
		f->tasks[t].samples++;
		f->stacks[k].samples++;
		f->samples++;
	}
	return 0;
}

/* Each unique stack's samples to its frames: the leaf's self, each
 * frame's total once. */
static int count_frames(struct fold *f)
{
	for (size_t i = 0; i < f->nstacks; i++) {
		const struct fstack *st = &f->stacks[i];
		unsigned int n;
		const uint32_t *fr =
		    pj_writer_stack_frames(f->w, st->stack, &n);

		for (unsigned int j = 0; j < n; j++) {
			long c = canon(f, fr[j]), r;

			if (c < 0)
				return -1;
			r = ENTRY(&f->row_at, f->rows, f->nrows, f->caprows,
				  frame, (uint32_t)c);
			if (r < 0)
				return -1;
			if (!j)
				f->rows[r].self += st->samples;
			if (f->rows[r].stamp != i + 1) {
				f->rows[r].total += st->samples;
				f->rows[r].stamp = (uint32_t)i + 1;
			}
		}
	}
	return 0;
}

static int by_samples(const void *a, const void *b)
{
	const struct trow *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

int fold_window(struct fold *f, const struct window *win,
		const struct fold_filter *flt)
{
	int r;

	clear(f);
	if (f->canon.n >= FOLD_MAX_FRAMES) { /* begin again: rows move once */
		u64map_free(&f->canon);
		u64map_free(&f->name_at);
		f->nnames = f->names.len = 0;
	}
	f->w = win->w;
	r = count_samples(f, win, flt);
	if (!r)
		r = count_frames(f);
	/* the indexes by id are not kept past the fold: rows move */
	u64map_free(&f->row_at);
	qsort(f->tasks, f->ntasks, sizeof(*f->tasks), by_samples);
	return r;
}

static int by_self(const void *a, const void *b)
{
	const struct frow *x = a, *y = b;

	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return x->frame < y->frame ? -1 : x->frame > y->frame;
}

static int by_total(const void *a, const void *b)
{
	const struct frow *x = a, *y = b;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return by_self(a, b);
}

void fold_sort(struct fold *f, bool total)
{
	qsort(f->rows, f->nrows, sizeof(*f->rows), total ? by_total : by_self);
}

/* Where path starts in the stack fr[0..n) (-1: not in it): its leaf, or
 * path[0]'s innermost place, followed by the rest of path. */
static long path_at(const struct fold *f, const uint32_t *fr, unsigned int n,
		    const uint32_t *path, unsigned int np, bool self)
{
	unsigned int i = 0;

	if (!self)
		while (i < n && canon_of(f, fr[i]) != path[0])
			i++;
	if (i + np > n)
		return -1;
	for (unsigned int j = 0; j < np; j++)
		if (canon_of(f, fr[i + j]) != path[j])
			return -1;
	return i;
}

static int by_caller(const void *a, const void *b)
{
	const struct fcaller *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->frame < y->frame ? -1 : x->frame > y->frame;
}

int fold_callers(const struct fold *f, const uint32_t *path, unsigned int np,
		 bool self, struct fcaller *out, size_t max)
{
	struct u64map at = { 0 };
	struct fcaller *v = NULL;
	size_t n = 0, cap = 0;
	int ret = -1;

	for (size_t i = 0; np && i < f->nstacks; i++) {
		unsigned int nf;
		const uint32_t *fr =
		    pj_writer_stack_frames(f->w, f->stacks[i].stack, &nf);
		long k = path_at(f, fr, nf, path, np, self), c;

		if (k < 0 || k + np >= nf) /* not there, or no caller */
			continue;
		c = ENTRY(&at, v, n, cap, frame, canon_of(f, fr[k + np]));
		if (c < 0)
			goto out;
		v[c].samples += f->stacks[i].samples;
	}
	if (n)
		qsort(v, n, sizeof(*v), by_caller);
	ret = (int)(n < max ? n : max);
	if (ret)
		memcpy(out, v, (size_t)ret * sizeof(*out));
out:
	free(v);
	u64map_free(&at);
	return ret;
}

void fold_free(struct fold *f)
{
	clear(f);
	u64map_free(&f->canon);
	u64map_free(&f->name_at);
	free(f->rows);
	free(f->tasks);
	free(f->stacks);
	free(f->byname);
	free(f->names.buf);
	memset(f, 0, sizeof(*f));
}

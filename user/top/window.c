// SPDX-License-Identifier: GPL-2.0
/* perfjava top's window of samples and names; see top/window.h. */
#include <stdlib.h>
#include <string.h>

#include "top/window.h"

/* Room for one more sample: the ring doubles (its samples in order from
 * 0) up to WINDOW_MAX, then the oldest sample goes. */
static bool room(struct window *win)
{
	struct wsample *v;
	uint32_t cap;

	if (win->n < win->cap)
		return true;
	if (win->cap >= WINDOW_MAX) {
		win->head = (win->head + 1) % win->cap;
		win->n--;
		win->dropped++;
		return true;
	}
	cap = win->cap ? win->cap * 2 : 4096;
	v = malloc((size_t)cap * sizeof(*v));
	if (!v)
		return false;
	for (uint32_t i = 0; i < win->n; i++)
		v[i] = *window_at(win, i);
	free(win->v);
	win->v = v;
	win->cap = cap;
	win->head = 0;
	return true;
}

static void on_sample(void *ctx, const struct pj_sample *s)
{
	struct window *win = ctx;

	if (s->event != win->event)
		return;
	win->seen++;
	if (!room(win))
		return;
	win->v[(win->head + win->n) % win->cap] = (struct wsample){
		.time = s->time, .stack = s->stack, .tid = s->tid, .pid = s->pid
	};
	win->n++;
}

static void name_free(struct wname *n)
{
	if (!n)
		return;
	free(n->name);
	free(n->cmdline);
	free(n);
}

/* id's name in m made name (and cmdline), replacing what it was. */
static void name_set(struct u64map *m, uint64_t id, const char *name,
		     const char *cmdline, uint8_t kind)
{
	struct wname *n = calloc(1, sizeof(*n));
	union u64map_val *v;

	if (!n || !(n->name = strdup(name)) ||
	    !(n->cmdline = strdup(cmdline)) ||
	    (!u64map_find(m, id + 1) && m->n >= WINDOW_NAMES_MAX) ||
	    !(v = u64map_slot(m, id + 1))) {
		name_free(n);
		return;
	}
	n->kind = kind;
	name_free(v->p);
	v->p = n;
}

static void on_thread(void *ctx, uint32_t tid, uint32_t pid, const char *name)
{
	struct window *win = ctx;

	name_set(&win->threads, tid, name, "", 0);
}

static void on_process(void *ctx, uint32_t pid, enum pj_process_kind kind,
		       const char *comm, const char *cmdline)
{
	struct window *win = ctx;

	name_set(&win->procs, pid, comm, cmdline, (uint8_t)kind);
}

void window_init(struct window *win, uint64_t span, uint32_t event)
{
	memset(win, 0, sizeof(*win));
	win->span = span;
	win->event = event;
	win->tap =
	    (struct pj_writer_tap){ on_sample, on_thread, on_process, win };
}

/* m's names of ids no sample of the window has (tid, or pid). */
static void prune(struct window *win, struct u64map *m, bool by_pid)
{
	struct u64map live = { 0 };
	uint64_t *gone = calloc(m->n, sizeof(*gone)), k;
	union u64map_val *v;
	uint32_t i, n = 0;

	for (uint32_t j = 0; gone && j < win->n; j++) {
		const struct wsample *s = window_at(win, j);

		if (u64map_put(&live, (uint64_t)(by_pid ? s->pid : s->tid) + 1,
			       1))
			goto out; /* out of memory: keep them all */
	}
	for (i = 0; gone && u64map_next(m, &i, &k, &v);)
		if (!u64map_find(&live, k) && n < m->n) {
			name_free(v->p);
			gone[n++] = k;
		}
	for (i = 0; i < n; i++)
		u64map_del(m, gone[i]);
out:
	free(gone);
	u64map_free(&live);
}

void window_expire(struct window *win, uint64_t now)
{
	uint64_t from = now > win->span ? now - win->span : 0;

	while (win->n && win->v[win->head].time < from) {
		win->head = (win->head + 1) % win->cap;
		win->n--;
	}
	if (win->threads.n >= WINDOW_NAMES_MAX)
		prune(win, &win->threads, false);
	if (win->procs.n >= WINDOW_NAMES_MAX)
		prune(win, &win->procs, true);
}

const struct wname *window_thread(const struct window *win, uint32_t tid)
{
	return u64map_ptr(&win->threads, (uint64_t)tid + 1);
}

const struct wname *window_proc(const struct window *win, uint32_t pid)
{
	return u64map_ptr(&win->procs, (uint64_t)pid + 1);
}

static void names_free(struct u64map *m)
{
	union u64map_val *v;
	uint32_t i;
	uint64_t k;

	for (i = 0; u64map_next(m, &i, &k, &v);)
		name_free(v->p);
	u64map_free(m);
}

void window_free(struct window *win)
{
	free(win->v);
	names_free(&win->threads);
	names_free(&win->procs);
	memset(win, 0, sizeof(*win));
}

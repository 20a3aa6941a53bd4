/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfjava top's window: the samples of the last seconds, as the
 * recorder's writer in memory hands them over (its tap, profile/io.h),
 * with the names of their threads and processes. A sample's stack and
 * frames stay the writer's: the window keeps ids.
 */
#ifndef PJ_USER_TOP_WINDOW_H
#define PJ_USER_TOP_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/u64map.h"
#include "profile/io.h"

/* Samples held at most (24 bytes each): past it, the oldest go first. */
#define WINDOW_MAX (1u << 20)
/* Threads and processes named at most; past it, those with no sample in
 * the window are forgotten, then new names are not kept. */
#define WINDOW_NAMES_MAX 65536

struct wsample {
	uint64_t time; /* CLOCK_MONOTONIC ns */
	uint32_t stack, tid, pid;
};

/* A thread's or a process's name (safe for a terminal: the writer's). */
struct wname {
	char *name; /* thread name, or the process's comm */
	char *cmdline; /* a process's; "" for a thread */
	uint8_t kind; /* a process's enum pj_process_kind */
};

struct window {
	struct pj_writer *w; /* whose stacks and frames the samples name */
	uint32_t event; /* the event shown: the first */
	uint64_t span; /* ns of samples kept */
	struct wsample *v; /* a ring: n of them from head */
	uint32_t cap, head, n;
	uint64_t seen; /* samples of the event since the start */
	uint64_t dropped; /* ... that WINDOW_MAX left out */
	struct u64map threads, procs; /* tid, pid + 1 -> struct wname */
	struct pj_writer_tap tap; /* the recorder's writer calls it */
};

/* win ready for span ns of samples of event; its tap, for the recorder's
 * options, is &win->tap. */
void window_init(struct window *win, uint64_t span, uint32_t event);
/* The samples older than span before now go; names are pruned when they
 * reached their bound. */
void window_expire(struct window *win, uint64_t now);
/* The i-th sample held, oldest first (i < win->n). */
static inline const struct wsample *window_at(const struct window *win,
					      uint32_t i)
{
	return &win->v[(win->head + i) % win->cap];
}
/* Thread tid's, process pid's name, or NULL when none came. */
const struct wname *window_thread(const struct window *win, uint32_t tid);
const struct wname *window_proc(const struct window *win, uint32_t pid);
void window_free(struct window *win);

#endif

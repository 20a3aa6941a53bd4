/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfjava top's view: the window folded (top/fold.h) into rows, hottest
 * frames by self or total share, a frame opened into its callers, or the
 * threads (processes at -a) by share; the keys that move and change it
 * (view.c), drawn on the terminal or printed as a table when stdout
 * is no terminal (screen.c).
 */
#ifndef PJ_USER_TOP_VIEW_H
#define PJ_USER_TOP_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "top/fold.h"
#include "top/term.h"
#include "top/window.h"

#define VIEW_MAX_DEPTH 64 /* callers opened along one path */
#define VIEW_MAX_OPEN 64 /* paths opened at once */
#define VIEW_MAX_CALLERS 32 /* callers shown under a path */
#define VIEW_FILTER_MAX 128
#define VIEW_LINE 1024 /* a header line, at most */

/* What the header says of the recording (record/ knows it: top/top.c). */
struct view_info {
	char target[512]; /* "pid 4242: java -cp ...", "every process" */
	char event[160]; /* "cpu-clock at 100 Hz" */
	char rings[160]; /* "23 threads, Java frames from 1 JVM" */
	uint64_t lost; /* samples the rings lost */
	double cpu; /* perfjava's own CPU, % of one CPU, since the last */
};

enum vrow_kind { VROW_FRAME, VROW_CALLER, VROW_TASK };

/* A row shown: a frame (its path: itself), a caller (its path from the
 * frame up to it), a thread or process (id). */
struct vrow {
	uint8_t kind;
	bool open; /* its callers are shown below it */
	uint16_t depth; /* path length - 1 */
	uint32_t id; /* the frame, caller, or task */
	uint64_t self, total; /* samples (a caller's and a task's: total) */
	uint32_t path; /* its path's start in the view's pool */
};

struct vpath {
	unsigned int n;
	uint32_t f[VIEW_MAX_DEPTH];
};

struct view {
	struct window *win;
	struct fold fold;
	struct view_info info; /* as of the last fold */
	uint64_t seen, held; /* the window's samples then */
	bool machine; /* -a, -C: tasks are processes */
	bool by_total; /* sorted by total share, or self */
	bool tasks; /* the threads' (processes') view */
	bool editing; /* the filter is being typed */
	bool paused; /* the rows stay as they are (the window goes on) */
	bool quit;
	struct fold_filter flt; /* one task chosen, or all */
	char filter[VIEW_FILTER_MAX], edit[VIEW_FILTER_MAX];
	struct vpath open[VIEW_MAX_OPEN];
	unsigned int nopen;
	struct vrow *rows;
	size_t nrows, caprows;
	uint32_t *pool; /* the rows' paths */
	size_t npool, cappool;
	size_t cursor, scroll, page; /* page: rows on the screen */
	struct vpath sel; /* the cursor row's path (task: its id) */
	uint8_t sel_kind;
	char status[512]; /* a message on the status line, until then */
	uint64_t status_until;
	char *screen; /* what the next draw writes */
	size_t len, cap;
	int room; /* lines left on the screen above the status line */
};

void view_init(struct view *v, struct window *win, bool machine, bool by_total);
/* The window folded again, its rows made, info for the header; nothing
 * while paused. */
void view_refresh(struct view *v, const struct view_info *info);
/* One key, as perf top and htop users expect it (top/term.h keys). */
void view_key(struct view *v, int key);
/* A line perfjava wrote to stderr, shown on the status line a while. */
void view_message(struct view *v, const char *line, uint64_t now);
/* The screen drawn on t. */
void view_draw(struct view *v, struct term *t, uint64_t now);
/* The window as plain text (stdout no terminal): the header, at most max
 * frames, and the threads (processes at -a). */
void view_text(struct view *v, FILE *out, unsigned int max);
void view_free(struct view *v);

/* Names, made safe for a terminal, into buf: frame id as the reports
 * name it; a thread or process of the window (by_process). */
const char *view_frame_name(const struct view *v, uint32_t frame, char *buf,
			    size_t len);
const char *view_task_name(const struct view *v, uint32_t id, bool by_process,
			   char *buf, size_t len);
/* The header's lines (1-3) into line[i] (each len bytes); how many. */
unsigned int view_header(const struct view *v, char line[][VIEW_LINE]);

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * perfjava top's view drawn: the header, the rows, the status line on the
 * terminal (one write a frame, each line cut to the width); or the same
 * as a plain-text table when stdout is no terminal. See top/view.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "top/view.h"

#define REVERSE "\033[7m"
#define PLAIN "\033[0m"

static double pct(uint64_t n, uint64_t of)
{
	return of ? 100.0 * (double)n / (double)of : 0;
}

/* Appends s[0..n) to the screen buffer (nothing more once out of memory). */
static void put(struct view *v, const char *s, size_t n)
{
	if (GROW(v->screen, v->cap, v->len + n))
		return;
	memcpy(v->screen + v->len, s, n);
	v->len += n;
}

/* How many bytes of s fit in cols columns: UTF-8 characters whole, each
 * one column (the line does not wrap: the view turned wrapping off). */
static size_t fit(const char *s, int cols)
{
	size_t i = 0;
	int c = 0;

	for (; s[i]; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80 && c++ == cols)
			break;
	return i;
}

/* The columns of s[0..n): its UTF-8 characters. */
static int columns(const char *s, size_t n)
{
	int c = 0;

	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* One line of the screen: text cut to the width, in reverse video when
 * rev (padded to the width), the rest of the line erased. */
static void line(struct view *v, int cols, bool rev, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	size_t n;

	if (v->room <= 0) /* a terminal too small for all of it */
		return;
	v->room--;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	n = fit(buf, cols);
	if (rev)
		put(v, REVERSE, sizeof(REVERSE) - 1);
	put(v, buf, n);
	if (rev) {
		for (int pad = cols - columns(buf, n); pad > 0; pad--)
			put(v, " ", 1);
		put(v, PLAIN, sizeof(PLAIN) - 1);
	}
	put(v, "\033[K\r\n", 5);
}

unsigned int view_header(const struct view *v, char h[][VIEW_LINE])
{
	double span = (double)v->win->span / 1e9;
	char task[256] = "";

	if (v->flt.tid || v->flt.pid) {
		char name[200];

		view_task_name(v, v->flt.tid ? v->flt.tid : v->flt.pid,
			       !v->flt.tid, name, sizeof(name));
		snprintf(task, sizeof(task), "  |  %s %u: %s",
			 v->flt.tid ? "thread" : "process",
			 v->flt.tid ? v->flt.tid : v->flt.pid, name);
	}
	snprintf(h[0], VIEW_LINE, "perfjava top  %s%s", v->info.target,
		 v->paused ? "  [paused]" : "");
	snprintf(h[1], VIEW_LINE,
		 "%s  |  %s  |  lost %llu  |  perfjava %.1f%% CPU",
		 v->info.event, v->info.rings, (unsigned long long)v->info.lost,
		 v->info.cpu);
	snprintf(h[2], VIEW_LINE,
		 "%llu samples in the last %g s, %llu since the start  |  "
		 "sort: %s%s%s%s",
		 (unsigned long long)v->held, span, (unsigned long long)v->seen,
		 v->by_total ? "total" : "self", task,
		 v->filter[0] ? "  |  filter: " : "", v->filter);
	return 3;
}

/* The busiest processes (at -a), under the header. */
static unsigned int busiest(struct view *v, int cols, unsigned int max)
{
	char name[1024];
	unsigned int n = 0;

	if (!v->machine || v->tasks || v->flt.pid)
		return 0;
	for (; n < max && n < v->fold.ntasks; n++) {
		const struct trow *t = &v->fold.tasks[n];

		line(v, cols, false, "%7.2f%%  pid %-7u  %s",
		     pct(t->samples, v->fold.samples), t->id,
		     view_task_name(v, t->id, true, name, sizeof(name)));
	}
	return n;
}

static void frame_line(struct view *v, const struct vrow *r, int cols, bool cur)
{
	char name[1024], ind[2 * VIEW_MAX_DEPTH + 1];
	uint64_t all = v->fold.samples, n = v->by_total ? r->total : r->self;
	int depth = r->depth < VIEW_MAX_DEPTH ? r->depth : VIEW_MAX_DEPTH;

	memset(ind, ' ', 2 * (size_t)depth);
	ind[2 * depth] = 0;
	view_frame_name(v, r->id, name, sizeof(name));
	if (r->kind == VROW_CALLER) { /* the samples through it */
		char share[16];

		snprintf(share, sizeof(share), "%7.2f", pct(r->total, all));
		line(v, cols, cur, "%7s %7s %8llu  %s%s %s",
		     v->by_total ? "" : share, v->by_total ? share : "",
		     (unsigned long long)r->total, ind, r->open ? "-" : "+",
		     name);
	} else {
		line(v, cols, cur, "%7.2f %7.2f %8llu  %s %s",
		     pct(r->self, all), pct(r->total, all),
		     (unsigned long long)n, r->open ? "-" : "+", name);
	}
}

static void task_line(struct view *v, const struct vrow *r, int cols, bool cur)
{
	char name[1024];
	const struct trow *t = NULL;

	for (size_t i = 0; i < v->fold.ntasks && !t; i++)
		if (v->fold.tasks[i].id == r->id)
			t = &v->fold.tasks[i];
	view_task_name(v, r->id, v->flt.by_process, name, sizeof(name));
	if (v->flt.by_process)
		line(v, cols, cur, "%7.2f %8llu %8u  %s",
		     pct(r->total, v->fold.samples),
		     (unsigned long long)r->total, r->id, name);
	else
		line(v, cols, cur, "%7.2f %8llu %8u %8u  %s",
		     pct(r->total, v->fold.samples),
		     (unsigned long long)r->total, t ? t->pid : 0, r->id, name);
}

static void status(struct view *v, int cols, uint64_t now)
{
	char buf[1024];

	if (v->editing)
		snprintf(buf, sizeof(buf),
			 "Filter: %s_   (Enter: apply, Esc: cancel)", v->edit);
	else if (v->status[0] && now < v->status_until)
		snprintf(buf, sizeof(buf), "%s", v->status);
	else
		snprintf(buf, sizeof(buf),
			 "q quit  p pause  s self/total  t %s  / filter  "
			 "Enter callers  ? help",
			 v->machine ? "processes" : "threads");
	put(v, REVERSE, sizeof(REVERSE) - 1);
	put(v, buf, fit(buf, cols));
	put(v, "\033[K" PLAIN, 3 + sizeof(PLAIN) - 1);
}

void view_draw(struct view *v, struct term *t, uint64_t now)
{
	char h[3][VIEW_LINE];
	int cols = t->cols, left;
	unsigned int nh = view_header(v, h);
	size_t page;

	v->len = 0;
	v->room = t->rows - 1;
	put(v, "\033[H", 3);
	for (unsigned int i = 0; i < nh; i++)
		line(v, cols, false, "%s", h[i]);
	left = t->rows - (int)nh - 2; /* the columns' line, the status */
	left -= (int)busiest(v, cols, left > 8 ? 3 : 0);
	if (v->tasks && v->flt.by_process)
		line(v, cols, true, "%7s %8s %8s  %s", "SHARE%", "SAMPLES",
		     "PID", "COMMAND");
	else if (v->tasks)
		line(v, cols, true, "%7s %8s %8s %8s  %s", "SHARE%", "SAMPLES",
		     "PID", "TID", "THREAD");
	else
		line(v, cols, true, "%7s %7s %8s  %s", "SELF%", "TOTAL%",
		     "SAMPLES", "FRAME");
	page = left > 1 ? (size_t)left : 1;
	if (v->cursor < v->scroll)
		v->scroll = v->cursor;
	if (v->cursor >= v->scroll + page)
		v->scroll = v->cursor - page + 1;
	for (size_t i = v->scroll; i < v->nrows && i < v->scroll + page; i++) {
		if (v->rows[i].kind == VROW_TASK)
			task_line(v, &v->rows[i], cols, i == v->cursor);
		else
			frame_line(v, &v->rows[i], cols, i == v->cursor);
	}
	put(v, "\033[J", 3); /* the lines below, to the status line */
	put(v, "\033[999;1H", 8);
	status(v, cols, now);
	v->page = page;
	term_write(t, v->screen, v->len);
}

void view_text(struct view *v, FILE *out, unsigned int max)
{
	char h[3][VIEW_LINE], name[1024];
	uint64_t all = v->fold.samples;
	unsigned int n = 0;

	view_header(v, h);
	fprintf(out, "%s\n%s\n%s\n", h[0], h[1], h[2]);
	fprintf(out, "%7s %7s %8s  %s\n", "SELF%", "TOTAL%", "SAMPLES",
		"FRAME");
	for (size_t i = 0; i < v->fold.nrows && n < max; i++) {
		const struct frow *f = &v->fold.rows[i];

		if (!(v->by_total ? f->total : f->self))
			continue;
		fprintf(out, "%7.2f %7.2f %8llu  %s\n", pct(f->self, all),
			pct(f->total, all),
			(unsigned long long)(v->by_total ? f->total : f->self),
			view_frame_name(v, f->frame, name, sizeof(name)));
		n++;
	}
	fprintf(out, "%7s %8s %8s  %s\n", "SHARE%", "SAMPLES",
		v->flt.by_process ? "PID" : "TID",
		v->flt.by_process ? "COMMAND" : "THREAD");
	for (size_t i = 0; i < v->fold.ntasks && i < max; i++) {
		const struct trow *t = &v->fold.tasks[i];

		fprintf(out, "%7.2f %8llu %8u  %s\n", pct(t->samples, all),
			(unsigned long long)t->samples, t->id,
			view_task_name(v, t->id, v->flt.by_process, name,
				       sizeof(name)));
	}
	fprintf(out, "\n");
	fflush(out);
}

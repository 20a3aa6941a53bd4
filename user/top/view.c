// SPDX-License-Identifier: GPL-2.0
/* perfjava top's view: rows and keys; see top/view.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "lib/text.h"
#include "report/report.h"
#include "top/view.h"

const char *view_frame_name(const struct view *v, uint32_t frame, char *buf,
			    size_t len)
{
	const struct pj_writer *w = v->win->w;
	struct pj_frame fr;

	if (!w || pj_writer_frame_get(w, frame, &fr)) {
		snprintf(buf, len, "[?]");
		return buf;
	}
	report_name_frame(&fr, pj_writer_str(w, fr.name),
			  pj_writer_str(w, fr.module), 0, false, REPORT_PLAIN,
			  buf, len);
	text_clean(buf, strlen(buf));
	return buf;
}

const char *view_task_name(const struct view *v, uint32_t id, bool by_process,
			   char *buf, size_t len)
{
	const struct wname *n = by_process ? window_proc(v->win, id)
					   : window_thread(v->win, id);

	if (by_process && !id)
		snprintf(buf, len, "[idle]");
	else if (!n)
		snprintf(buf, len, "[%s %u]", by_process ? "pid" : "tid", id);
	else if (by_process && *n->cmdline && n->kind != PJ_PROC_KERNEL)
		snprintf(buf, len, "%s", n->cmdline);
	else
		snprintf(buf, len, by_process ? "[%s]" : "%s", n->name);
	text_clean(buf, strlen(buf));
	return buf;
}

static const char *fold_name(void *ctx, uint32_t frame, char *buf, size_t len)
{
	return view_frame_name(ctx, frame, buf, len);
}

void view_init(struct view *v, struct window *win, bool machine, bool by_total)
{
	memset(v, 0, sizeof(*v));
	v->win = win;
	v->machine = machine;
	v->by_total = by_total;
	v->flt.by_process = machine;
	/* frames named the same are one row, as in the report */
	v->fold.namer = (struct fold_namer){ fold_name, v };
}

/* --- rows --- */

static bool is_open(const struct view *v, const uint32_t *path, unsigned n)
{
	for (unsigned int i = 0; i < v->nopen; i++)
		if (v->open[i].n == n &&
		    !memcmp(v->open[i].f, path, n * sizeof(*path)))
			return true;
	return false;
}

static struct vrow *add_row(struct view *v, uint8_t kind, const uint32_t *path,
			    unsigned int n)
{
	struct vrow *r;

	if (GROW(v->rows, v->caprows, v->nrows + 1) ||
	    GROW(v->pool, v->cappool, v->npool + n))
		return NULL;
	r = &v->rows[v->nrows++];
	*r = (struct vrow){ .kind = kind,
			    .depth = (uint16_t)(n - 1),
			    .id = path[n - 1],
			    .path = (uint32_t)v->npool,
			    .open = kind != VROW_TASK && is_open(v, path, n) };
	memcpy(v->pool + v->npool, path, n * sizeof(*path));
	v->npool += n;
	return r;
}

/* The callers of path[0..n) (open), each a row, and theirs when open. */
static void add_callers(struct view *v, uint32_t *path, unsigned int n)
{
	struct fcaller c[VIEW_MAX_CALLERS];
	int k;

	if (n >= VIEW_MAX_DEPTH)
		return;
	k = fold_callers(&v->fold, path, n, !v->by_total, c, VIEW_MAX_CALLERS);
	for (int i = 0; i < k; i++) {
		struct vrow *r;

		path[n] = c[i].frame;
		r = add_row(v, VROW_CALLER, path, n + 1);
		if (!r)
			return;
		r->total = c[i].samples;
		if (r->open)
			add_callers(v, path, n + 1);
	}
}

static bool passes(const struct view *v, const char *name)
{
	return !v->filter[0] || strcasestr(name, v->filter);
}

static void frame_rows(struct view *v)
{
	uint32_t path[VIEW_MAX_DEPTH];
	char name[1024];

	for (size_t i = 0; i < v->fold.nrows; i++) {
		const struct frow *f = &v->fold.rows[i];
		struct vrow *r;

		if (!(v->by_total ? f->total : f->self) ||
		    (v->filter[0] &&
		     !passes(v,
			     view_frame_name(v, f->frame, name, sizeof(name)))))
			continue;
		path[0] = f->frame;
		r = add_row(v, VROW_FRAME, path, 1);
		if (!r)
			return;
		r->self = f->self;
		r->total = f->total;
		if (r->open)
			add_callers(v, path, 1);
	}
}

static void task_rows(struct view *v)
{
	char name[1024];

	for (size_t i = 0; i < v->fold.ntasks; i++) {
		const struct trow *t = &v->fold.tasks[i];
		struct vrow *r;

		if (v->filter[0] &&
		    !passes(v, view_task_name(v, t->id, v->flt.by_process, name,
					      sizeof(name))))
			continue;
		r = add_row(v, VROW_TASK, &t->id, 1);
		if (!r)
			return;
		r->total = t->samples;
	}
}

static const uint32_t *row_path(const struct view *v, const struct vrow *r)
{
	return v->pool + r->path;
}

/* The cursor's row kept as it was: the row with its path. */
static void find_cursor(struct view *v)
{
	for (size_t i = 0; i < v->nrows; i++) {
		const struct vrow *r = &v->rows[i];

		if (r->kind == v->sel_kind && r->depth + 1u == v->sel.n &&
		    !memcmp(row_path(v, r), v->sel.f,
			    v->sel.n * sizeof(*v->sel.f))) {
			v->cursor = i;
			return;
		}
	}
	if (v->cursor >= v->nrows)
		v->cursor = v->nrows ? v->nrows - 1 : 0;
}

static void remember_cursor(struct view *v)
{
	const struct vrow *r;

	if (v->cursor >= v->nrows) {
		v->sel.n = 0;
		return;
	}
	r = &v->rows[v->cursor];
	v->sel_kind = r->kind;
	v->sel.n = r->depth + 1u;
	memcpy(v->sel.f, row_path(v, r), v->sel.n * sizeof(*v->sel.f));
}

static void make_rows(struct view *v)
{
	v->nrows = v->npool = 0;
	if (v->tasks)
		task_rows(v);
	else
		frame_rows(v);
	find_cursor(v);
	remember_cursor(v);
}

static void refold(struct view *v)
{
	v->seen = v->win->seen;
	v->held = v->win->n;
	if (fold_window(&v->fold, v->win, &v->flt))
		snprintf(v->status, sizeof(v->status),
			 "out of memory: the view is incomplete");
	fold_sort(&v->fold, v->by_total);
	make_rows(v);
}

void view_refresh(struct view *v, const struct view_info *info)
{
	if (v->paused)
		return;
	v->info = *info;
	refold(v);
}

/* --- keys --- */

/* path[0..n) opened, or closed with what is open below it. */
static void toggle(struct view *v, const uint32_t *path, unsigned int n)
{
	unsigned int k = 0;

	if (!is_open(v, path, n)) {
		if (v->nopen < VIEW_MAX_OPEN && n < VIEW_MAX_DEPTH) {
			v->open[v->nopen].n = n;
			memcpy(v->open[v->nopen++].f, path, n * sizeof(*path));
		}
		return;
	}
	for (unsigned int i = 0; i < v->nopen; i++)
		if (v->open[i].n < n ||
		    memcmp(v->open[i].f, path, n * sizeof(*path)))
			v->open[k++] = v->open[i];
	v->nopen = k;
}

static void move(struct view *v, long by)
{
	long to = (long)v->cursor + by;

	if (to >= (long)v->nrows)
		to = (long)v->nrows - 1;
	v->cursor = to < 0 ? 0 : (size_t)to;
	remember_cursor(v);
}

/* Enter, Right (open), Left (close, or up to the row it is under). */
static void expand(struct view *v, int key)
{
	const struct vrow *r = v->cursor < v->nrows ? &v->rows[v->cursor]
						    : NULL;

	if (!r)
		return;
	if (r->kind == VROW_TASK) { /* that task's frames */
		if (key != KEY_ENTER && key != KEY_RIGHT)
			return;
		v->flt.tid = v->flt.by_process ? 0 : r->id;
		v->flt.pid = v->flt.by_process ? r->id : 0;
		v->tasks = false;
		v->filter[0] = 0;
		v->cursor = 0;
		v->sel.n = 0;
		refold(v); /* that task's samples */
		return;
	}
	if (key == KEY_ENTER || (key == KEY_RIGHT) != r->open) {
		toggle(v, row_path(v, r), r->depth + 1u);
		return;
	}
	if (key == KEY_LEFT && r->depth) /* to its callee's row */
		while (v->cursor && v->rows[v->cursor].depth >= r->depth)
			v->cursor--;
	remember_cursor(v);
}

static void edit_key(struct view *v, int key)
{
	size_t n = strlen(v->edit);

	if (key == KEY_ENTER) {
		memcpy(v->filter, v->edit, sizeof(v->filter));
		v->editing = false;
	} else if (key == KEY_ESC) {
		v->editing = false;
	} else if (key == KEY_BACKSPACE) {
		while (n && ((unsigned char)v->edit[n - 1] & 0xc0) == 0x80)
			n--; /* a UTF-8 character's continuation bytes */
		v->edit[n ? n - 1 : 0] = 0;
	} else if (key == 0x15) { /* Ctrl-U */
		v->edit[0] = 0;
	} else if (key >= 0x20 && key < 0x100 && key != 0x7f &&
		   n + 1 < sizeof(v->edit)) {
		v->edit[n] = (char)key;
		v->edit[n + 1] = 0;
	}
}

static void help(struct view *v)
{
	snprintf(v->status, sizeof(v->status),
		 "q quit  p pause  s self/total  t %s  / filter  Enter "
		 "callers (Right open, Left close)  Esc all  arrows PgUp "
		 "PgDn Home End",
		 v->machine ? "processes" : "threads");
	v->status_until = UINT64_MAX;
}

void view_key(struct view *v, int key)
{
	long page = v->page > 1 ? (long)v->page - 1 : 1;

	if (v->editing) {
		edit_key(v, key);
		make_rows(v);
		return;
	}
	if (v->status_until == UINT64_MAX)
		v->status_until = 0; /* the help goes at the next key */
	switch (key) {
	case 'q':
	case 'Q':
		v->quit = true;
		return;
	case 'p':
	case 'P':
		v->paused = !v->paused;
		return;
	case 's':
	case 'S':
		v->by_total = !v->by_total;
		v->nopen = 0; /* callers of self and of total differ */
		fold_sort(&v->fold, v->by_total);
		break;
	case 't':
	case 'T':
		v->tasks = !v->tasks;
		v->cursor = 0;
		v->sel.n = 0;
		break;
	case '/':
		v->editing = true;
		memcpy(v->edit, v->filter, sizeof(v->edit));
		return;
	case KEY_ESC: /* everything again */
		v->filter[0] = 0;
		v->tasks = false;
		if (v->flt.tid || v->flt.pid) {
			v->flt.tid = v->flt.pid = 0;
			refold(v);
		}
		break;
	case 'h':
	case '?':
		help(v);
		return;
	case KEY_UP:
	case 'k':
		move(v, -1);
		return;
	case KEY_DOWN:
	case 'j':
		move(v, 1);
		return;
	case KEY_PGUP:
		move(v, -page);
		return;
	case KEY_PGDN:
		move(v, page);
		return;
	case KEY_HOME:
	case 'g':
		move(v, -(long)v->nrows);
		return;
	case KEY_END:
	case 'G':
		move(v, (long)v->nrows);
		return;
	case KEY_ENTER:
	case KEY_RIGHT:
	case KEY_LEFT:
	case '+':
	case '-':
		expand(v, key == '+' ? KEY_RIGHT : key == '-' ? KEY_LEFT : key);
		break;
	default:
		return;
	}
	make_rows(v); /* of the same fold: paused, the numbers stay */
}

void view_message(struct view *v, const char *line, uint64_t now)
{
	if (!*line)
		return;
	snprintf(v->status, sizeof(v->status), "%s", line);
	text_clean(v->status, strlen(v->status));
	v->status_until = now + 10000000000ULL; /* 10 s */
}

void view_free(struct view *v)
{
	fold_free(&v->fold);
	free(v->rows);
	free(v->pool);
	free(v->screen);
	memset(v, 0, sizeof(*v));
}

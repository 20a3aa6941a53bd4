// SPDX-License-Identifier: GPL-2.0
/*
 * perfjava top without a terminal: samples written to a writer in memory
 * (as the recorder writes them) reach the window through its tap; the view
 * folds them into frames by self and total (frames named alike as one row,
 * a frame twice in a stack counted once), threads, callers along a path;
 * its keys (s, Enter, /, t, Esc) change the rows as they should; the window
 * lets old samples go.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/io.h"
#include "tap.h"
#include "top/view.h"
#include "top/window.h"

static struct pj_writer *w;
static struct window win;
static struct view v;
static const struct view_info info = { "pid 10: test", "cpu-clock", "2", 0, 0 };

/* n samples of stack st on thread tid at time t (ns). */
static void put(uint32_t st, uint32_t tid, uint64_t t, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		struct pj_sample s = { .time = t,
				       .period = 1,
				       .tid = tid,
				       .pid = 10,
				       .stack = st };

		pj_writer_sample(w, &s);
	}
}

/* The row of frame name (top level), or NULL. */
static const struct vrow *row(const char *name)
{
	char buf[256];

	for (size_t i = 0; i < v.nrows; i++)
		if (v.rows[i].kind != VROW_CALLER &&
		    !strcmp(view_frame_name(&v, v.rows[i].id, buf, sizeof(buf)),
			    name))
			return &v.rows[i];
	return NULL;
}

static const char *row_name(size_t i, char *buf, size_t len)
{
	return i < v.nrows ? view_frame_name(&v, v.rows[i].id, buf, len) : "";
}

static void test_fold(void)
{
	uint32_t a = pj_writer_frame(w, PJ_FRAME_JIT, "A.a", "", "A.java", 1);
	uint32_t ai =
	    pj_writer_frame(w, PJ_FRAME_INLINED, "A.a", "", "A.java", 2);
	uint32_t b = pj_writer_frame(w, PJ_FRAME_JIT, "B.b", "", "B.java", 3);
	uint32_t r =
	    pj_writer_frame(w, PJ_FRAME_JIT, "java.lang.Thread.run", "", "", 0);
	uint32_t k = pj_writer_frame(w, PJ_FRAME_KERNEL, "k_func", "", "", 0);
	uint32_t s1 = pj_writer_stack(w, (uint32_t[]){ a, b, r }, 3);
	uint32_t s2 = pj_writer_stack(w, (uint32_t[]){ ai, b, r }, 3);
	uint32_t s3 = pj_writer_stack(w, (uint32_t[]){ k, b, r }, 3);
	uint32_t s4 = pj_writer_stack(w, (uint32_t[]){ b, a, b, r }, 4);
	const struct vrow *x;
	char buf[256];

	put(s1, 11, 1000000000, 3);
	put(s2, 11, 1000000000, 2);
	put(s3, 12, 1500000000, 1);
	put(s4, 12, 2000000000, 1);
	ok(win.n == 7 && win.seen == 7, "the tap put 7 samples in the window");
	window_expire(&win, 2500000000ULL);
	view_refresh(&v, &info);
	ok(v.fold.samples == 7, "all 7 folded (%llu)",
	   (unsigned long long)v.fold.samples);
	x = row("A.a");
	ok(x && x->self == 5 && x->total == 6,
	   "A.a compiled and inlined is one row: self 5, total 6 (%llu, %llu)",
	   x ? (unsigned long long)x->self : 0,
	   x ? (unsigned long long)x->total : 0);
	x = row("B.b");
	ok(x && x->self == 1 && x->total == 7,
	   "B.b twice in a stack counts once: self 1, total 7");
	ok(row("k_func_[k]") && row("k_func_[k]")->self == 1,
	   "a kernel frame is named as the reports name it (k_func_[k])");
	ok(!row("java.lang.Thread.run"),
	   "by self, a frame with no self samples has no row");
	ok(!strcmp(row_name(0, buf, sizeof(buf)), "A.a"),
	   "the hottest by self first (%s)", buf);
	/* Enter: A.a's callers; Enter on the caller: its callers */
	view_key(&v, KEY_HOME);
	view_key(&v, KEY_ENTER);
	ok(v.nrows > 1 && v.rows[1].kind == VROW_CALLER &&
	       v.rows[1].total == 5 &&
	       !strcmp(row_name(1, buf, sizeof(buf)), "B.b"),
	   "Enter: A.a's caller B.b, with the 5 samples A.a is the leaf of");
	view_key(&v, KEY_DOWN);
	view_key(&v, KEY_RIGHT);
	ok(v.nrows > 2 && v.rows[2].kind == VROW_CALLER &&
	       v.rows[2].depth == 2 && v.rows[2].total == 5 &&
	       !strcmp(row_name(2, buf, sizeof(buf)), "java.lang.Thread.run"),
	   "Right on it: its caller, two deep");
	view_refresh(&v, &info);
	ok(v.nrows > 2 && v.rows[2].depth == 2 && v.cursor == 1,
	   "a refresh keeps what is open and where the cursor is");
	view_key(&v, KEY_LEFT);
	ok(v.nrows > 2 && v.rows[2].kind != VROW_CALLER,
	   "Left closes it again");
	/* s: by total; A.a's callers then count where it is innermost */
	view_key(&v, 's');
	ok(v.rows[0].total == 7 && v.rows[1].total == 7 &&
	       !strcmp(row_name(0, buf, sizeof(buf)), "B.b"),
	   "s: by total, B.b and Thread.run (7 each), self breaking the tie");
	view_key(&v, 'g');
	while (v.cursor < v.nrows &&
	       strcmp(row_name(v.cursor, buf, sizeof(buf)), "A.a"))
		view_key(&v, KEY_DOWN);
	view_key(&v, KEY_ENTER);
	ok(v.cursor + 1 < v.nrows && v.rows[v.cursor + 1].total == 6,
	   "by total, A.a's callers: all 6 stacks it is in");
	/* / filter */
	view_key(&v, '/');
	view_key(&v, 'b');
	view_key(&v, '.');
	view_key(&v, KEY_ENTER);
	ok(v.nrows == 1 && !strcmp(row_name(0, buf, sizeof(buf)), "B.b"),
	   "/b. keeps the frames that have it (%zu rows)", v.nrows);
	view_key(&v, KEY_ESC);
	ok(v.nrows > 3, "Esc: all again");
	/* t: the threads, Enter one: its frames */
	view_key(&v, 't');
	ok(v.nrows == 2 && v.rows[0].kind == VROW_TASK && v.rows[0].id == 11 &&
	       v.rows[0].total == 5,
	   "t: the threads, the busiest first (tid 11, 5 samples)");
	ok(!strcmp(view_task_name(&v, 11, false, buf, sizeof(buf)), "work?er"),
	   "a thread named by the tap, made safe (%s)", buf);
	view_key(&v, KEY_DOWN);
	view_key(&v, KEY_ENTER);
	ok(!v.tasks && v.flt.tid == 12 && v.fold.samples == 2,
	   "Enter on tid 12: its 2 samples alone");
	view_key(&v, KEY_ESC);
	ok(v.fold.samples == 7, "Esc: every thread again");
	/* the window lets old samples go */
	window_expire(&win, 6200000000ULL); /* 5 s: those at 1 s go */
	view_refresh(&v, &info);
	ok(win.n == 2 && v.fold.samples == 2,
	   "5 s later, the samples older than the window are gone (%u left)",
	   win.n);
	view_key(&v, 'p');
	put(s1, 11, 6800000000ULL, 4);
	view_refresh(&v, &info);
	ok(v.paused && v.fold.samples == 2 && win.n == 6,
	   "p: the view stays while the window takes samples");
	view_key(&v, 'p');
	view_refresh(&v, &info);
	ok(v.fold.samples == 6, "p again: they are there");
}

static void test_text(void)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return;
	view_text(&v, f, 10);
	fclose(f);
	ok(out && strstr(out, "perfjava top  pid 10: test") &&
	       strstr(out, "  SELF%  TOTAL%  SAMPLES  FRAME\n") &&
	       strstr(out, "A.a\n") && strstr(out, "THREAD\n"),
	   "the table without a terminal: header, frames, threads");
	free(out);
}

int main(void)
{
	window_init(&win, 5000000000ULL, 0);
	w = pj_writer_open_mem(&win.tap);
	if (!w)
		return 1;
	win.w = w;
	view_init(&v, &win, false, false);
	pj_writer_thread(w, 11, 10, "work\ner");
	pj_writer_thread(w, 12, 10, "other");
	test_fold();
	test_text();
	view_free(&v);
	pj_writer_abort(w);
	window_free(&win);
	return tap_done();
}

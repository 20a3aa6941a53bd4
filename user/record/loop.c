// SPDX-License-Identifier: GPL-2.0
/*
 * --loop: one file per interval (see record/loop.h). At an interval's end
 * the walks in flight are finished, the waits still open are closed, the
 * statistics trailer and END are written, and the next file starts with
 * everything a file needs on its own: metadata, events, the live threads;
 * the caches of frame ids (symbols, thread names, off-CPU states) start
 * empty, since ids are the file's, which also keeps memory flat over days.
 * Samples keep arriving in the rings meanwhile: no gap between files.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/clock.h"
#include "lib/outfile.h"
#include "pipeline/wall.h"
#include "record/header.h"
#include "record/loop.h"
#include "record/machine.h"
#include "record/recorder.h"
#include "record/summary.h"

struct loop {
	uint64_t next; /* CLOCK_MONOTONIC ns of the next switch */
	char **done; /* files written, oldest first (for --keep) */
	unsigned int ndone;
	char cur[4096];
};

void loop_file_name(const char *tmpl, char *buf, size_t len)
{
	char stamp[32], base[4096];
	time_t t = time(NULL);
	struct tm tm;
	size_t at = 0;
	struct stat st;

	if (!localtime_r(&t, &tm) ||
	    !strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm))
		snprintf(stamp, sizeof(stamp), "%lld", (long long)t);
	for (const char *p = tmpl; *p && at + 1 < sizeof(base); p++) {
		if (p[0] == '%' && p[1] == 't') {
			at += (size_t)snprintf(base + at, sizeof(base) - at,
					       "%s", stamp);
			if (at >= sizeof(base))
				at = sizeof(base) - 1;
			p++;
		} else {
			base[at++] = *p;
		}
	}
	base[at] = 0;
	snprintf(buf, len, "%s", base);
	for (int i = 1; !lstat(buf, &st) && i < 1000; i++) {
		const char *slash = strrchr(base, '/');
		const char *dot = strrchr(slash ? slash : base, '.');
		int stem = dot && dot != base ? (int)(dot - base)
					      : (int)strlen(base);

		snprintf(buf, len, "%.*s-%d%s", stem, base, i,
			 dot && dot != base ? dot : "");
	}
}

int loop_setup(struct record_opts *o)
{
	static char first[4096];

	if (!(o->loop > 0)) {
		if (o->keep) {
			fprintf(stderr, "perfjava: --keep goes with --loop\n");
			return -1;
		}
		return 0;
	}
	if (!o->output_set)
		o->output = "perfjava-%t.data";
	if (!strstr(o->output, "%t")) {
		fprintf(stderr,
			"perfjava: --loop writes one file per interval: put "
			"%%t (its time) in -o, e.g. -o 'app-%%t.data'\n");
		return -1;
	}
	o->output_template = o->output;
	loop_file_name(o->output_template, first, sizeof(first));
	o->output = first;
	return 0;
}

static void remember(struct recorder *rec, struct loop *l, const char *path)
{
	char **v = realloc(l->done, (l->ndone + 1) * sizeof(*v));
	char *copy = strdup(path);

	if (!v || !copy) {
		free(copy);
		if (v)
			l->done = v;
		return;
	}
	l->done = v;
	v[l->ndone++] = copy;
	while (rec->o.keep && l->ndone >= rec->o.keep) { /* + the next */
		outfile_remove(l->done[0]); /* only a file of ours */
		free(l->done[0]);
		memmove(l->done, l->done + 1, --l->ndone * sizeof(*l->done));
	}
}

/*
 * A new file (w) starts: frame ids are the file's, so every cache of them
 * starts again, and so do the counts; then what the file says of itself.
 */
static void new_file(struct recorder *rec, struct pj_writer *w, uint64_t now)
{
	rec->w = w;
	emit_new_file(&rec->em, w);
	wall_forget(rec->wall);
	decode_new_file(&rec->dec);
	cpuwalk_new_file(&rec->cw);
	rec->lost = 0;
	recorder_header(rec);
	machine_new_file(rec);
	recorder_mark_start(rec, now);
	header_describe_events(w, rec->evs, rec->nevents);
	ksymbolizer_write_meta(&rec->ksym);
	header_threads(w, &rec->th);
}

int loop_tick(struct recorder *rec, uint64_t now)
{
	struct loop *l = rec->loop;
	char err[512];
	struct pj_writer *w;

	if (!rec->o.loop)
		return 0;
	if (!l) {
		l = rec->loop = calloc(1, sizeof(*l));
		if (!l)
			return 0;
		l->next = rec->start_ns + (uint64_t)(rec->o.loop * 1e9);
		snprintf(l->cur, sizeof(l->cur), "%s", rec->o.output);
	}
	if (now < l->next)
		return 0;
	l->next += (uint64_t)(rec->o.loop * 1e9);
	if (l->next <= now)
		l->next = now + (uint64_t)(rec->o.loop * 1e9);
	recorder_finish_waits(rec);
	now = now_ns();
	rec->end_ns = now;
	wall_tick(rec->wall,
		  now); /* a wait that goes on is cut at the switch */
	emit_java_names(&rec->em, &rec->th);
	switchcost_take(&rec->sc, &rec->th, true);
	record_write_stats(rec);
	switchcost_next_file(&rec->sc);
	if (pj_writer_close(rec->w)) {
		rec->w = rec->em.w = NULL;
		fprintf(stderr, "\nperfjava: cannot write %s: %s; stopping\n",
			l->cur, strerror(errno));
		return -1;
	}
	rec->w = rec->em.w = NULL;
	if (!rec->o.quiet)
		fprintf(stderr, "perfjava: wrote %s (%llu samples)\n", l->cur,
			(unsigned long long)rec->em.st.samples);
	remember(rec, l, l->cur);
	loop_file_name(rec->o.output_template, l->cur, sizeof(l->cur));
	w = pj_writer_open(l->cur, err, sizeof(err));
	if (w && pj_writer_commit(w, err, sizeof(err))) {
		pj_writer_abort(w);
		w = NULL;
	}
	if (!w) {
		fprintf(stderr, "perfjava: %s; stopping\n", err);
		return -1;
	}
	rec->o.output = l->cur;
	new_file(rec, w, now);
	return 0;
}

void loop_free(struct recorder *rec)
{
	struct loop *l = rec->loop;

	if (!l)
		return;
	for (unsigned int i = 0; i < l->ndone; i++)
		free(l->done[i]);
	free(l->done);
	free(l);
	rec->loop = NULL;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * `perfjava top`: the hottest frames of the last seconds, refreshed every
 * second. It records as `perfjava record` does (record/record.h: the same
 * start, stages and stop), into a writer of no file whose tap fills the
 * window (top/window.h); the poll loop calls the view between its drains
 * (record/run.h's hook): keys, stderr, the terminal's size, the refresh.
 * On a terminal, a full-screen view (top/term.h gives the terminal back on
 * every way out); otherwise a table on stdout every refresh, or once at
 * the end of -d.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "lib/clock.h"
#include "pipeline/wall.h"
#include "record/options.h"
#include "record/record.h"
#include "record/recorder.h"
#include "record/run.h"
#include "top/term.h"
#include "top/top.h"
#include "top/view.h"

#define TOP_REFRESH_NS 1000000000ULL
#define TOP_WINDOW_S 5.0
#define TOP_ROWS 25
/* record's options that top takes (the letters of record_opt): targets,
 * events, rates, call graph, -d, -m, --no-java, --native-base, --agent */
#define TOP_RECORD_OPTS "ptaCeFcgdmJNA"

struct top {
	struct recorder *rec;
	struct window win;
	struct view view;
	struct term term;
	struct run_hook hook;
	bool tty; /* the full-screen view; else tables on stdout */
	bool once; /* tables: one at the end (-d) */
	unsigned int rows; /* tables: frames each */
	uint64_t next; /* the next refresh */
	uint64_t cpu, cpu_at; /* perfjava's CPU ns then, and when */
};

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "usage: perfjava top -p PID[,PID...] | -t TID[,TID...] | -a | -C CPU[,CPU...]\n"
	    "                    [-e EVENT] [-F HZ | -c PERIOD] [-g MODE] [-w SECONDS]\n"
	    "                    [-d SECONDS] [--sort self|total] [-n ROWS] [--no-java]\n"
	    "  The hottest frames (Java, native, kernel) of the last seconds, by self\n"
	    "  and by total share, refreshed every second; recorded as perfjava record\n"
	    "  records (see perfjava record --help for -p -t -a -C -e -F -c -g -m\n"
	    "  --no-java --native-base), written to no file.\n"
	    "  -w SECONDS  the window the shares are of (default 5)\n"
	    "  -d SECONDS  stop after this long (when stdout is no terminal: one\n"
	    "              table at the end instead of one every second)\n"
	    "  --sort self|total  the order of the frames (default self)\n"
	    "  -n ROWS     frames in each table when stdout is no terminal (25)\n"
	    "  keys: q quit, p pause, s self/total, t threads (processes at -a),\n"
	    "        / filter, Enter open a frame into its callers (Right, Left),\n"
	    "        Esc all again, arrows PgUp PgDn Home End move, ? help\n");
}

/* A record option top takes, or one of its own: 0, -1 after a message. */
static int top_opt(struct top *t, struct record_opts *o, int c, const char *arg,
		   double *window)
{
	char *end;

	switch (c) {
	case 'w':
		*window = strtod(arg, &end);
		if (*end || end == arg || !(*window >= 0.1) || *window > 3600) {
			fprintf(stderr,
				"perfjava: -w wants seconds (0.1 to 3600), "
				"not '%s'\n",
				arg);
			return -1;
		}
		return 0;
	case 'n':
		t->rows = (unsigned int)strtoul(arg, &end, 10);
		if (*end || end == arg || !t->rows || t->rows > 100000) {
			fprintf(stderr, "perfjava: -n wants rows, not '%s'\n",
				arg);
			return -1;
		}
		return 0;
	case 'S':
		if (strcmp(arg, "self") && strcmp(arg, "total")) {
			fprintf(stderr,
				"perfjava: --sort self or --sort total, not "
				"'%s'\n",
				arg);
			return -1;
		}
		t->view.by_total = !strcmp(arg, "total");
		return 0;
	default:
		return record_opt(o, c, arg) ? -1 : 0;
	}
}

/* Events whose samples are waits (offcpu, wall) are not top's. */
static int check_events(const struct record_opts *o)
{
	bool offcpu[64] = { 0 };
	char out[4096];

	if (!o->events)
		return 0;
	if (wall_expand(o->events, out, sizeof(out), offcpu, 64)) {
		fprintf(stderr, "perfjava: event list too long\n");
		return -1;
	}
	for (int i = 0; i < 64; i++)
		if (offcpu[i]) {
			fprintf(stderr,
				"perfjava: top shows samples on CPU; time off "
				"CPU (offcpu, wall) is perfjava record -e "
				"%s's, then perfjava report\n",
				strstr(o->events, "wall") ? "wall" : "offcpu");
			return -1;
		}
	return 0;
}

/* record's long options that top takes, then its own, into lo (max). */
static void long_options(struct option *lo, size_t max)
{
	static const struct option own[] = {
		{ "window", required_argument, NULL, 'w' },
		{ "rows", required_argument, NULL, 'n' },
		{ "sort", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
	};
	size_t n = 0;

	for (const struct option *o = record_long_options; o->name; o++)
		if (strchr(TOP_RECORD_OPTS, o->val) && n + 1 < max)
			lo[n++] = *o;
	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]) && n + 1 < max;)
		lo[n++] = own[i++];
	lo[n] = (struct option){ 0 };
}

static int parse(int argc, char **argv, struct top *t, struct record_opts *o,
		 double *window)
{
	struct option lo[32];
	int c;

	long_options(lo, sizeof(lo) / sizeof(lo[0]));
	record_opts_init(o);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:p:t:aC:e:F:c:g:d:m:w:n:h", lo,
				NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			exit(0);
		}
		if (c == ':' || c == '?') {
			fprintf(stderr,
				"perfjava top: %s '%s'; perfjava top --help "
				"lists them\n",
				c == ':' ? "this option needs a value"
					 : "unknown option",
				argv[optind - 1]);
			return -1;
		}
		if (top_opt(t, o, c, optarg, window))
			return -1;
	}
	if (optind < argc) {
		fprintf(stderr,
			"perfjava top: '%s' is no option; a command is "
			"profiled from its start by perfjava record -- CMD\n",
			argv[optind]);
		return -1;
	}
	o->output = NULL; /* no file: the window takes what it would */
	return record_opts_check(o, "top") || check_events(o) ? -1 : 0;
}

/* perfjava's own CPU time, ns. */
static uint64_t own_cpu(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) *
		   1000000000ULL +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ULL;
}

static void describe_target(const struct top *t, char *buf, size_t len)
{
	const struct record_opts *o = &t->rec->o;
	const struct wname *n = o->pids.n == 1 && !o->tids.n
				    ? window_proc(&t->win, (uint32_t)o->pid)
				    : NULL;
	char ids[256];

	if (o->system_wide && o->cpus.n) {
		idlist_print(&o->cpus, ids, sizeof(ids));
		snprintf(buf, len, "every process on CPUs %s", ids);
	} else if (o->system_wide) {
		snprintf(buf, len, "every process");
	} else if (o->tids.n) {
		idlist_print(&o->tids, ids, sizeof(ids));
		snprintf(buf, len, "thread%s %s", o->tids.n > 1 ? "s" : "",
			 ids);
	} else if (n) {
		snprintf(buf, len, "pid %d: %s", o->pid,
			 *n->cmdline ? n->cmdline : n->name);
	} else {
		idlist_print(&o->pids, ids, sizeof(ids));
		snprintf(buf, len, "pid%s %s", o->pids.n > 1 ? "s" : "", ids);
	}
}

static void describe(struct top *t, struct view_info *in, uint64_t now)
{
	const struct recorder *rec = t->rec;
	const struct pj_event *ev = &rec->evs[0];
	unsigned int jvms = 0, cpus = 0;
	uint64_t cpu = own_cpu();
	int at;

	describe_target(t, in->target, sizeof(in->target));
	if (ev->freq)
		at = snprintf(in->event, sizeof(in->event), "%s at %llu Hz",
			      ev->name, (unsigned long long)ev->freq);
	else if (event_is_clock(ev) && ev->period % 1000000 == 0)
		at = snprintf(in->event, sizeof(in->event), "%s every %llu ms",
			      ev->name,
			      (unsigned long long)(ev->period / 1000000));
	else
		at = snprintf(in->event, sizeof(in->event), "%s every %llu%s",
			      ev->name, (unsigned long long)ev->period,
			      event_is_clock(ev) ? " ns" : "");
	if (rec->nevents > 1 && at > 0 && (size_t)at < sizeof(in->event))
		snprintf(in->event + at, sizeof(in->event) - (size_t)at,
			 " (the first of %u events)", rec->nevents);
	for (unsigned int i = 0; i < rec->procs.n; i++)
		jvms += rec->procs.v[i]->agent != NULL;
	for (unsigned int i = 0; i < rec->th.n; i++)
		cpus += ring_is_cpu(rec->th.v[i]);
	at = snprintf(in->rings, sizeof(in->rings), "%u %s%s",
		      cpus ? cpus : rec->th.n, cpus ? "CPU" : "thread",
		      (cpus ? cpus : rec->th.n) == 1 ? "" : "s");
	if (at > 0 && (size_t)at < sizeof(in->rings))
		snprintf(in->rings + at, sizeof(in->rings) - (size_t)at,
			 jvms ? ", Java frames from %u JVM%s"
			      : ", no Java frames",
			 jvms, jvms == 1 ? "" : "s");
	in->lost = rec->lost;
	in->cpu =
	    now > t->cpu_at && t->cpu_at
		? 100.0 * (double)(cpu - t->cpu) / (double)(now - t->cpu_at)
		: 0;
	t->cpu = cpu;
	t->cpu_at = now;
}

static void refresh(struct top *t, uint64_t now)
{
	struct view_info in;

	describe(t, &in, now);
	window_expire(&t->win, now);
	view_refresh(&t->view, &in);
}

/* Between the poll loop's drains: keys, stderr, a new size, the time to
 * refresh (record/run.h). */
static void on_hook(void *ctx, unsigned int ready, uint64_t now)
{
	struct top *t = ctx;
	char line[512];
	int keys[64], n = 0;

	if (ready & 1)
		n = term_keys(&t->term, keys, 64);
	for (int i = 0; i < n && !t->view.quit; i++)
		view_key(&t->view, keys[i]);
	if (ready & 2) {
		term_stderr(&t->term, line, sizeof(line));
		view_message(&t->view, line, now);
	}
	if (ready & 4)
		term_size(&t->term);
	if (now >= t->next) {
		refresh(t, now);
		t->next = now + TOP_REFRESH_NS;
	}
	t->hook.due = t->next;
	if (n < 0 || t->view.quit) {
		t->rec->stop = true;
		t->rec->stop_reason = n < 0 ? "terminal gone" : "quit";
		return;
	}
	view_draw(&t->view, &t->term, now);
}

/* Without a terminal: a table every refresh (none before the end with
 * -d), until stdout goes. */
static void on_tick(void *ctx, unsigned int ready, uint64_t now)
{
	struct top *t = ctx;

	refresh(t, now);
	view_text(&t->view, stdout, t->rows);
	t->next = now + TOP_REFRESH_NS;
	t->hook.due = t->next;
	if (ferror(stdout)) {
		t->rec->stop = true;
		t->rec->stop_reason = "stdout closed";
	}
}

static void hook_up(struct top *t)
{
	uint64_t now = now_ns();

	t->hook = (struct run_hook){ .fd = { -1, -1, -1 },
				     .due = t->once ? UINT64_MAX
						    : now + TOP_REFRESH_NS,
				     .call = t->tty ? on_hook : on_tick,
				     .ctx = t };
	t->next = t->hook.due;
	t->cpu = own_cpu();
	t->cpu_at = now;
	if (t->tty) {
		t->hook.fd[0] = t->term.in;
		t->hook.fd[1] = t->term.errpipe;
		t->hook.fd[2] = t->term.winch;
		t->hook.due = now; /* the first screen at once */
	}
	t->rec->hook = &t->hook;
}

/* Why the view went, unless a person asked (q, Ctrl-C, -d). */
static void say_stop(const struct recorder *rec)
{
	static const char *const asked[] = { "quit", "duration reached",
					     "Interrupt", "stdout closed" };
	const char *why = rec->stop_reason ? rec->stop_reason : "";

	for (size_t i = 0; i < sizeof(asked) / sizeof(asked[0]); i++)
		if (!strcmp(why, asked[i]))
			return;
	fprintf(stderr, "perfjava: top stopped: %s\n", *why ? why : "?");
}

static int run(struct top *t, struct record_opts *o)
{
	int ret;

	ret = record_start(t->rec, o);
	if (ret)
		return ret;
	t->win.w = t->rec->w;
	if (t->tty && term_open(&t->term, STDIN_FILENO, STDOUT_FILENO))
		t->tty = false; /* said why: tables instead */
	hook_up(t);
	run_loop(t->rec, t->rec->sigfd);
	if (t->tty)
		term_close(&t->term);
	else if (t->once)
		on_tick(t, 0, now_ns());
	say_stop(t->rec);
	record_stop(t->rec); /* the targets as they were */
	record_free(t->rec);
	return 0;
}

int cmd_top(int argc, char **argv)
{
	struct top *t = calloc(1, sizeof(*t));
	struct record_opts o;
	double window = TOP_WINDOW_S;
	int ret = 2;

	if (!t || !(t->rec = malloc(sizeof(*t->rec)))) {
		free(t);
		return 1;
	}
	t->rows = TOP_ROWS;
	if (parse(argc, argv, t, &o, &window))
		goto out;
	window_init(&t->win, (uint64_t)(window * 1e9), 0);
	o.tap = &t->win.tap;
	t->tty = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	t->once = !t->tty && o.duration > 0;
	view_init(&t->view, &t->win, o.system_wide, t->view.by_total);
	ret = run(t, &o);
	view_free(&t->view);
	window_free(&t->win);
out:
	record_opts_free(&o);
	free(t->rec);
	free(t);
	return ret;
}

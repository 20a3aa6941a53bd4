// SPDX-License-Identifier: GPL-2.0
/*
 * The summary at the top of the text report: when and where the recording
 * was made, its target, its event(s) with their sample counts, and how good
 * the Java stacks were (walks, markers by reason, walk delay, agreement with
 * the sampled JIT code). With --meta, every metadata and statistics entry of
 * the file as recorded (raw numbers, for scripts).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "profile/javaloss.h"
#include "report/header.h"

#define KEY "%-20s: "
#define CMDLINE_MAX 100 /* the command line is shortened beyond this */

/* Meta keys the summary shows in its own words. */
static const char *const shown[] = { "pid",
				     "comm",
				     "cmdline",
				     "hostname",
				     "kernel",
				     "start_ns",
				     "event",
				     "callgraph",
				     "java",
				     "perfjava",
				     "kernel_symbols",
				     "kernel_symbols_why",
				     "start_realtime",
				     "start_realtime_ns",
				     "system_wide",
				     "tids" };

static bool is_shown(const char *key)
{
	for (size_t i = 0; i < sizeof(shown) / sizeof(*shown); i++)
		if (!strcmp(key, shown[i]))
			return true;
	return false;
}

static const char *meta(const struct pj_profile *p, const char *key)
{
	const char *v = pj_profile_meta(p, key);

	return v ? v : "";
}

void report_put_line(FILE *out, const char *s, size_t max)
{
	size_t n = 0;

	for (; *s && n < max; s++, n++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, out);
	if (*s)
		fputs("...", out);
}

/* A target of a file: a process named by its command (-p, -t, CMD). */
struct target {
	uint32_t pid;
	const char *comm, *cmdline;
};

#define TARGETS_MAX 64 /* Target lines per file, at most */

/* The targets of p: its PROCESSES entries flagged so, or the META pid of
 * an older file. */
static unsigned int targets_of(const struct pj_profile *p, struct target *t)
{
	unsigned int n = 0;

	for (uint32_t i = 0; i < p->nprocs && n < TARGETS_MAX; i++)
		if (p->procs[i].flags & PJ_PROC_F_TARGET)
			t[n++] =
			    (struct target){ p->procs[i].pid,
					     pj_str(p, p->procs[i].comm),
					     pj_str(p, p->procs[i].cmdline) };
	if (!n && *meta(p, "pid") && !p->nprocs)
		t[n++] = (struct target){ (uint32_t)strtoul(meta(p, "pid"),
							    NULL, 10),
					  meta(p, "comm"), meta(p, "cmdline") };
	return n;
}

/* "Target: pid 10 (java): java App" */
static void target(FILE *out, const struct target *t)
{
	fprintf(out, KEY "pid %u", "Target", t->pid);
	if (*t->comm) {
		fputs(" (", out);
		report_put_line(out, t->comm, 16);
		fputs(")", out);
	}
	if (*t->cmdline) {
		fputs(": ", out);
		report_put_line(out, t->cmdline, CMDLINE_MAX);
	}
	fputc('\n', out);
}

/* Whether file i recorded target t (or, t NULL, the same value of meta
 * key: the CPUs of -a, the threads of -t) and no earlier one did (a --loop
 * series is one recording). */
static bool new_target(const struct report *r, unsigned int i,
		       const struct target *t, const char *key)
{
	const char *v = key ? meta(r->nfiles ? r->files[i] : r->p, key) : "";
	struct target seen[TARGETS_MAX];

	if (key && !*v)
		return false;
	for (unsigned int j = 0; j < i; j++) {
		unsigned int n = t ? targets_of(r->files[j], seen) : 0;

		if (key && !strcmp(v, meta(r->files[j], key)))
			return false;
		for (unsigned int k = 0; k < n; k++)
			if (seen[k].pid == t->pid &&
			    !strcmp(seen[k].cmdline, t->cmdline))
				return false;
	}
	return true;
}

/* One line per target of the inputs: each process named, or the CPUs of
 * a system-wide recording (-a, -C); the threads of -t. */
static void targets(FILE *out, const struct report *r)
{
	struct target t[TARGETS_MAX];

	for (unsigned int i = 0; i < (r->nfiles ? r->nfiles : 1); i++) {
		const struct pj_profile *f = r->nfiles ? r->files[i] : r->p;
		unsigned int n = targets_of(f, t);

		if (new_target(r, i, NULL, "system_wide")) {
			fprintf(out, KEY "every process, ", "Target");
			report_put_line(out, meta(f, "system_wide"), 100);
			fputc('\n', out);
		}
		if (new_target(r, i, NULL, "tids")) {
			fprintf(out, KEY "threads ", "Target");
			report_put_line(out, meta(f, "tids"), CMDLINE_MAX);
			fputc('\n', out);
		}
		for (unsigned int k = 0; k < n; k++)
			if (new_target(r, i, &t[k], NULL))
				target(out, &t[k]);
	}
	if (r->p->npids > 1)
		fprintf(out, KEY "%u\n", "Processes", r->p->npids);
}

static void recorded(FILE *out, const struct pj_profile *p,
		     const struct report *r)
{
	const char *rt = meta(p, "start_realtime"), *host = meta(p, "hostname");
	uint64_t dur =
	    pj_profile_stat(p, "duration_ns", r->last_time - r->first_time);
	time_t t = (time_t)strtoull(rt, NULL, 10);
	struct tm tm;
	char when[64] = "";

	if (*rt && gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	if (*when || *host) {
		fprintf(out, KEY "%s%s", "Recorded", when,
			*when && *host ? " " : "");
		if (*host) {
			fputs("on ", out);
			report_put_line(out, host, 64);
			if (*meta(p, "kernel")) {
				fputs(" (kernel ", out);
				report_put_line(out, meta(p, "kernel"), 64);
				fputs(")", out);
			}
		}
		fputc('\n', out);
	}
	fprintf(out, KEY "%.3f s\n", "Duration", (double)dur / 1e9);
	targets(out, r);
}

/* How often ev was sampled: " at 99 Hz", " every 250 us", " every 10
 * events" (-F, and -c in its unit for the event). */
static void rate(FILE *out, const struct pj_event_desc *ev)
{
	static const struct {
		uint64_t ns;
		const char *unit;
	} t[] = { { 1000000000, "s" }, { 1000000, "ms" }, { 1000, "us" } };
	size_t i = 0;

	if (ev->freq) {
		fprintf(out, " at %llu Hz", (unsigned long long)ev->freq);
		return;
	}
	if (!ev->period)
		return;
	if (!strcmp(ev->unit, "bytes")) { /* -e alloc */
		fprintf(out, " every %llu bytes",
			(unsigned long long)ev->period);
		return;
	}
	if (strcmp(ev->unit, "ns")) {
		if (ev->period == 1)
			fprintf(out, " every event");
		else
			fprintf(out, " every %llu events",
				(unsigned long long)ev->period);
		return;
	}
	while (i < sizeof(t) / sizeof(t[0]) && ev->period % t[i].ns)
		i++;
	if (i < sizeof(t) / sizeof(t[0]))
		fprintf(out, " every %llu %s",
			(unsigned long long)(ev->period / t[i].ns), t[i].unit);
	else
		fprintf(out, " every %llu ns", (unsigned long long)ev->period);
}

/* Samples per event in the whole file, indexed by p->events order. */
static void events(FILE *out, const struct pj_profile *p,
		   const struct report *r)
{
	uint64_t *n;

	if (r->all_events)
		fprintf(out,
			KEY "wall: on-CPU and off-CPU time (pick one "
			    "with --event)\n",
			"Event");
	else if (r->event && !strcmp(r->event->name, "offcpu"))
		fprintf(out,
			KEY "offcpu: time off CPU, each wait weighted by its "
			    "length\n",
			"Event");
	else if (r->event) {
		fprintf(out, KEY "%s", "Event", r->event->name);
		rate(out, r->event);
		fputc('\n', out);
	} else
		fprintf(out, KEY "(not recorded)\n", "Event");
	if (p->nevents < 2)
		return;
	n = calloc(p->nevents, sizeof(*n));
	if (!n)
		return;
	for (size_t i = 0; i < p->nsamples; i++) {
		const struct pj_event_desc *e =
		    pj_profile_event(p, p->samples[i].event);

		if (e) /* a JFR batch counts its samples */
			n[e - p->events] +=
			    p->samples[i].batch > 1 ? p->samples[i].batch : 1;
	}
	fprintf(out, KEY, "Recorded events");
	for (uint32_t e = 0; e < p->nevents; e++)
		fprintf(out, "%s%s %llu sample%s", e ? ", " : "",
			p->events[e].name, (unsigned long long)n[e],
			n[e] == 1 ? "" : "s");
	fprintf(out, " (pick one with --event)\n");
	free(n);
}

static void java(FILE *out, const struct pj_profile *p)
{
	static const struct {
		const char *key, *reason;
	} markers[] = {
		{ "walk_not_walkable", "not walkable" },
		{ "walk_timeout", "timeout" },
		{ "walk_fault", "fault" },
		{ "walk_gone", "thread gone" },
		{ "walk_lost", "lost" },
		{ "walk_no_answer", "no answer" },
	};
	uint64_t ok = pj_profile_stat(p, "walk_ok", UINT64_MAX);
	uint64_t checked = pj_profile_stat(p, "walk_checked", 0);
	uint64_t p50 = pj_profile_stat(p, "walk_p50_ns", 0);
	bool any = false;

	if (*meta(p, "java_error")) {
		fprintf(out, KEY "unavailable: ", "Java stacks");
		report_put_line(out, meta(p, "java_error"), 200);
		fputc('\n', out);
		return;
	}
	if (ok == UINT64_MAX)
		return;
	fprintf(out, KEY "%llu walked", "Java stacks", (unsigned long long)ok);
	for (size_t i = 0; i < sizeof(markers) / sizeof(*markers); i++) {
		uint64_t v = pj_profile_stat(p, markers[i].key, 0);

		if (!v)
			continue;
		fprintf(out, "%s %llu %s",
			any ? "," : "; markers:", (unsigned long long)v,
			markers[i].reason);
		any = true;
	}
	if (p50)
		fprintf(out, "; walk delay median %.0f us, p99 %.0f us",
			p50 / 1e3, pj_profile_stat(p, "walk_p99_ns", 0) / 1e3);
	if (checked)
		fprintf(out,
			"; %.1f%% of %llu checked walks name the JIT "
			"code sampled",
			100.0 * pj_profile_stat(p, "walk_agreed", 0) / checked,
			(unsigned long long)checked);
	fputc('\n', out);
}

/* More than a tenth of the Java threads' samples without their Java
 * frames: the recorder's warning, from the file's statistics. */
static void java_warning(FILE *out, const struct pj_profile *p)
{
	struct pj_java_loss l;
	char line[768];

	if (*meta(p, "java_error"))
		return;
	pj_java_loss_from(p, &l);
	if (pj_java_loss_line(&l, line, sizeof(line)))
		fprintf(out, KEY "%s\n", "Java warning", line);
}

void report_header(FILE *out, const struct report *r)
{
	const struct pj_profile *p = r->p;

	fprintf(out, "--- perfjava profile ---\n");
	recorded(out, p, r);
	events(out, p, r);
	fprintf(out, KEY "%llu\n", "Samples",
		(unsigned long long)r->total_samples);
	fprintf(out, KEY "%llu %s\n", "Total",
		(unsigned long long)r->total_weight, r->unit);
	fprintf(out, KEY "%llu\n", "Lost samples",
		(unsigned long long)pj_profile_stat(p, "lost", 0));
	fprintf(out, KEY "%u\n", "Threads", r->nthreads);
	java(out, p);
	java_warning(out, p);
	if (*meta(p, "kernel_symbols")) {
		/* the source; unless kallsyms, why (kernel frames ...) */
		fprintf(out, KEY, "Kernel symbols");
		report_put_line(out, meta(p, "kernel_symbols"), 40);
		if (*meta(p, "kernel_symbols_why")) {
			fputs(": kernel frames ", out);
			report_put_line(out, meta(p, "kernel_symbols_why"),
					400);
		}
		fputc('\n', out);
	}
	if (*meta(p, "callgraph"))
		fprintf(out, KEY "%s\n", "Call graph", meta(p, "callgraph"));
	for (uint32_t i = 0; i < p->nmeta; i++) {
		if (is_shown(p->meta[i].key) ||
		    !strcmp(p->meta[i].key, "java_error"))
			continue;
		fprintf(out, KEY, p->meta[i].key);
		report_put_line(out, p->meta[i].value, 200);
		fputc('\n', out);
	}
	if (p->truncated || !p->finished)
		fprintf(out, KEY "%s\n", "Note",
			p->truncated ? "file is truncated"
				     : "recording did not finish");
	fprintf(out, "\n");
}

int report_meta(FILE *out, const struct report *r)
{
	const struct pj_profile *p = r->p;

	for (uint32_t i = 0; i < p->nmeta; i++) {
		fprintf(out, "meta %s ", p->meta[i].key);
		report_put_line(out, p->meta[i].value, 4096);
		fputc('\n', out);
	}
	for (uint32_t i = 0; i < p->nstats; i++)
		fprintf(out, "stat %s %llu\n", p->stats[i].key,
			(unsigned long long)p->stats[i].num);
	return 0;
}

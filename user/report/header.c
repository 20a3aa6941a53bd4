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

#include "report/report.h"

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
				     "start_realtime_ns" };

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

/* Prints s on one line, control characters replaced, at most max bytes. */
static void put_line(FILE *out, const char *s, size_t max)
{
	size_t n = 0;

	for (; *s && n < max; s++, n++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, out);
	if (*s)
		fputs("...", out);
}

/* "Target: pid 10 (java): java App", one line per target of the inputs. */
static void target(FILE *out, const struct pj_profile *p)
{
	if (!*meta(p, "pid"))
		return;
	fprintf(out, KEY "pid ", "Target");
	put_line(out, meta(p, "pid"), 16);
	if (*meta(p, "comm")) {
		fputs(" (", out);
		put_line(out, meta(p, "comm"), 16);
		fputs(")", out);
	}
	if (*meta(p, "cmdline")) {
		fputs(": ", out);
		put_line(out, meta(p, "cmdline"), CMDLINE_MAX);
	}
	fputc('\n', out);
}

/* Whether input i recorded a target no earlier input did (a --loop
 * series is one). */
static bool new_target(const struct report *r, unsigned int i)
{
	const char *pid, *cmd;

	if (!i)
		return true;
	pid = meta(r->files[i], "pid");
	cmd = meta(r->files[i], "cmdline");
	for (unsigned int j = 0; j < i; j++)
		if (!strcmp(pid, meta(r->files[j], "pid")) &&
		    !strcmp(cmd, meta(r->files[j], "cmdline")))
			return false;
	return true;
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
			put_line(out, host, 64);
			if (*meta(p, "kernel")) {
				fputs(" (kernel ", out);
				put_line(out, meta(p, "kernel"), 64);
				fputs(")", out);
			}
		}
		fputc('\n', out);
	}
	fprintf(out, KEY "%.3f s\n", "Duration", (double)dur / 1e9);
	for (unsigned int i = 0; i < (r->nfiles ? r->nfiles : 1); i++)
		if (new_target(r, i))
			target(out, i ? r->files[i] : p);
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
	for (size_t i = 0; i < p->nsamples; i++)
		for (uint32_t e = 0; e < p->nevents; e++)
			if (p->events[e].index == p->samples[i].event) {
				n[e]++;
				break;
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
		put_line(out, meta(p, "java_error"), 200);
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
	if (*meta(p, "kernel_symbols")) {
		/* the source; unless kallsyms, why (kernel frames ...) */
		fprintf(out, KEY, "Kernel symbols");
		put_line(out, meta(p, "kernel_symbols"), 40);
		if (*meta(p, "kernel_symbols_why")) {
			fputs(": kernel frames ", out);
			put_line(out, meta(p, "kernel_symbols_why"), 400);
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
		put_line(out, p->meta[i].value, 200);
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
		put_line(out, p->meta[i].value, 4096);
		fputc('\n', out);
	}
	for (uint32_t i = 0; i < p->nstats; i++)
		fprintf(out, "stat %s %llu\n", p->stats[i].key,
			(unsigned long long)p->stats[i].num);
	return 0;
}

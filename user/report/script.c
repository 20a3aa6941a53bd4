// SPDX-License-Identifier: GPL-2.0
/*
 * `--format script`: every selected sample in time order, in the layout of
 * `perf script`, so that what reads perf's (FlameGraph's stackcollapse-perf.pl,
 * speedscope's and the Firefox Profiler's perf importers) reads this:
 *
 *   main 10/12 [003] 1.000000: 1000000 cpu-clock: <info, if any>
 *   	ffffffff81e3a2c4 native_safe_halt ([kernel.kallsyms])
 *   	    7f8b8c000a08 App.inner (/tmp/perf-10.map)
 *   	           1139 start_thread (/lib/libc.so.6)
 *   <empty line>
 *
 * Every event of the file is shown unless --event picks one; other filters
 * apply as in every format. Time is CLOCK_MONOTONIC in seconds (perf's
 * clock); frames leaf first (root first with --reverse), each with its
 * address and object as perf prints them: a native function's address in
 * its file (perf prints DSO-relative addresses; the recording keeps one
 * frame per function, so the function's start), kernel symbols in
 * [kernel.kallsyms] (a module's in [module]) at their kallsyms address,
 * Java and JVM code in /tmp/perf-PID.map as a perf map names JIT code (the
 * consumers mark those _[j], the kernel's _[k]), a nameless frame as
 * [unknown] in its file. Java frames from the agent's walks have no
 * address (0): the walk gives methods, not code addresses.
 */
#include <stdlib.h>
#include <string.h>

#include "report/filter.h"
#include "report/report.h"

#define NAME_LEN 4096

struct names {
	const struct report *r;
	char **of; /* frame id -> "name (object)" */
	uint32_t *pid; /* frame id -> the pid of its Java object */
	char *buf;
};

/* The sample's pid (its thread's in older files), else the target's. */
static uint32_t pid_of(const struct pj_profile *p, const struct pj_sample *s)
{
	const char *m;

	if (s->pid)
		return s->pid;
	m = pj_profile_meta(p, "pid");
	return m && s->tid ? (uint32_t)strtoul(m, NULL, 10) : 0;
}

static bool is_java(enum pj_frame_type t)
{
	return t == PJ_FRAME_JIT || t == PJ_FRAME_INLINED ||
	       t == PJ_FRAME_INTERPRETED || t == PJ_FRAME_C1 ||
	       t == PJ_FRAME_JAVA_NATIVE || t == PJ_FRAME_VM;
}

/* Where perf would say frame f lives, into obj. */
static void object(const struct pj_profile *p, const struct pj_frame *fr,
		   uint32_t pid, char *obj, size_t len)
{
	const char *m = pj_str(p, fr->module);

	if (fr->type == PJ_FRAME_KERNEL)
		snprintf(obj, len, *m && strcmp(m, "[kernel]") ? "[%s]" : "%s",
			 *m && strcmp(m, "[kernel]") ? m : "[kernel.kallsyms]");
	else if (is_java(fr->type))
		snprintf(obj, len, "/tmp/perf-%u.map", pid);
	else
		snprintf(obj, len, "%s", *m ? m : "[unknown]");
}

/*
 * Whether name ends like perf's symbol offset ("+0x1a"), which readers of
 * perf script strip: a function known only by its place in a stripped
 * library ("libz.so.1+0x5d80", sym/elf.c) is then printed with an offset
 * of its own, as perf prints every symbol, so that it stays whole.
 */
static bool ends_in_offset(const char *name)
{
	const char *plus = strrchr(name, '+');

	if (!plus || strncmp(plus, "+0x", 3) || !plus[3])
		return false;
	return strspn(plus + 3, "0123456789abcdef") == strlen(plus + 3);
}

/* "name (object)" of frame f, made once per frame (a Java frame's object
 * names its pid: kept for the first pid, made anew for another JVM's). */
static const char *frame_line(struct names *n, uint32_t f, uint32_t pid)
{
	const struct pj_profile *p = n->r->p;
	const struct pj_frame *fr;
	size_t len;

	if (f >= p->nframes) /* a label of the report's own */
		return report_frame_name(n->r, f, REPORT_BARE, n->buf,
					 NAME_LEN);
	fr = &p->frames[f];
	if (n->of[f] && (!is_java(fr->type) || n->pid[f] == pid))
		return n->of[f];
	if (*pj_str(p, fr->name) || fr->type == PJ_FRAME_KERNEL)
		report_frame_name(n->r, f, REPORT_BARE, n->buf, NAME_LEN);
	else /* perf's word; the consumers name it by its object */
		snprintf(n->buf, NAME_LEN, "[unknown]");
	len = strlen(n->buf);
	if (ends_in_offset(n->buf)) /* "libz.so.1+0x5d80": keep it whole */
		snprintf(n->buf + len, NAME_LEN - len, "+0x0");
	len = strlen(n->buf);
	snprintf(n->buf + len, NAME_LEN - len, " (");
	len = strlen(n->buf);
	object(p, fr, pid, n->buf + len, NAME_LEN - len - 1);
	len = strlen(n->buf);
	snprintf(n->buf + len, NAME_LEN - len, ")");
	if (n->of[f])
		return n->buf;
	n->pid[f] = pid;
	n->of[f] = strdup(n->buf);
	return n->of[f] ? n->of[f] : "[out of memory]";
}

static const struct pj_sample *by_time_base;

/* Time order as perf script's; file order among equal times. */
static int by_time(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint64_t tx = by_time_base[x].time, ty = by_time_base[y].time;

	if (tx != ty)
		return tx < ty ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void sample(FILE *out, struct names *n, const struct report *all,
		   const struct pj_sample *s)
{
	const struct pj_profile *p = all->p;
	const struct pj_event_desc *ev = all->event;
	uint32_t pid = pid_of(p, s), lo, hi;
	const char *tname = pj_profile_thread_name(p, pid, s->tid);

	if (!ev)
		ev = pj_profile_event(p, s->event);
	fprintf(out, "%s ", *tname ? tname : "-");
	if (pid)
		fprintf(out, "%u/", pid);
	fprintf(out, "%u [%03u] %llu.%06llu: %llu %s:", s->tid, s->cpu,
		(unsigned long long)(s->time / 1000000000),
		(unsigned long long)(s->time % 1000000000 / 1000),
		(unsigned long long)s->period, ev ? ev->name : "sample");
	if (s->info)
		fprintf(out, " %s", pj_str(p, s->info));
	putc('\n', out);
	lo = p->stack_start[s->stack];
	hi = p->stack_start[s->stack + 1];
	for (uint32_t j = lo; j < hi; j++) {
		uint32_t k = all->o->reverse ? hi - 1 - (j - lo) : j;
		uint32_t f = p->stack_frames[k];

		fprintf(out, "\t%16llx %s\n",
			(unsigned long long)(f < p->nframes ? p->frames[f].addr
							    : 0),
			frame_line(n, f, pid));
	}
	putc('\n', out);
}

int report_script(FILE *out, const struct report *r)
{
	const struct pj_profile *p = r->p;
	struct names n = { .r = r };
	struct report all = *r;
	uint32_t *order = NULL;
	size_t nsel = 0;
	int ret = -1;

	if (!r->o->event)
		all.event = NULL; /* a timeline shows every event */
	n.of = calloc(p->nframes ? p->nframes : 1, sizeof(*n.of));
	n.pid = calloc(p->nframes ? p->nframes : 1, sizeof(*n.pid));
	n.buf = malloc(NAME_LEN);
	order = malloc((p->nsamples ? p->nsamples : 1) * sizeof(*order));
	if (!n.of || !n.pid || !n.buf || !order)
		goto out;
	for (size_t i = 0; i < p->nsamples && i < UINT32_MAX; i++)
		if (report_sample_selected(&all, &p->samples[i]) &&
		    p->samples[i].stack < p->nstacks)
			order[nsel++] = (uint32_t)i;
	by_time_base = p->samples;
	qsort(order, nsel, sizeof(*order), by_time);
	for (size_t i = 0; i < nsel; i++)
		sample(out, &n, &all, &p->samples[order[i]]);
	ret = 0;
out:
	if (n.of)
		for (uint32_t f = 0; f < p->nframes; f++)
			free(n.of[f]);
	free(n.of);
	free(n.pid);
	free(n.buf);
	free(order);
	return ret;
}

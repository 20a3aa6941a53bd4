// SPDX-License-Identifier: GPL-2.0
/*
 * `--format script`: every selected sample in file order, in the layout of
 * `perf script`, for timeline tools and scripts:
 *
 *   main 10 [003] 1.000000: 1000000 cpu-clock: <info, if any>
 *   	0 App.inner (App.java)
 *   	0 start_thread (/lib/libc.so.6)
 *   <empty line>
 *
 * Every event of the file is shown unless --event picks one; other filters
 * apply as in every format.
 * Time is CLOCK_MONOTONIC in seconds (perf's clock); frames leaf first (root
 * first with --reverse), each with its module or source file. Addresses are
 * not stored in the profile, so the address column is 0.
 */
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

#define NAME_LEN 4096

struct names {
	const struct report *r;
	char **of; /* frame id -> "name (module)" */
	char *buf;
};

static const char *frame_line(struct names *n, uint32_t f)
{
	const struct pj_profile *p = n->r->p;
	const char *where = "", *m;
	char kmod[80];
	size_t len;

	if (n->of[f])
		return n->of[f];
	report_frame_name(n->r, f, REPORT_PLAIN, n->buf, NAME_LEN);
	if (f < p->nframes) {
		const struct pj_frame *fr = &p->frames[f];

		m = pj_str(p, fr->module);
		/* a kernel module's function in [module], as perf shows it */
		snprintf(kmod, sizeof(kmod), "[%s]",
			 *m ? m : "kernel.kallsyms");
		where = fr->type == PJ_FRAME_KERNEL ? kmod
			: *m			    ? m
			: *pj_str(p, fr->file)	    ? pj_str(p, fr->file)
						    : "[unknown]";
	}
	len = strlen(n->buf);
	snprintf(n->buf + len, NAME_LEN - len, " (%s)", where);
	n->of[f] = strdup(n->buf);
	return n->of[f] ? n->of[f] : "[out of memory]";
}

int report_script(FILE *out, const struct report *r)
{
	const struct pj_profile *p = r->p;
	struct names n = { .r = r };
	struct report all = *r;
	int ret = -1;

	if (!r->o->event)
		all.event = NULL; /* a timeline shows every event */
	n.of = calloc(p->nframes ? p->nframes : 1, sizeof(*n.of));
	n.buf = malloc(NAME_LEN);
	if (!n.of || !n.buf)
		goto out;
	for (size_t i = 0; i < p->nsamples; i++) {
		const struct pj_sample *s = &p->samples[i];
		const struct pj_event_desc *ev = all.event;
		const char *tname = pj_profile_thread_name(p, s->tid);
		uint32_t lo, hi;

		if (!report_sample_selected(&all, s) || s->stack >= p->nstacks)
			continue;
		for (uint32_t e = 0; !ev && e < p->nevents; e++)
			if (p->events[e].index == s->event)
				ev = &p->events[e];
		fprintf(
		    out,
		    "%s %u [%03u] %llu.%06llu: %llu %s:", *tname ? tname : "-",
		    s->tid, s->cpu, (unsigned long long)(s->time / 1000000000),
		    (unsigned long long)(s->time % 1000000000 / 1000),
		    (unsigned long long)s->period, ev ? ev->name : "sample");
		if (s->info)
			fprintf(out, " %s", pj_str(p, s->info));
		putc('\n', out);
		lo = p->stack_start[s->stack];
		hi = p->stack_start[s->stack + 1];
		for (uint32_t j = lo; j < hi; j++) {
			uint32_t k = r->o->reverse ? hi - 1 - (j - lo) : j;

			fprintf(out, "\t%16x %s\n", 0,
				frame_line(&n, p->stack_frames[k]));
		}
		putc('\n', out);
	}
	ret = 0;
out:
	if (n.of)
		for (uint32_t f = 0; f < p->nframes; f++)
			free(n.of[f]);
	free(n.of);
	free(n.buf);
	return ret;
}

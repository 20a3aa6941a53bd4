/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `perfjava report`: options, the filtered list of weighted unique stacks
 * every output format reads, and the formats themselves.
 *
 * report.c parses options, loads the profile, selects samples (filters go in
 * report_sample_selected()) and folds them into struct report_stack entries,
 * root first. A format is one function that writes a struct report to a FILE;
 * to add one, write report_<name>.c and list it in report.c's format table.
 * Frame ids below p->nframes are the file's frames; ids from p->nframes on
 * are labels the report made up (the thread root of --threads).
 */
#ifndef PJ_USER_REPORT_H
#define PJ_USER_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "profile.h"

int cmd_report(int argc, char **argv);

struct report_opts {
	const char *input; /* default perfjava.data */
	const char *output; /* NULL = stdout */
	const char *format; /* "text", "collapsed" */
	const char *event; /* NULL = the file's first event */
	unsigned int top; /* stacks / rows in text output */
	bool threads; /* thread as root frame */
	bool lines; /* name:line */
	bool total; /* collapsed counts are weights, not samples */
};

/* One unique stack after filtering. */
struct report_stack {
	const uint32_t *frames; /* root first; see report_frame_name() */
	uint32_t nframes;
	uint32_t tid; /* set with --threads */
	uint64_t weight; /* sum of periods, in r->unit */
	uint64_t samples;
};

struct report {
	const struct pj_profile *p;
	const struct report_opts *o;
	const struct pj_event_desc *event; /* NULL when the file names none */
	const char *unit; /* what weights count: "ns", "events", ... */
	struct report_stack *stacks; /* in order of first appearance */
	size_t nstacks;
	uint64_t total_weight, total_samples;
	uint64_t first_time, last_time; /* of the selected samples */
	uint32_t nthreads; /* distinct tids among the selected samples */
	char **labels; /* frame ids p->nframes + i */
	uint32_t nlabels;
	uint32_t *frame_pool; /* owns the stacks' frames */
};

/* Name styles of report_frame_name(). */
enum report_style {
	REPORT_PLAIN, /* text: kernel frames get _[k] */
	REPORT_FOLDED, /* collapsed: every async-profiler suffix, no ';' */
};

/*
 * The display name of frame id f in buf: the symbol (or "[module]" /
 * "[unknown]"), ":line" with --lines, and the suffix of the style. Control
 * characters are replaced so that a name is always one line.
 */
const char *report_frame_name(const struct report *r, uint32_t f,
			      enum report_style style, char *buf, size_t len);

int report_text(FILE *out, const struct report *r);
int report_collapsed(FILE *out, const struct report *r);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every part of `perfjava report` reads: its options, and the report
 * they make of the profile (the filtered list of weighted unique stacks,
 * root first), with the small accessors the formats share. report/report.c
 * builds it; report/report.h declares the formats that write it.
 */
#ifndef PJ_USER_REPORT_MODEL_H
#define PJ_USER_REPORT_MODEL_H

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>

#include "lib/u64map.h"
#include "profile/io.h"

#define REPORT_MAX_INPUTS 1024 /* files merged into one report */

struct report_opts {
	const char *input; /* default perfjava.data */
	const char *inputs[REPORT_MAX_INPUTS]; /* -i repeated, FILE... */
	unsigned int ninputs;
	const char *output; /* NULL = stdout */
	const char *format; /* "text", "collapsed", "flame", ... */
	const char *event; /* NULL = the file's first event */
	const char *diff; /* --diff OLD: the baseline profile */
	const char *title; /* flame graph / tree page title */
	unsigned int top; /* stacks / rows in text output */
	bool threads; /* thread as root frame */
	bool vmerge; /* --vthreads=merge: one root for virtual threads */
	bool processes; /* process as root frame (above the thread's) */
	bool lines; /* name:line */
	bool total; /* counts are weights (periods), not samples */
	bool reverse; /* stacks leaf first: callers of the leaves */
	bool inverted; /* flame graph drawn as an icicle */
	bool fold_tid; /* the format wants stacks per thread (pprof) */
	bool per_sample; /* the format wants each sample's stack (heatmap) */
	bool raw_names; /* lambda/hidden-class names as recorded */
	bool simple; /* Java class names without the package */
	bool signatures; /* Java signatures, C++ parameter lists kept */
	uint32_t *tids; /* --tid: only these threads */
	unsigned int ntids;
	uint32_t *pids; /* --pid: only these processes */
	unsigned int npids;
	regex_t *include, *exclude; /* stacks with / without such a frame */
	unsigned int ninclude, nexclude;
	double from, to; /* seconds from the start; to < 0: open */
	double minwidth; /* percent: narrower flame frames are dropped */
	unsigned int states; /* --state: bit i = state i (report_wall.c) */
	double column, row; /* --column, --row: heatmap cells, s; 0: chosen */
	/* The options that choose and name samples (-i, filters, names), as
	 * a shell takes them again: the heatmap's --from/--to command. */
	char *argline;
	size_t arglen;
};

/* One unique stack after filtering. */
struct report_stack {
	const uint32_t *frames; /* root first; see report_frame_name() */
	uint32_t nframes;
	uint32_t tid; /* set with --threads */
	uint32_t pid; /* set with --processes, --threads */
	uint64_t weight; /* sum of periods, in r->unit */
	uint64_t samples;
	uint64_t count; /* the occurrences they stand for (samples, or the
			   objects allocation samples estimate) */
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
	uint32_t nthreads; /* distinct threads among the selected samples */
	char **labels; /* frame ids p->nframes + i */
	uint32_t nlabels;
	uint32_t *frame_pool; /* owns the stacks' frames */
	uint64_t start_ns; /* time 0 of --from/--to */
	uint8_t *stack_ok; /* per stack id: passes --include/--exclude (with
			    * --threads: which of them its frames match) */
	struct report_tmatch *tmatch; /* --threads: the roots' matches */
	size_t ntmatch;
	const struct report *base; /* --diff: the baseline's report */
	struct pj_profile *const *files; /* every input; files[0] is p */
	unsigned int nfiles;
	bool all_events; /* --wall files: on-CPU and off-CPU samples */
	uint8_t *stack_state; /* per stack id, with --state */
	/* With o->per_sample: each sample's index in stacks, UINT32_MAX for
	 * one not selected. */
	uint32_t *sample_stack;
	/* --threads: the roots of virtual threads (REPORT_VKEY | index):
	 * each virtual thread on each carrier */
	struct report_vkey {
		uint64_t vthread;
		uint32_t tid;
	} * vkeys;
	size_t nvkeys, capvkeys;
	struct u64map vkey_of; /* (carrier, vthread) -> index */
};

/* A --threads root of a virtual thread (below it, its index in vkeys), or
 * of them all (--vthreads=merge). */
#define REPORT_VKEY 0x80000000u
#define REPORT_VMERGE 0xffffffffu

/* Whether id is one of ids[0..n) (--tid, --pid). */
static inline bool report_has_id(const uint32_t *ids, unsigned int n,
				 uint32_t id)
{
	for (unsigned int i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/* A time of the file in seconds from the start: what --from/--to compare. */
static inline double report_secs(const struct report *r, uint64_t time)
{
	return ((double)time - (double)r->start_ns) / 1e9;
}

/* The count a format shows for a stack: weight with --total, else samples. */
static inline uint64_t report_count(const struct report *r,
				    const struct report_stack *s)
{
	return r->o->total ? s->weight : s->samples;
}
static inline uint64_t report_total(const struct report *r)
{
	return r->o->total ? r->total_weight : r->total_samples;
}
/* The root frames a stack starts with: its process's with --processes,
 * then its thread's with --threads. */
static inline unsigned int report_nroots(const struct report *r)
{
	return (unsigned int)r->o->processes + (unsigned int)r->o->threads;
}
/* The leaf (innermost) frame of s, also with --reverse. */
static inline uint32_t report_leaf(const struct report *r,
				   const struct report_stack *s)
{
	unsigned int k = report_nroots(r);

	if (r->o->reverse)
		return s->frames[s->nframes > k ? k : s->nframes - 1];
	return s->frames[s->nframes - 1];
}
/* The file's frame type of id f; labels are PJ_FRAME_MARKER. */
static inline enum pj_frame_type report_frame_type(const struct report *r,
						   uint32_t f)
{
	return f < r->p->nframes ? (enum pj_frame_type)r->p->frames[f].type
				 : PJ_FRAME_MARKER;
}

#endif

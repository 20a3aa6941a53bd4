/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `perfjava report`: options, the filtered list of weighted unique stacks
 * every output format reads, and the formats themselves.
 *
 * report/report.c parses options, loads the profile, selects samples (filters go in
 * report_sample_selected()) and folds them into struct report_stack entries,
 * root first. A format is one function that writes a struct report to a FILE;
 * to add one, write report_<name>.c and list it in report/report.c's format table.
 * Frame ids below p->nframes are the file's frames; ids from p->nframes on
 * are labels the report made up (the thread root of --threads).
 */
#ifndef PJ_USER_REPORT_H
#define PJ_USER_REPORT_H

#include <regex.h>

#include "lib/u64map.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "profile/io.h"

int cmd_report(int argc, char **argv);

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

/* Parses argv into o (report/options.c). 0, 1 for --help, -1 after a message. */
int report_parse_opts(int argc, char **argv, struct report_opts *o);
void report_opts_free(struct report_opts *o);
const char *report_usage(void);
/* The format a -o file name implies (".html" -> "flame"), or NULL. */
const char *report_format_of(const char *path);

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

/* Off-CPU and wall-clock files (report/wallview.c). */
#define REPORT_NSTATES 7 /* running, sleep, io, lock, runnable, blocked, wait */
/* "sleep,io" -> bits; -1 for a name that is no state. */
int report_parse_states(const char *arg, unsigned int *mask);
/* Chooses the events and weights of an offcpu/wall file, and the states
 * of --state; 0, -1 for --event wall without offcpu, -2 out of memory,
 * -3 for --state without offcpu. */
int report_wall_setup(struct report *r, struct report_opts *o);
/* A page's title: what, and the event ("Flame graph (cpu-clock)"). */
void report_title(const struct report *r, const char *what, char *buf,
		  size_t len);
bool report_state_selected(const struct report *r, const struct pj_sample *s);
/* The state of stack st (0 running, ...): its leaf "[off-cpu: X]" frame. */
uint8_t report_stack_state(const struct pj_profile *p, uint32_t st);

/* Root labels of one kind: their sorted keys, the first label's id. */
struct report_roots {
	uint64_t *keys; /* pid, or pid << 32 | tid */
	size_t n;
	uint32_t first;
};

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

/* Whether sample s passes every filter (event, pid, tid, time, regex). */
bool report_sample_selected(const struct report *r, const struct pj_sample *s);
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
/* Computes r->stack_ok from the regexes (report/filter.c); -1 on ENOMEM. */
int report_filter_stacks(struct report *r);
/* Whether sample s passes --include/--exclude (its thread root too). */
bool report_filter_pass(const struct report *r, const struct pj_sample *s);
/* --threads' root frame of tid of pid: "[main tid=10]", or "[tid=10]";
 * "[main tid=10 pid=9]" when the file has several processes. */
void report_thread_label(const struct pj_profile *p, uint32_t pid, uint32_t tid,
			 char *buf, size_t len);
/* --processes' root frame of pid: "[java pid=9]", with its container
 * ("[java pid=9 container=web]"), "[kthreadd pid=2 kernel]" for a kernel
 * thread, "[idle]" for pid 0, "[pid=9]" when nothing names it. */
void report_process_label(const struct pj_profile *p, uint32_t pid, char *buf,
			  size_t len);
/* The command line of pid as recorded, or "". */
const char *report_process_cmdline(const struct pj_profile *p, uint32_t pid);
/* --processes in text: each process's share and command line. */
int report_processes_text(FILE *out, const struct report *r);

/* Name styles of report_frame_name(). */
enum report_style {
	REPORT_PLAIN, /* text: kernel frames get _[k] */
	REPORT_FOLDED, /* collapsed: every async-profiler suffix, no ';' */
	REPORT_BARE, /* pprof: the name alone, no suffix, no :line */
};

/*
 * The display name of frame id f in buf: the symbol (or "[module]" /
 * "[unknown]"), ":line" with --lines, and the suffix of the style. Control
 * characters are replaced so that a name is always one line.
 */
const char *report_frame_name(const struct report *r, uint32_t f,
			      enum report_style style, char *buf, size_t len);
/* The same for a frame fr whose name and module are those strings (a
 * writer's, perfjava top): shape its SHAPE_* flags (report/shape.h),
 * lines whether ":line" follows. */
const char *report_name_frame(const struct pj_frame *fr, const char *name,
			      const char *module, unsigned int shape,
			      bool lines, enum report_style style, char *buf,
			      size_t len);

int report_text(FILE *out, const struct report *r);
/* s on one line, control characters replaced, at most max bytes ("..."
 * after), as the summary prints the target's text (report/header.c). */
void report_put_line(FILE *out, const char *s, size_t max);
/* The text report's summary (report/header.c). */
void report_header(FILE *out, const struct report *r);
/* --format meta: the file's metadata and statistics, raw, one per line. */
int report_meta(FILE *out, const struct report *r);
int report_collapsed(FILE *out, const struct report *r);
int report_flame(FILE *out, const struct report *r);
int report_tree(FILE *out, const struct report *r);
int report_tree_html(FILE *out, const struct report *r);
int report_pprof(FILE *out, const struct report *r);
int report_script(FILE *out, const struct report *r);
/* --format jfr: a JDK Flight Recorder file (report/jfr_out.c). */
int report_jfr(FILE *out, const struct report *r);
/* --format heatmap: time across, density as colour, and the flame graph of
 * a selected range (report/heatmap.c). */
int report_heatmap(FILE *out, const struct report *r);
/* Whether r's samples fit a heatmap's cells: -1 after a message. */
int report_heatmap_check(const struct report *r);
/* --diff with --format text: the frames whose share changed most. */
int report_diff_text(FILE *out, const struct report *r);

#endif

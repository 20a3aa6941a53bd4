/* SPDX-License-Identifier: GPL-2.0 */
/* `perfjava record`: options, the recorder's state, and its parts. */
#ifndef PJ_USER_RECORD_H
#define PJ_USER_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "jvm/client.h"
#include "events/spec.h"
#include "lib/u64map.h"
#include "lib/umap.h"
#include "record/decode.h"
#include "record/merge.h"
#include "record/offjava.h"
#include "record/offstate.h"
#include "record/pending.h"
#include "profile/io.h"
#include "sym/symbolize.h"
#include "record/threads.h"
#include "record/ksig.h"
#include "record/switchcost.h"
#include "record/target.h"
#include "unwind/callgraph.h"
#include "unwind/stackend.h"
#include "unwind/unwind.h"

struct tp_decoder;

#define RECORD_DEFAULT_PERIOD_NS 10000000ULL /* 10 ms, as async-profiler */
#define RECORD_DEFAULT_FREQ 100
#define RECORD_WALK_DEADLINE_NS \
	200000000ULL /* a walk answer after 200 ms is lost */
#define RECORD_PENDING 8192 /* samples waiting for their walk, at most */

struct record_opts {
	pid_t pid;
	char **argv; /* -- CMD ARGS...: the command to launch */
	int argc;
	const char *events; /* -e */
	uint64_t freq; /* -F */
	uint64_t period; /* -c, ns when period_time */
	bool period_time; /* -c given with a time unit (1ms) */
	const char *period_arg; /* -c as given, for messages */
	double duration; /* -d seconds, 0 = until stopped */
	const char *output; /* -o */
	bool output_set; /* -o given */
	double loop; /* --loop SECONDS: one file per interval, 0 = one */
	unsigned int keep; /* --keep N: at most N files of a --loop */
	const char *output_template; /* -o of --loop, with %t */
	const char *callgraph; /* -g */
	struct callgraph cg; /* -g parsed */
	unsigned int pages; /* -m */
	bool pages_given;
	const char *agent_path;
	bool no_java;
	bool native_base; /* --native-base: Java stacks keep their thread's */
	bool quiet;
};

struct record_stats {
	uint64_t samples, lost, bad_records;
	uint64_t event_samples[RING_MAX_EVENTS]; /* per event index */
	uint64_t walks[AGENT_WALK_LOST + 1];
	uint64_t no_answer;
	uint64_t checked,
	    agreed; /* walks checked against the sampled JIT code */
	uint64_t moved_on; /* walks not merged: another moment (record/merge.h) */
	uint64_t *lat; /* walk latencies, ns */
	size_t nlat, caplat;
	uint64_t unwind[UNWIND_NEND]; /* how CFI unwinding ended */
	struct stack_ends ends; /* where stacks stopped (unwind/stackend.h) */
};

struct recorder {
	struct record_opts o;
	struct pj_event *evs;
	unsigned int nevents;
	struct threads th;
	struct pj_writer *w;
	struct symbolizer sym;
	struct agent *agent;
	struct agent_stats ast; /* the agent's counters when it stopped */
	struct u64map jnames; /* tid -> Java name written (record/jnames.c) */
	struct u64map vnames; /* virtual thread id -> its name written */
	struct umap bases; /* tid + 1 -> struct merge_base (record/bases.c) */
	uint64_t self_lo,
	    self_hi; /* the agent library's code (record/self.c) */
	unsigned int self_tries;
	struct launch *launch; /* the command, when record launched it */
	struct wall *wall; /* off-CPU intervals, with -e offcpu or --wall */
	struct jevents *jev; /* -e alloc, -e lock (record/jevents.h) */
	struct loop *loop; /* --loop: the files written (record/loop.c) */
	struct tp_decoder
	    *tp; /* tracepoint RAW -> sample info (events/tracepoint.h) */
	bool lbr; /* -g lbr: user frames from branch stacks (events/lbr.h) */
	struct unwinder *unw; /* default and -g dwarf: CFI over stack copies */
	bool java;
	bool java_failed; /* the agent refused or failed at the start: no
			     Java walks to speak of */
	struct decoder dec; /* record/decode.c */
	struct pending pend; /* samples that wait (record/pending.c) */
	struct offjava oj; /* off-CPU Java stacks (record/offjava.c) */
	struct offstate offstate; /* record/offstate.c */
	struct record_stats st;
	struct switch_cost swc; /* the current file's (record/switchcost.h) */
	uint64_t swc_next; /* when the threads' clocks are read next */
	struct ksig ks; /* walks at the sample (record/ksig.h) */
	struct target tgt; /* the same process all along (record/target.h) */
	bool target_exec; /* it exec'd (a -p target): the recording ends */
	unsigned int drain_at; /* the ring the next drain starts at */
	uint64_t start_ns, end_ns;
	bool stop;
	const char *stop_reason;
	bool write_failed;
	uint32_t emit_frames[MERGE_MAX_FRAMES]; /* record/emit.c */
	uint32_t emit_kframes[MERGE_MAX_FRAMES];
};

int cmd_record(int argc, char **argv);
/*
 * record/recorder.c: rec made ready for records of o: events parsed, their
 * periods chosen, tracepoint decoders, the writer open on o->output with the
 * event table, the symbolizer of o->pid. 0, or -1 with a message printed
 * (and nothing left open: no output file either).
 */
int recorder_init(struct recorder *rec, const struct record_opts *o);
/* Frees what recorder_init and recording set up, but not rec->w. */
void recorder_free(struct recorder *rec);
/* record/options.c: -1 on bad arguments (a message printed). */
int record_parse_args(int argc, char **argv, struct record_opts *o);
/* freq, or kernel.perf_event_max_sample_rate with a warning when above it. */
uint64_t record_clamp_freq(const char *event, uint64_t freq, bool quiet);
/* record/summary.c: the STATS trailer, and the summary on stderr. */
void record_write_stats(struct recorder *rec);
void record_summary(struct recorder *rec, uint64_t bytes);

/* record/hotpath.c: a ring record's way through the reader. */
void record_on_record(void *ctx, struct ring *r,
		      const struct perf_event_header *hdr);
/* record/header.c: the file's metadata about the target and the host. */
void record_write_header(struct recorder *rec);
/* The start of the recording, now: start_ns in rec and in the file. */
void record_mark_start(struct recorder *rec, uint64_t now);
/* The event table of the file. */
void record_describe_events(struct recorder *rec);
/* --loop: metadata, start, events and live threads of a new file. */
void record_file_header(struct recorder *rec, uint64_t now);

/* record/jnames.c: writes tid's Java thread name when the agent has a new
 * one; true when tid is the agent's own thread. */
bool record_java_name(struct recorder *rec, uint32_t tid);
/* Writes the name of virtual thread id once per file (named ones). */
void record_vthread_name(struct recorder *rec, uint64_t id);
/* Whether a Java name was written for tid (a comm must not replace it). */
bool record_has_java_name(const struct recorder *rec, uint32_t tid);
/* record/bases.c: tid's native base with --native-base, else NULL; all of
 * them forgotten (a new file's frame ids, or the end). */
struct merge_base *record_thread_base(struct recorder *rec, uint32_t tid);
void record_forget_bases(struct recorder *rec);
/* record/self.c: finds the agent library's code in the target (a maps read
 * now and then until found). */
void record_find_self(struct recorder *rec);

#endif

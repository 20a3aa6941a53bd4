/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recorder: what `perfjava record` holds for a recording, each part
 * owned by its file (record/recorder.c builds them and wires them
 * together). The stages a sample passes through (record/hotpath.c) each
 * keep their own state and are handed only what they work with; only the
 * command's own files (record.c, hotpath.c, loop.c, launch.c, summary.c)
 * see the whole.
 */
#ifndef PJ_USER_RECORD_RECORDER_H
#define PJ_USER_RECORD_RECORDER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "jvm/client.h"
#include "pipeline/cpuwalk.h"
#include "pipeline/decode.h"
#include "pipeline/emit.h"
#include "pipeline/ksig.h"
#include "pipeline/offjava.h"
#include "pipeline/offstate.h"
#include "pipeline/pending.h"
#include "pipeline/proc.h"
#include "pipeline/switchcost.h"
#include "record/agents.h"
#include "record/family.h"
#include "record/options.h"
#include "record/rproc.h"
#include "rings/threads.h"
#include "sym/symbolize.h"

struct jevents;
struct launch;
struct loop;
struct machine;
struct pj_sample;
struct ring;
struct run_hook;
struct tp_decoder;
struct wall;

/* Who a sample belongs to, as the recording was asked: the targets and the
 * tasks they start (record/family.h: the default), or every process (-a,
 * -C: record/machine.h, from machine_new). The sample's way (record/hotpath.c)
 * asks it and knows neither. */
struct sample_owner {
	/* whether sample s of ring r is another ring's (dropped here) */
	bool (*elsewhere)(struct recorder *rec, const struct ring *r,
			  const struct pj_sample *s);
	/* s's process (-a: made when first seen); NULL when none is, or
	 * not yet */
	struct proc *(*proc_of)(struct recorder *rec,
				const struct pj_sample *s);
};

struct recorder {
	struct record_opts o;
	const struct sample_owner *owner; /* whose a sample is */
	struct pj_event *evs;
	unsigned int nevents;
	struct threads th;
	struct pj_writer *w;
	struct ksymbolizer ksym; /* kernel frames, for every process */
	struct procs procs; /* the processes recorded: names, agents, ... */
	struct launch *launch; /* the command, when record launched it */
	struct loop *loop; /* --loop: the files written (record/loop.c) */
	struct machine *mach; /* -a, -C: every process (record/machine.h) */
	unsigned int thread_pages; /* a thread's own ring's (not a CPU's) */
	struct agents ag; /* attaches beside the poll loop (record/agents.h) */
	struct tp_decoder
	    *tp; /* tracepoint RAW -> sample info (events/tracepoint.h) */
	/* the stages of a sample's way (record/hotpath.c) */
	struct decoder dec;
	struct switchcost sc; /* a clock sample's weight */
	struct pending pend; /* where samples wait */
	struct cpuwalk cw; /* ... for a CPU sample's Java walk (at the sample:
			      each JVM's ksig, pipeline/proc.h) */
	struct wall *wall; /* ... for the end of an off-CPU wait */
	struct offjava oj; /* ... and its Java frames */
	struct offstate os; /* why it waited */
	struct jevents *jev; /* -e alloc, -e lock: the JVM's own events */
	struct emitter em; /* merged, named and written */
	struct family fam; /* the tasks the targets start (record/family.h) */
	bool reap_soon; /* rings retired: closed on the loop's next pass */
	uint64_t lost; /* sample records lost */
	unsigned int drain_at; /* the ring the next drain starts at */
	uint32_t sample_max; /* bytes of the largest sample record yet */
	unsigned int cpus; /* online: the most writers of one ring at once */
	uint64_t start_ns, end_ns;
	bool stop;
	const char *stop_reason;
	bool write_failed;
	int sigfd; /* SIGINT, SIGTERM, SIGHUP: the poll loop's stop */
	struct run_hook *hook; /* perfjava top's view (record/run.h) */
};

/*
 * rec made ready for records of o: events parsed, their periods chosen,
 * tracepoint decoders, the writer open on o->output with the event table,
 * the kernel's symbols, the stages wired, o->pid (when given) a process
 * recorded. 0, or -1 with a message printed (and nothing left open: no
 * output file either). `perfjava record` and the unit tests that feed
 * synthesized records build it the same way.
 */
int recorder_init(struct recorder *rec, const struct record_opts *o);
/* What the file says of the recording and its processes (record/header.h),
 * at its start. */
void recorder_header(struct recorder *rec);
/* The first target (the -p or launched process), or NULL. */
struct proc *recorder_first(const struct recorder *rec);
/* Frees what recorder_init and recording set up, but not rec->w. */
void recorder_free(struct recorder *rec);
/* p is a JVM (java), whose samples get Java frames unless --no-java. */
void recorder_set_java(struct recorder *rec, struct proc *p, bool java);
/* p's agent came (a), or went (NULL). */
void recorder_set_agent(struct recorder *rec, struct proc *p, struct agent *a);
/* Whether any process recorded has an agent. */
bool recorder_any_agent(const struct recorder *rec);
/* Lets the answers in flight come (bounded: a quarter second, a second
 * while stack copies are in flight), asking first the off-CPU stacks
 * wanted, then gives up the rest. */
void recorder_finish_waits(struct recorder *rec);
/* The start of the recording (or of a --loop file), now: start_ns in rec
 * and in the file. */
void recorder_mark_start(struct recorder *rec, uint64_t now);

#endif

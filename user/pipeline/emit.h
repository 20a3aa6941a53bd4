/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The last stage of a sample: its frames named (sym/symbolize.h, once per
 * address) and merged once with its Java part (pipeline/merge.h) into a stack
 * of the file, then the sample written and counted. The emitter owns what
 * the file's samples need across samples: the threads' Java names
 * (pipeline/jnames.h) and native bases (pipeline/bases.h); each sample's
 * process (pipeline/proc.h) gives its user names, its JVM's code map and the
 * agent library's code there; and counts where the samples' user stacks
 * stopped, from what the outermost frame is named.
 */
#ifndef PJ_USER_PIPELINE_EMIT_H
#define PJ_USER_PIPELINE_EMIT_H

#include <stdbool.h>
#include <stdint.h>

#include "jvm/client.h"
#include "pipeline/bases.h"
#include "pipeline/jnames.h"
#include "pipeline/merge.h"
#include "rings/ring.h"
#include "sym/symbolize.h"
#include "unwind/stackend.h"

struct pj_writer;
struct sample;
struct ksymbolizer;
struct proc;
struct procs;
struct threads;

/* What a sample's wait brought: its Java frames, or why there are none. */
struct java_part {
	int status; /* enum agent_walk_status, or MERGE_NO_WALK */
	const struct java_frame *jf; /* innermost first */
	unsigned int nj;
	bool held; /* taken while the thread was held where its chain was
		      (pipeline/merge.h) */
	bool at_sample; /* taken in the sample's own signal (pipeline/merge.h) */
};

struct emit_stats {
	uint64_t samples;
	uint64_t event_samples[RING_MAX_EVENTS]; /* per event index */
	/* per event index: the weight written; the samples of perfjava's
	 * own threads and code (pipeline/self.h), and their weight, whether
	 * left out or kept (--self) */
	uint64_t event_period[RING_MAX_EVENTS];
	uint64_t own_samples[RING_MAX_EVENTS], own_period[RING_MAX_EVENTS];
};

struct emitter {
	struct pj_writer *w; /* the current file */
	struct ksymbolizer *ksym; /* kernel frames */
	struct procs *procs; /* each sample's process */
	struct symbolizer nosym; /* for a sample of none: frames, no names */
	struct jnames names;
	struct bases bases;
	bool lbr; /* -g lbr: user stacks from branch records, no end to note */
	bool keep_self; /* --self: perfjava's own samples written too */
	pid_t self_pid; /* -a: the recorder's own process, else 0 */
	struct emit_stats st;
	struct stack_ends ends; /* the recording's (unwind/stackend.h) */
	uint32_t frames[MERGE_MAX_FRAMES], kframes[MERGE_MAX_FRAMES];
};

/*
 * The id of smp's stack merged with j (NULL: no walk), why as the marker at
 * the root (NULL: smp's own root, if any) and the frame leaf + 1 at the leaf
 * (0: none). *marker as merge_stack's.
 */
uint32_t emit_stack(struct emitter *e, const struct sample *smp,
		    const struct java_part *j, const char *why, uint32_t leaf,
		    int *marker);
/* Writes smp with stack, and counts it; its thread's Java name goes into
 * the file first when the agent knows it (pipeline/jnames.c). A sample of
 * perfjava's own (the agent's thread, the agent's code on an application
 * thread, the recorder at -a) is counted and left out, unless keep_self. */
void emit_write(struct emitter *e, struct sample *smp, uint32_t stack);
/* Whether smp (of process p, NULL: none known) is perfjava's own. */
bool emit_own(const struct emitter *e, const struct proc *p,
	      const struct sample *smp);
/* Counts smp as perfjava's own. */
void emit_count_own(struct emitter *e, const struct sample *smp);
/* At the end of a file: every thread of th its agent names gets its name
 * in it, a thread with no sample to carry it too (one asleep throughout). */
void emit_java_names(struct emitter *e, const struct threads *th);
/* A new file (w): its frame ids and counts start again. */
void emit_new_file(struct emitter *e, struct pj_writer *w);
void emit_free(struct emitter *e);

#endif

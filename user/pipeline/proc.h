/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The processes of a recording, by pid, as a sample's stages see them: each
 * one's own names (its user symbolizer), its unwinder, and its JVM side (the
 * agent, walks at the sample, the agent library's code). What the command
 * alone keeps of a process (a target's pidfd, its agent's attach, -a's
 * naming) is record/rproc.h's, beside this. A sample finds its process by
 * its pid, whenever it is merged (pipeline/decode.c, pipeline/emit.c), so a
 * held sample finds its own.
 */
#ifndef PJ_USER_PIPELINE_PROC_H
#define PJ_USER_PIPELINE_PROC_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "jvm/client.h"
#include "lib/u64map.h"
#include "pipeline/ksig.h"
#include "pipeline/self.h"
#include "sym/symbolize.h"

struct pj_writer;
struct unwinder;

struct proc {
	pid_t pid;
	struct symbolizer sym; /* its user frames */
	struct unwinder *unw; /* CFI over its stack copies, or NULL */
	bool unw_tried; /* procs_unwinder made it, or could not */
	bool java; /* it runs a JVM (libjvm.so mapped) */
	struct agent *agent; /* its JVM's agent, or NULL */
	struct ksig ks; /* its walks at the sample */
	struct self self; /* the agent library's code in it */
};

struct procs {
	struct u64map by_pid; /* pid + 1 -> struct proc */
	struct proc **v; /* in the order they came */
	unsigned int n, cap;
	struct pj_writer *w; /* the current file: what names go into */
	bool unwind; /* samples carry stack copies: each gets an unwinder */
	/* ... at most this many at once (0: no bound); -a: each holds its
	 * process's root and files open */
	unsigned int max_unw, nunw;
	struct ksig ks; /* each new process's ks starts as this: what its
			 * walks at the sample work with (th, pend, event) */
	/* What the command keeps of each process beside this (record/rproc.h):
	 * each is made size bytes (its struct proc first; 0: a struct proc),
	 * made() called once it is, drop() before it is freed. */
	size_t size;
	void (*made)(struct proc *p);
	void (*drop)(struct proc *p);
};

/* The process pid, or NULL when not recorded. */
static inline struct proc *procs_get(const struct procs *ps, pid_t pid)
{
	return pid > 0 ? u64map_ptr(&ps->by_pid, (uint64_t)pid + 1) : NULL;
}
/* How procs_add makes a process: its unwinder now (when the bound allows:
 * else procs_unwinder, later); its maps by its records alone, seen at its
 * exec (symbolizer_init's by_records). */
enum { PROCS_UNWIND = 1, PROCS_BY_RECORDS = 2 };
/* The process pid, made when new (its names ready; flags PROCS_*); NULL
 * when out of memory. */
struct proc *procs_add(struct procs *ps, pid_t pid, unsigned int flags);
/* p's unwinder, made now (-a: at its first sample) when it has none yet
 * and the bound allows. */
void procs_unwinder(struct procs *ps, struct proc *p);
/* Forgets p (its agent stopped before). */
void procs_remove(struct procs *ps, struct proc *p);
/* p exec'd another program: its names and its unwinder made anew. 0, or
 * -1 when out of memory. */
int procs_exec(struct procs *ps, struct proc *p);
/* p, first read when already gone, is named as parent (whose fork it is)
 * until it execs. */
void procs_inherit(struct proc *p, const struct proc *parent);
/* A new file: names go into w, named again as they come. */
void procs_new_file(struct procs *ps, struct pj_writer *w);
void procs_free(struct procs *ps);

#endif

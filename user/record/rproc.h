/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A process as the command keeps it: the struct proc a sample's stages see
 * (pipeline/proc.h), first, and beside it what only the command's files
 * use: a target's hold and end (record.c, run.c, sideband.c), its agent's
 * attach and counts (agents.c, run.c), -a's naming and retries
 * (machine.c). recorder_init makes every process of rec->procs this size.
 */
#ifndef PJ_USER_RECORD_RPROC_H
#define PJ_USER_RECORD_RPROC_H

#include <stdbool.h>
#include <stdint.h>

#include "jvm/client.h"
#include "pipeline/proc.h"
#include "record/target.h"

struct rproc {
	struct proc p; /* first: what the stages see */
	/* named by the command (-p, -t, the launched CMD): held by tgt, its
	 * end said */
	bool target;
	bool follow; /* its threads all recorded, new ones too (not -t) */
	struct target tgt;
	bool exec; /* a -p target that exec'd another program: its end */
	bool ended; /* a target that exited or exec'd: recorded no more */
	const char *end_reason; /* why, for the summary */
	/* its JVM's agent */
	bool java_failed; /* refused or failed at the start */
	bool had_agent; /* an agent came during the recording */
	bool out_queued; /* requests wait for its socket: POLLOUT */
	/* its threads listed then, its agent having said one started (0: not
	 * due), and the last time they were so (record/run.c) */
	uint64_t scan_due, scanned_at;
	struct agent_stats ast; /* the agent's counters when it stopped */
	/* -a, -C (record/machine.h): a kernel thread; named in this file;
	 * its JVM's next attach, and how many failed */
	bool kthread, named;
	uint64_t attach_at;
	unsigned int attach_tries;
	uint64_t exited_at; /* its leader's exit record came then */
	/* a process the targets started (record/family.h): its parent; its
	 * comm and command line as last named (its forks are named so when
	 * they are gone before they are read); named by its program's path
	 * once its first mapping comes (it exec'd and was gone) */
	bool child;
	pid_t ppid;
	char comm[16];
	char *cmdline;
	bool name_by_exe;
	bool gone; /* it was, when first named */
	/* its threads' own rings since then (record/family.h): its samples
	 * in other rings are duplicates from then on */
	uint64_t own_since;
	bool attach_wanted; /* its JVM's agent to come (agents_want) */
	uint64_t java_at; /* its libjvm.so mapping read then (agents_want) */
};

/* The command's view of p, a process of rec->procs. */
static inline struct rproc *rproc(const struct proc *p)
{
	return (struct rproc *)p;
}

#endif

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
#include <sys/types.h>

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
	bool java_failed; /* refused or failed: said, not tried again */
	/* to be attached beside the poll loop (record/agents.h): since
	 * want_since, an attach under way, the next one due at attach_at,
	 * how many were made */
	bool want, attaching;
	uint64_t want_since, attach_at;
	unsigned int attach_tries;
	bool had_agent; /* an agent came during the recording */
	bool out_queued; /* requests wait for its socket: POLLOUT */
	/* its threads listed then, its agent having said one started (0: not
	 * due), and the last time they were so (record/run.c) */
	uint64_t scan_due, scanned_at;
	struct agent_stats ast; /* the agent's counters when it stopped */
	/* its real uid, when known: its user's shares (the attaches in
	 * flight; -a: the process table, unwinders) */
	bool uid_known;
	uid_t uid;
	/* -a, -C (record/machine.h): a kernel thread; named in this file */
	bool kthread, named;
	/* its leader's exit record came then (-a, and the processes the
	 * targets started) */
	uint64_t exited_at;
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
	/* -a: sampled (and named) already; its program's path, should it
	 * come after, names it again at once: a short program may have no
	 * sample after its records */
	bool sampled;
	/* its threads' own rings since then (record/family.h): its samples
	 * in other rings are duplicates from then on */
	uint64_t own_since;
	uint64_t java_at; /* its libjvm.so mapping read then (family_mmap) */
};

/* The command's view of p, a process of rec->procs. */
static inline struct rproc *rproc(const struct proc *p)
{
	return (struct rproc *)p;
}

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The processes of a recording, by pid: each one's own names (its user
 * symbolizer), its unwinder, and its JVM side (the agent, walks at the
 * sample, the agent library's code). A target (named by the command: -p,
 * -t, the launched CMD) is also held by its pidfd and start time
 * (record/target.h). A sample finds its process by its pid, whenever it is
 * merged (record/decode.c, record/emit.c), so a held sample finds its own.
 */
#ifndef PJ_USER_RECORD_PROC_H
#define PJ_USER_RECORD_PROC_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "jvm/client.h"
#include "lib/u64map.h"
#include "record/ksig.h"
#include "record/self.h"
#include "record/target.h"
#include "sym/symbolize.h"

struct pj_writer;
struct unwinder;

struct proc {
	pid_t pid;
	bool target; /* named by the command: held by tgt, its end said */
	bool follow; /* its threads all recorded, new ones too (not -t) */
	struct target tgt;
	bool exec; /* a -p target that exec'd another program: its end */
	bool ended; /* a target that exited or exec'd: recorded no more */
	const char *end_reason; /* why, for the summary */
	struct symbolizer sym; /* its user frames */
	struct unwinder *unw; /* CFI over its stack copies, or NULL */
	bool java; /* it runs a JVM (libjvm.so mapped) */
	bool java_failed; /* its agent refused or failed at the start */
	struct agent *agent; /* its JVM's agent, or NULL */
	/* its threads listed then, its agent having said one started (0: not
	 * due), and the last time they were so (record/run.c) */
	uint64_t scan_due, scanned_at;
	bool out_queued; /* requests wait for its socket: POLLOUT */
	bool had_agent; /* an agent came during the recording */
	/* -a, -C (record/machine.h): a kernel thread; named in this file;
	 * its JVM's next attach, and how many failed */
	bool kthread, named;
	uint64_t attach_at;
	uint64_t exited_at; /* its leader's exit record came then (-a) */
	unsigned int attach_tries;
	struct agent_stats ast; /* the agent's counters when it stopped */
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
};

/* The process pid, or NULL when not recorded. */
static inline struct proc *procs_get(const struct procs *ps, pid_t pid)
{
	return pid > 0 ? u64map_ptr(&ps->by_pid, (uint64_t)pid + 1) : NULL;
}
/* The process pid, made when new (its names and unwinder ready); NULL
 * when out of memory. */
struct proc *procs_add(struct procs *ps, pid_t pid);
/* Forgets p (its agent stopped before). */
void procs_remove(struct procs *ps, struct proc *p);
/* A new file: names go into w, named again as they come. */
void procs_new_file(struct procs *ps, struct pj_writer *w);
void procs_free(struct procs *ps);

#endif

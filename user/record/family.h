/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tasks the targets start (record -p, record -- CMD; not with
 * --no-inherit, -t or -a), recorded from their first instruction as perf
 * records them: the kernel samples each new thread and process with the
 * events it inherited, into the ring of the thread that started it
 * (rings/threads.h: carried), before the reader has seen it start.
 *
 * The reader learns of them from the records beside the samples, in that
 * ring and in order: PERF_RECORD_FORK (a new process is a struct proc of
 * its own, named with its command line, read from /proc while it lives,
 * else its parent's, since a fork runs its parent's program until it
 * execs), PERF_RECORD_COMM with its exec flag (its names and maps read
 * anew; gone already, it is named by its comm and its program's path, its
 * first executable mapping after the exec), PERF_RECORD_MMAP2 (its maps,
 * kept from the records so that its samples are named after it exited),
 * PERF_RECORD_EXIT (forgotten a second later).
 *
 * A JVM among them is found by its mapping of libjvm.so and gets its
 * agent as a -p target does (agents_want); its samples before that keep
 * their native frames. Its threads then get rings of their own
 * (family_promote), whose SIGTRAP at the sample walks their Java stack:
 * a carried thread's inherited events cannot signal for it (the ring that
 * carries it belongs to another thread, or another process); the events
 * it inherited still sample it, and those samples, in the older rings,
 * are dropped from then on (family_stale).
 */
#ifndef PJ_USER_RECORD_FAMILY_H
#define PJ_USER_RECORD_FAMILY_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct perf_event_header;
struct pj_sample;
struct proc;
struct recorder;
struct ring;
struct sample_owner;

/* Processes the targets started, recorded at most at once (a fork bomb's
 * beyond: their samples are kept, unnamed). */
#define FAMILY_MAX_PROCS 8192
/* ... with a CFI unwinder at once (each holds its root and files open;
 * beyond, their user frames are the kernel's frame-pointer chain) */
#define FAMILY_MAX_UNWINDERS 512

/* ... announced by no record yet, seen in a sample (a FORK lost with the
 * ring's overflow): made on the loop's next tick, at most this many a
 * tick (their samples until then are kept, unnamed) */
#define FAMILY_LATE_MAX 16

struct family {
	uint64_t procs; /* processes started, followed */
	uint64_t gone; /* ... of which named from their records alone */
	uint64_t over; /* ... beyond FAMILY_MAX_PROCS */
	uint64_t stale; /* samples dropped: their thread's own ring had it */
	uint64_t adopted; /* carried tasks given their own ring */
	uint64_t jvms; /* JVMs found among them */
	unsigned int live; /* processes started alive now */
	uint64_t late; /* samples of processes no record had announced */
	struct { /* ... those processes, to be made (family_tick) */
		pid_t pid;
		uint64_t time; /* (of its first such sample) */
	} late_v[FAMILY_LATE_MAX];
	unsigned int late_n;
};

/* The rings' options for it (before they open): inherited events, with
 * their tasks' MMAP2 records. */
void family_setup(struct recorder *rec);
/* Whether the targets' new tasks are carried (record -p, -- CMD). */
bool family_on(const struct recorder *rec);
/* A PERF_RECORD_FORK in ring r: a new thread or process. */
void family_fork(struct recorder *rec, struct ring *r,
		 const struct perf_event_header *hdr);
/* A PERF_RECORD_EXIT: a thread, or a process, ended. */
void family_exit(struct recorder *rec, const struct perf_event_header *hdr);
/* A PERF_RECORD_COMM of p's thread tid: renamed, or (exec) another
 * program. */
void family_comm(struct recorder *rec, struct proc *p, uint32_t tid,
		 const char *comm, bool exec);
/* A PERF_RECORD_MMAP2: a mapping of a process recorded (-a too). The
 * process it makes a JVM, libjvm.so, when it is one the targets started
 * (its agent then wanted by the caller: agents_want), else NULL. */
struct proc *family_mmap(struct recorder *rec,
			 const struct perf_event_header *hdr);
/* The process of a record of pid taken at time, made when it is one the
 * targets started that no record announced; NULL when not recorded. */
struct proc *family_proc(struct recorder *rec, pid_t pid, uint64_t time);
/* Whether sample s of ring r is a duplicate: its thread has had its own
 * ring since before it. */
bool family_stale(struct recorder *rec, const struct ring *r,
		  const struct pj_sample *s);
/* Both, as the recorder's sample owner (record/recorder.h): a sample's
 * process is one already made (family_proc's on the sideband's way; a
 * sample's way opens no file: one no record announced waits for the
 * tick). */
extern const struct sample_owner family_owner;
/* p's agent came (NULL: none did): one of those the targets started gets
 * its threads' own rings (family_promote), said. */
void family_agent_in(struct recorder *rec, struct proc *p);
/* p's threads get rings of their own (its JVM's agent came): those it
 * had are replaced, those carried by others get theirs. */
void family_promote(struct recorder *rec, struct proc *p);
/* Whether p's threads are all followed by inheritance (each of its rings
 * inherits): a listing of its threads then has nothing to add (a thread
 * the listing finds before its creator's record of it would be opened
 * again, and sampled twice). */
bool family_inherits(const struct recorder *rec, const struct proc *p);
/* Processes that exited a second ago are forgotten, those only samples
 * announced are made (every tick). */
void family_tick(struct recorder *rec, uint64_t now);
/* r's thread exited, or r was replaced: the tasks it still carries get
 * rings of their own (the kernel drops their records once its thread is
 * gone), before r is closed. */
void family_ring_gone(struct recorder *rec, struct ring *r);
/* p's comm (unless NULL: kept) and command line, kept: what names it when
 * it is gone (its forks too, as a fork runs its parent's program). */
void family_names(struct proc *p, const char *comm, const char *cmdline);
/* Whether pid is alive and the process a record taken at time
 * (CLOCK_MONOTONIC; 0: any) spoke of: started by then, give or take its
 * start time's tick (a pid used again started after it). */
bool family_same_process(pid_t pid, uint64_t time);
/* p, one the targets started, into the file as it was named (--loop: a
 * new file). */
void family_write(struct recorder *rec, const struct proc *p);
/* The summary's line and the file's statistics. */
void family_summary(const struct recorder *rec);
void family_write_stats(const struct recorder *rec);

#endif

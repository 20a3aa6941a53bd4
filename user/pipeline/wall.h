/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Off-CPU and wall-clock time from the kernel (pipeline/wall.c): `-e offcpu`
 * samples each thread's switch-out (sched:sched_switch, its stack and
 * prev_state) and takes its switch-in from PERF_RECORD_SWITCH; each blocked
 * interval becomes one sample weighted by its duration in ns, with the
 * reason it waited as its leaf frame (pipeline/offstate.h). `--wall` (`-e wall`) is cpu-clock plus
 * offcpu: every thread's whole timeline.
 */
#ifndef PJ_USER_PIPELINE_WALL_H
#define PJ_USER_PIPELINE_WALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/perf_event.h>

struct procs;
struct emitter;
struct offjava;
struct offstate;
struct pending;
struct pj_event;
struct ring;
struct sample;
struct threads;
struct wall;

/* What the off-CPU waits work with. */
struct wall_links {
	struct pending *pend; /* where the waits' samples are held */
	struct offjava *oj; /* a JVM's waits' Java frames */
	struct offstate *os; /* the state leaves */
	struct emitter *em; /* where they go */
	/* the processes: each one's unwinder and JVM's code, for the stacks
	 * of threads blocked when their events open (pipeline/blockstack.h) */
	const struct procs *procs;
};

/*
 * spec with the aliases "wall" (cpu-clock,offcpu) and "offcpu"
 * (sched:sched_switch) expanded into out; offcpu[i] tells which of the
 * resulting events is offcpu (at most nmax). -1 when out is too small.
 */
int wall_expand(const char *spec, char *out, size_t len, bool *offcpu,
		unsigned int nmax);
/* Makes the offcpu events of evs[0..n) what they need to be; *out (NULL
 * when none is) works with l. 0, or -1 after a message. */
int wall_setup(struct wall **out, struct pj_event *evs, unsigned int n,
	       const bool *offcpu, const struct wall_links *l);
/*
 * A JVM's offcpu events (among evs[0..n)) copy WALL_JAVA_COPY bytes of each
 * switch-out's stack, for the Java frames of the wait walked in that copy
 * (pipeline/offjava.c), and wake the reader at a watermark, not per sample:
 * the copy holds all the wait needs. Set when the target is known to be a
 * JVM (java, Java frames asked), before its threads open, with the call
 * graph's own copy (stack_size; 0: no copies); true when they do.
 */
#define WALL_JAVA_COPY 8192
#define WALL_JAVA_MIN_PAGES 8 /* rings that hold a few such samples */
bool wall_java_copy(struct wall *w, struct pj_event *evs, unsigned int n,
		    bool java, uint32_t stack_size);
/* Whether they do (once wall_java_copy said so). */
bool wall_java_copied(const struct wall *w);
void wall_free(struct wall *w);
/* --loop, at a new file: its frame ids and the closed intervals go. */
void wall_forget(struct wall *w);
/* Whether event index ev is offcpu; the first offcpu event's index. */
bool wall_is_offcpu(const struct wall *w, uint32_t ev);
uint32_t wall_event(const struct wall *w);

/*
 * A switch-out sample (record/hotpath.c): its thread's wait opens, and the
 * sample is held (pipeline/pending.h) until the wait ends, to be written
 * weighted by its length; a JVM's thread's also waits for its Java frames
 * (pipeline/offjava.h).
 */
void wall_switch_out(struct wall *w, struct sample *smp);
/*
 * --wall: a clock sample (cpu-clock) weighs its thread's time on a CPU
 * since its previous one, from the switch records (its switch-ins, and its
 * switch-outs that open its waits), so that the thread's on-CPU and
 * off-CPU time together are its timeline, never more. Left with its
 * clock's weight where that time is not known.
 */
void wall_clock_sample(struct wall *w, struct sample *smp);
/* PERF_RECORD_SWITCH in a thread's ring (PERF_RECORD_SWITCH_CPU_WIDE in a
 * CPU's, -a): its switch-in ends its wait. */
void wall_switch(struct wall *w, const struct ring *r,
		 const struct perf_event_header *hdr);
/* Opens the wait of thread tid of process pid found blocked when its
 * events open during the recording (before its start: wall_start). */
void wall_thread_opened(struct wall *w, pid_t pid, pid_t tid);
/* The recording started at start (the threads of th enabled): the waits of
 * the threads blocked then open at the start. */
void wall_start(struct wall *w, const struct threads *th, uint64_t start);
/* At the end of the recording or a file: threads still blocked waited
 * until now. */
void wall_tick(struct wall *w, uint64_t now);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Why a thread was off CPU (pipeline/wall.h): from its switch-out's
 * prev_state, else from the kernel functions it blocked in, and a JVM's
 * thread from its Java frames; the leaf frame of its off-CPU samples.
 */
#ifndef PJ_USER_PIPELINE_OFFSTATE_H
#define PJ_USER_PIPELINE_OFFSTATE_H

#include <stdint.h>

struct java_frame;
struct ksource;
struct pj_writer;
struct sample;

enum wall_state {
	WALL_BLOCKED = 0, /* none of the others */
	WALL_SLEEP,
	WALL_IO,
	WALL_LOCK,
	WALL_RUNNABLE, /* preempted: ready, waiting for a CPU */
	WALL_WAIT, /* a JVM's thread waiting for work or an event (a
		      condition, a queue, Object.wait), not for a lock */
	WALL_NSTATES
};

/* The state frames of the current file. */
struct offstate {
	uint32_t leaf[WALL_NSTATES]; /* frame id + 1 */
};

/* The state of a decoded switch-out sample: its tracepoint's text, else
 * its kernel functions (named by k). */
enum wall_state offstate_of(struct ksource *k, const struct sample *smp);
/* The wait a kernel function stands for, or -1. */
int offstate_of_function(const char *name);
/* A JVM's wait in state st (a lock or blocked, as the kernel sees a
 * futex) made precise by its Java frames f[0..n) (innermost first) and
 * its JVMTI thread state (PJA_TSTATE_*): Thread.sleep is a sleep; a
 * condition's await, a park on no lock or semaphore of
 * java.util.concurrent (a queue, a latch, a future) and Object.wait are a
 * wait; a lock's acquire and a monitor's enter stay a lock. */
int offstate_of_java(int st, const struct java_frame *f, unsigned int n,
		     uint32_t tstate);
/* The leaf frame of state st in the current file (w): its id + 1. */
uint32_t offstate_leaf(struct offstate *o, struct pj_writer *w, int st);
/* --loop, at a new file: its frame ids go. */
void offstate_forget(struct offstate *o);

#endif

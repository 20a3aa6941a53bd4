/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Off-CPU and wall-clock time from the kernel (record/wall.c): `-e offcpu`
 * samples each thread's switch-out (sched:sched_switch, its stack and
 * prev_state) and takes its switch-in from PERF_RECORD_SWITCH; each blocked
 * interval becomes one sample weighted by its duration in ns, with the
 * reason it waited as its leaf frame. `--wall` (`-e wall`) is cpu-clock plus
 * offcpu: every thread's whole timeline.
 */
#ifndef PJ_USER_RECORD_WALL_H
#define PJ_USER_RECORD_WALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/perf_event.h>

struct recorder;
struct ring;
struct pj_sample;
struct pj_raw_sample;
struct wall;

/* Why a thread was off CPU: the leaf frame of its off-CPU samples. */
enum wall_state {
	WALL_BLOCKED = 0, /* none of the others */
	WALL_SLEEP,
	WALL_IO,
	WALL_LOCK,
	WALL_RUNNABLE, /* preempted: ready, waiting for a CPU */
	WALL_NSTATES
};

/*
 * spec with the aliases "wall" (cpu-clock,offcpu) and "offcpu"
 * (sched:sched_switch) expanded into out; offcpu[i] tells which of the
 * resulting events is offcpu (at most nmax). -1 when out is too small.
 */
int wall_expand(const char *spec, char *out, size_t len, bool *offcpu,
		unsigned int nmax);
/* Makes the offcpu events of rec what they need to be; rec->wall set. */
int wall_setup(struct recorder *rec, const bool *offcpu);
void wall_free(struct recorder *rec);
/* --loop, at a new file: its frame ids and the closed intervals go. */
void wall_forget(struct recorder *rec);
/* Whether event index ev is offcpu; the first offcpu event's index. */
bool wall_is_offcpu(const struct recorder *rec, uint32_t ev);
uint32_t wall_event(const struct recorder *rec);

/* A switch-out sample: its thread's interval opens (record/hotpath.c). */
void wall_switch_out(struct recorder *rec, const struct pj_sample *s,
		     const struct pj_raw_sample *rs);
/*
 * The same sample of a JVM's thread (kf, nk kernel frame ids and up, nu user
 * addresses, leaf first): kept in parts, its Java frames asked of the agent
 * (record/offjava.h); true when it was (it is written when its wait ends),
 * false when it is to be merged and held as wall_hold does.
 */
bool wall_java(struct recorder *rec, const struct pj_sample *s,
	       const uint32_t *kf, unsigned int nk, const uint64_t *up,
	       unsigned int nu);
/* PERF_RECORD_SWITCH in a thread's ring: its switch-in ends an interval. */
void wall_switch(struct recorder *rec, struct ring *r,
		 const struct perf_event_header *hdr);
/*
 * An offcpu sample with its merged stack (frames leaf first, n of them, room
 * for one more): adds the state leaf and keeps the sample until its interval
 * ends; it is written with the interval's duration as its period.
 */
void wall_hold(struct recorder *rec, struct pj_sample *s, uint32_t *frames,
	       unsigned int n);
/* Opens the interval of a thread found blocked when its events open. */
void wall_thread_opened(struct recorder *rec, pid_t tid, uint32_t ev);
/* At the end of the recording: threads still blocked waited until now. */
void wall_tick(struct recorder *rec, uint64_t now);

#endif

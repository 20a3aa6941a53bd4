/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The whole machine (-a), or the processes that run on some CPUs (-C), from
 * one ring per CPU (record/machine.c): a process is recorded from its first
 * sample on (its names, unwinder and container then), a thread named when
 * first seen; kernel threads and the idle tasks are recorded as such. The
 * table of processes holds 8192, a quarter of them of one uid (a user's
 * share, of the unwinders too): beyond, a process's samples are counted
 * for its uid, unnamed. Every JVM gets its agent unless --no-java, beside
 * the poll loop (record/agents.h: agents_want): those running at the
 * start, before the events open (a bounded wait), one that starts during
 * the recording once it maps libjvm.so (its MMAP2 record), a second
 * later. A JVM with its agent is then recorded as a -p target
 * (agents_follow): its threads get rings of their own, whose signal at the
 * sample walks their Java stack (the kernel may signal no thread from a
 * CPU's event: one of another process would die of it); its threads'
 * samples before that are walked on request.
 */
#ifndef PJ_USER_RECORD_MACHINE_H
#define PJ_USER_RECORD_MACHINE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct perf_event_header;
struct pj_writer;
struct proc;
struct recorder;
struct machine;

/* rec->mach for -a / -C, and the owner of every sample (record/recorder.h:
 * each process made at its first); 0, or -1 with a message. */
int machine_new(struct recorder *rec);
/* Opens one ring per CPU recorded; 0, or -errno (*bad the event). */
int machine_open(struct recorder *rec, unsigned int *bad);
/* Every JVM running now is a process recorded, its agent to come before
 * the events open (agents_start). */
void machine_find_jvms(struct recorder *rec);
/* A PERF_RECORD_MMAP2 of a CPU's ring: libjvm.so mapped makes a JVM. */
void machine_mmap(struct recorder *rec, const struct perf_event_header *hdr);
/* Thread tid of pid exited (at now). */
void machine_exit(struct recorder *rec, pid_t pid, pid_t tid, uint64_t now);
/* Thread tid of process pid took the name comm; by an exec of another
 * program when exec (a process made then, if new). */
void machine_comm(struct recorder *rec, pid_t pid, uint32_t tid,
		  const char *comm, bool exec);
/* The JVMs found during the recording get their agent when due. */
void machine_tick(struct recorder *rec, uint64_t now);
/* --loop: a new file (w), where every process and thread is named again. */
void machine_new_file(struct recorder *rec);
/* The summary's line: processes seen, JVMs with Java frames, and the
 * users whose processes went unnamed (most samples first). */
void machine_summary(const struct recorder *rec);
/* Into the file: procs_unnamed (stat), and procs_unnamed_uids (meta: "UID
 * PROCS SAMPLES" for each uid, comma separated; uid -1: the others). */
void machine_write_stats(struct recorder *rec);
void machine_free(struct machine *m);

#endif

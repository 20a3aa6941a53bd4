/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a profile file says about its recording: the target and the host,
 * when the recording started, what each event index means, the live
 * threads. Written at the start by `perfjava record` (record/record.c) and
 * again at the start of every --loop file (record/loop.c).
 */
#ifndef PJ_USER_RECORD_HEADER_H
#define PJ_USER_RECORD_HEADER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct pj_event;
struct pj_writer;
struct threads;

/* The host, the -g mode, and whether a JVM is recorded. */
void header_write(struct pj_writer *w, const char *callgraph, bool java);
/* Process pid (its comm, command line and container): a JVM, named by the
 * command (target); the first target also in META (pid, comm, cmdline), as
 * files of one target had it. */
void header_process(struct pj_writer *w, pid_t pid, bool java, bool target,
		    bool first);
/* The same with its command line read already (NULL: read here). */
void header_process_cmd(struct pj_writer *w, pid_t pid, bool java, bool target,
			bool first, const char *cmdline);
/* Recording starts when the events are enabled (now), after the symbols
 * are read and the agent attached: the one start_ns of the header, the
 * statistics, --duration and report's --from/--to. */
void header_mark_start(struct pj_writer *w, uint64_t now);
/* The event table: what each sample's event index means. */
void header_describe_events(struct pj_writer *w, const struct pj_event *evs,
			    unsigned int n);
/* Every open thread, by its comm. */
void header_threads(struct pj_writer *w, const struct threads *th);

#endif

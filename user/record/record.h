/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `perfjava record` (record/command.c), and the start and stop of a
 * recording that it and `perfjava top` share (record/record.c; the options:
 * record/options.h, the state: record/recorder.h).
 */
#ifndef PJ_USER_RECORD_H
#define PJ_USER_RECORD_H

#include <stdbool.h>

struct recorder;
struct record_opts;

/*
 * Writes the finished perfjava file data as the JFR file jfr (`record -o
 * F.jfr`); 0, or 1 after a message (data is kept). main.c hands in
 * report's JFR writer: record does not use report.
 */
typedef int (*record_to_jfr_fn)(const char *data, const char *jfr, bool quiet);

int cmd_record(int argc, char **argv, record_to_jfr_fn to_jfr);

/*
 * The recording of o started in rec: its targets checked (-t's processes
 * into o) and held, or -a's machine; its output open (o->output, or no
 * file: o->tap); the agents attached, the rings open, the events enabled,
 * the stopping signals taken on rec->sigfd. 0; or, after a message and
 * with nothing left open, 1 (127: a command to launch could not run).
 */
int record_start(struct recorder *rec, struct record_opts *o);
/* The events disabled, the rings drained (bounded), the walks in flight
 * finished or given up, the agents stopped: the targets as they were. */
void record_stop(struct recorder *rec);
/* Frees what record_start set up (an output not closed is dropped). */
void record_free(struct recorder *rec);

#endif

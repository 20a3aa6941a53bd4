/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Continuous recording (record/loop.c): --loop SECONDS writes one complete,
 * self-contained file per interval, named by -o with %t (the interval's
 * start, YYYYmmdd-HHMMSS), and deletes the oldest beyond --keep N. The
 * events, rings and agent stay; only the file changes.
 */
#ifndef PJ_USER_RECORD_LOOP_H
#define PJ_USER_RECORD_LOOP_H

#include <stddef.h>
#include <stdint.h>

struct recorder;
struct record_opts;

/* tmpl with %t replaced by the local time now, into buf; a file that
 * exists gets -1, -2, ... before its extension. */
void loop_file_name(const char *tmpl, char *buf, size_t len);
/* Checks --loop/--keep/-o and names the first file (o->output). 0, or -1
 * after a message. */
int loop_setup(struct record_opts *o);
/* In the poll loop: at the interval's end, closes the file and starts the
 * next. 0, or -1 when the next file cannot be written (recording stops). */
int loop_tick(struct recorder *rec, uint64_t now);
void loop_free(struct recorder *rec);

#endif

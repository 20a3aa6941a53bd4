/* SPDX-License-Identifier: GPL-2.0 */
/* The recording's statistics: the trailer written into the file and the
 * summary printed on stderr (record/summary.c). */
#ifndef PJ_USER_RECORD_SUMMARY_H
#define PJ_USER_RECORD_SUMMARY_H

#include <stdint.h>

struct recorder;

/* The STATS trailer of the current file. */
void record_write_stats(struct recorder *rec);
/* The summary on stderr; bytes: the file's size as written. */
void record_summary(struct recorder *rec, uint64_t bytes);

#endif

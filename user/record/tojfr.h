/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `record -o FILE.jfr`: the recording is written in perfjava's own format
 * to FILE.jfr.data (append-only chunks: whatever stops perfjava, even
 * SIGKILL, leaves what was recorded), and turned into FILE.jfr by the
 * report's JFR writer once it is complete (main.c hands it to cmd_record:
 * record/record.h's record_to_jfr_fn); the .data file goes only when FILE.jfr
 * is whole, else it stays and perfjava says how to convert it.
 */
#ifndef PJ_USER_RECORD_TOJFR_H
#define PJ_USER_RECORD_TOJFR_H

#include <stdbool.h>
#include <stddef.h>

/* Whether output names a JFR file (".jfr"). */
bool tojfr_wanted(const char *output);
/* The perfjava file to record into for JFR output jfr, into buf. */
const char *tojfr_data_path(const char *jfr, char *buf, size_t len);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `perfjava report`: the command, and the formats that write its report
 * (the options and the report every format reads: report/model.h).
 *
 * report/report.c parses options, loads the profile, selects samples
 * (filters go in report_sample_selected(), report/filter.c) and folds them
 * into struct report_stack entries, root first. A format is one function that writes a struct report to a FILE;
 * to add one, write report_<name>.c and list it in report/report.c's format table.
 * Frame ids below p->nframes are the file's frames; ids from p->nframes on
 * are labels the report made up (the thread root of --threads).
 */
#ifndef PJ_USER_REPORT_H
#define PJ_USER_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "profile/io.h"
#include "report/header.h"
#include "report/model.h"
#include "report/names.h"
#include "report/procs.h"
#include "report/wallview.h"

int cmd_report(int argc, char **argv);

/* Parses argv into o (report/options.c). 0, 1 for --help, -1 after a message. */
int report_parse_opts(int argc, char **argv, struct report_opts *o);
void report_opts_free(struct report_opts *o);
const char *report_usage(void);
/* The format a -o file name implies (".html" -> "flame"), or NULL. */
const char *report_format_of(const char *path);

/* Root labels of one kind: their sorted keys, the first label's id. */
struct report_roots {
	uint64_t *keys; /* pid, or pid << 32 | tid */
	size_t n;
	uint32_t first;
};

int report_text(FILE *out, const struct report *r);
/* --format meta: the file's metadata and statistics, raw, one per line. */
int report_meta(FILE *out, const struct report *r);
int report_collapsed(FILE *out, const struct report *r);
int report_flame(FILE *out, const struct report *r);
int report_tree(FILE *out, const struct report *r);
int report_tree_html(FILE *out, const struct report *r);
int report_pprof(FILE *out, const struct report *r);
int report_script(FILE *out, const struct report *r);
/* --format jfr: a JDK Flight Recorder file (report/jfr_out.c). */
int report_jfr(FILE *out, const struct report *r);
/* --diff with --format text: the frames whose share changed most. */
int report_diff_text(FILE *out, const struct report *r);

#endif

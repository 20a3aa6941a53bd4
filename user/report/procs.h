/* SPDX-License-Identifier: GPL-2.0 */
/* The processes and threads of a report: their root labels and list (report/procs.c). */
#ifndef PJ_USER_REPORT_PROCS_H
#define PJ_USER_REPORT_PROCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/model.h"

/* --threads' root frame of tid of pid: "[main tid=10]", or "[tid=10]";
 * "[main tid=10 pid=9]" when the file has several processes. */
void report_thread_label(const struct pj_profile *p, uint32_t pid, uint32_t tid,
			 char *buf, size_t len);
/* --processes' root frame of pid: "[java pid=9]", with its container
 * ("[java pid=9 container=web]"), "[kthreadd pid=2 kernel]" for a kernel
 * thread, "[idle]" for pid 0, "[pid=9]" when nothing names it. */
void report_process_label(const struct pj_profile *p, uint32_t pid, char *buf,
			  size_t len);
/* The command line of pid as recorded, or "". */
const char *report_process_cmdline(const struct pj_profile *p, uint32_t pid);
/* --processes in text: each process's share and command line. */
int report_processes_text(FILE *out, const struct report *r);

#endif

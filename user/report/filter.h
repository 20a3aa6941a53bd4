/* SPDX-License-Identifier: GPL-2.0 */
/* Which samples and stacks a report keeps: its filters (report/filter.c). */
#ifndef PJ_USER_REPORT_FILTER_H
#define PJ_USER_REPORT_FILTER_H

#include <stdbool.h>

#include "report/model.h"

/* Whether sample s passes every filter (event, pid, tid, time, regex). */
bool report_sample_selected(const struct report *r, const struct pj_sample *s);
/* Computes r->stack_ok from the regexes (report/filter.c); -1 on ENOMEM. */
int report_filter_stacks(struct report *r);
/* Whether sample s passes --include/--exclude (its thread root too). */
bool report_filter_pass(const struct report *r, const struct pj_sample *s);

#endif

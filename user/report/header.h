/* SPDX-License-Identifier: GPL-2.0 */
/* The text report's summary (report/header.c). */
#ifndef PJ_USER_REPORT_HEADER_H
#define PJ_USER_REPORT_HEADER_H

#include <stddef.h>
#include <stdio.h>

#include "report/model.h"

/* s on one line, control characters replaced, at most max bytes ("..."
 * after), as the summary prints the target's text (report/header.c). */
void report_put_line(FILE *out, const char *s, size_t max);
/* The text report's summary. */
void report_header(FILE *out, const struct report *r);

#endif

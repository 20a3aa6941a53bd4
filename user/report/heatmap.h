/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PJ_USER_REPORT_HEATMAP_H
#define PJ_USER_REPORT_HEATMAP_H

#include <stdio.h>

#include "report/model.h"

/* --format heatmap: time across, density as colour, and the flame graph of
 * a selected range (report/heatmap.c). */
int report_heatmap(FILE *out, const struct report *r);
/* Whether r's samples fit a heatmap's cells: -1 after a message. */
int report_heatmap_check(const struct report *r);

#endif

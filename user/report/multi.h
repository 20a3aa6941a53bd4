/* SPDX-License-Identifier: GPL-2.0 */
/* Several profile files reported as one (report/multi.c). */
#ifndef PJ_USER_REPORT_MULTI_H
#define PJ_USER_REPORT_MULTI_H

#include <stddef.h>

#include "profile/io.h"

struct report_merged {
	struct pj_profile **all; /* all[0] holds every sample */
	unsigned int n;
};

/* Loads paths[0..n) and appends the others to the first recorded (whose
 * meta is the merge's: the earliest start). 0, or -1 with one line in
 * err. */
int report_load_merged(const char *const *paths, unsigned int n,
		       struct report_merged *out, char *err, size_t errlen);
void report_merged_free(struct report_merged *m);

#endif

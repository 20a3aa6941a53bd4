/* SPDX-License-Identifier: GPL-2.0 */
/* How a report shapes frame names for display (report/shape.c). */
#ifndef PJ_USER_REPORT_SHAPE_H
#define PJ_USER_REPORT_SHAPE_H

#include <stdbool.h>
#include <stddef.h>

#include <perfjava/profile.h>

enum {
	SHAPE_RAW = 1 << 0, /* keep lambda/hidden-class addresses */
	SHAPE_SIMPLE = 1 << 1, /* Java classes without their package */
	SHAPE_SIGNATURES = 1 << 2, /* C++ parameter lists, Java signatures */
};

/* name as a report shows it, into out (always terminated). */
void report_shape_name(const char *name, enum pj_frame_type type,
		       unsigned int flags, char *out, size_t len);

#endif

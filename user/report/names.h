/* SPDX-License-Identifier: GPL-2.0 */
/* The names a report shows for its frames (report/names.c). */
#ifndef PJ_USER_REPORT_NAMES_H
#define PJ_USER_REPORT_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/model.h"

/* Name styles of report_frame_name(). */
enum report_style {
	REPORT_PLAIN, /* text: kernel frames get _[k] */
	REPORT_FOLDED, /* collapsed: every async-profiler suffix, no ';' */
	REPORT_BARE, /* pprof: the name alone, no suffix, no :line */
};

/*
 * The display name of frame id f in buf: the symbol (or "[module]" /
 * "[unknown]"), ":line" with --lines, and the suffix of the style. Control
 * characters are replaced so that a name is always one line.
 */
const char *report_frame_name(const struct report *r, uint32_t f,
			      enum report_style style, char *buf, size_t len);
/* The same for a frame fr whose name and module are those strings (a
 * writer's, perfjava top): shape its SHAPE_* flags (report/shape.h),
 * lines whether ":line" follows. */
const char *report_name_frame(const struct pj_frame *fr, const char *name,
			      const char *module, unsigned int shape,
			      bool lines, enum report_style style, char *buf,
			      size_t len);

#endif

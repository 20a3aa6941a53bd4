// SPDX-License-Identifier: GPL-2.0
/* How a report names a frame (see report_frame_name() in report/report.h). */
#include <stdio.h>
#include <string.h>

#include "report/names.h"
#include "report/shape.h"

/* async-profiler's suffixes of the collapsed format, by frame type. */
static const char *const suffix[PJ_FRAME_TYPE_MAX] = {
	[PJ_FRAME_KERNEL] = "_[k]",  [PJ_FRAME_JIT] = "_[j]",
	[PJ_FRAME_INLINED] = "_[i]", [PJ_FRAME_INTERPRETED] = "_[0]",
	[PJ_FRAME_C1] = "_[1]",
};

/* Copies s to buf at *at, making it one line (and ';'-free when folded). */
static void put(char *buf, size_t len, size_t *at, const char *s,
		enum report_style style)
{
	for (; *s && *at + 1 < len; s++) {
		char ch = *s;

		if ((unsigned char)ch < 0x20 || ch == 0x7f)
			ch = '?';
		else if (ch == ';' && style == REPORT_FOLDED)
			ch = ',';
		buf[(*at)++] = ch;
	}
	buf[*at] = 0;
}

/* The SHAPE_* flags of --raw-names, --simple, --signatures. */
static unsigned int report_shape_flags(const struct report_opts *o)
{
	return (o->raw_names ? SHAPE_RAW : 0) | (o->simple ? SHAPE_SIMPLE : 0) |
	       (o->signatures ? SHAPE_SIGNATURES : 0);
}

const char *report_name_frame(const struct pj_frame *fr, const char *name,
			      const char *module, unsigned int shape,
			      bool lines, enum report_style style, char *buf,
			      size_t len)
{
	const char *sfx;
	size_t at = 0;

	if (!len)
		return buf;
	buf[0] = 0;
	if (*name) {
		char shaped[4096];

		report_shape_name(name, (enum pj_frame_type)fr->type, shape,
				  shaped, sizeof(shaped));
		put(buf, len, &at, shaped, style);
	} else if (*module) {
		const char *slash = strrchr(module, '/');

		put(buf, len, &at, "[", style);
		put(buf, len, &at, slash && slash[1] ? slash + 1 : module,
		    style);
		put(buf, len, &at, "]", style);
	} else {
		put(buf, len, &at, "[unknown]", style);
	}
	if (lines && fr->line && style != REPORT_BARE) {
		char num[16];

		snprintf(num, sizeof(num), ":%u", fr->line);
		put(buf, len, &at, num, style);
	}
	sfx = fr->type < PJ_FRAME_TYPE_MAX ? suffix[fr->type] : NULL;
	if (sfx && style != REPORT_BARE &&
	    (style == REPORT_FOLDED || fr->type == PJ_FRAME_KERNEL))
		put(buf, len, &at, sfx, style);
	return buf;
}

const char *report_frame_name(const struct report *r, uint32_t f,
			      enum report_style style, char *buf, size_t len)
{
	const struct pj_profile *p = r->p;
	const struct pj_frame *fr;
	size_t at = 0;

	if (!len)
		return buf;
	buf[0] = 0;
	if (f >= p->nframes) {
		f -= p->nframes;
		put(buf, len, &at, f < r->nlabels ? r->labels[f] : "[?]",
		    style);
		return buf;
	}
	fr = &p->frames[f];
	return report_name_frame(fr, pj_str(p, fr->name), pj_str(p, fr->module),
				 report_shape_flags(r->o), r->o->lines, style,
				 buf, len);
}

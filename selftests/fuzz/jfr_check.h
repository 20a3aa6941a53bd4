/* SPDX-License-Identifier: GPL-2.0 */
/* What the JFR fuzz targets (fuzz_jfr.c, fuzz_jfr_struct.c) ask of a file:
 * read as a profile (pj_profile_load, through /proc/self/fd) it loads, or
 * fails with one line; loaded, every id is in range and every string safe
 * for a terminal. abort() otherwise. */
#ifndef PJ_FUZZ_JFR_CHECK_H
#define PJ_FUZZ_JFR_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/io.h"

static inline void jfr_check_file(int fd)
{
	struct pj_profile *p;
	char path[64], err[256];
	size_t i, sum = 0;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (pj_profile_load(path, &p, err, sizeof(err))) {
		if (strchr(err, '\n'))
			abort(); /* one line */
		return;
	}
	for (i = 0; i < p->nstrings; i++)
		for (const char *c = p->strings[i]; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				abort();
	for (i = 0; i < p->nframes; i++)
		if (p->frames[i].name >= p->nstrings ||
		    p->frames[i].module >= p->nstrings ||
		    p->frames[i].type >= PJ_FRAME_TYPE_MAX)
			abort();
	for (i = 0; i < p->nstacks; i++) {
		if (p->stack_start[i + 1] < p->stack_start[i])
			abort();
		for (uint32_t j = p->stack_start[i]; j < p->stack_start[i + 1];
		     j++)
			if (p->stack_frames[j] >= p->nframes)
				abort();
	}
	for (i = 0; i < p->nsamples; i++) {
		const struct pj_sample *s = &p->samples[i];
		uint32_t e = 0;

		while (e < p->nevents && p->events[e].index != s->event)
			e++;
		if (s->stack >= p->nstacks || s->info >= p->nstrings ||
		    e == p->nevents)
			abort();
	}
	for (i = 0; i < p->nthreads; i++)
		sum += strlen(pj_profile_thread_name(p, p->threads[i].pid,
						     p->threads[i].tid));
	sum += strlen(pj_profile_meta(p, "cmdline") ?: "");
	pj_profile_free(p);
	if (sum == (size_t)-1)
		abort();
}

#endif

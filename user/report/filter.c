// SPDX-License-Identifier: GPL-2.0
/*
 * --include / --exclude: which stacks have a frame whose name matches a POSIX
 * extended regex. Every frame is matched once, then every stack is marked
 * from its frames, so that selecting a sample is one table look-up.
 * A stack passes when it has a frame matching any --include (or there is
 * none) and no frame matching any --exclude.
 */
#include <stdlib.h>

#include "report/report.h"

#define NAME_LEN 4096

enum { MATCH_INCLUDE = 1, MATCH_EXCLUDE = 2 };

static bool any_match(const regex_t *re, unsigned int n, const char *name)
{
	for (unsigned int i = 0; i < n; i++)
		if (!regexec(&re[i], name, 0, NULL, 0))
			return true;
	return false;
}

int report_filter_stacks(struct report *r)
{
	const struct pj_profile *p = r->p;
	const struct report_opts *o = r->o;
	uint8_t *match, *ok;
	char *name;

	if (!o->ninclude && !o->nexclude)
		return 0;
	match = calloc(p->nframes ? p->nframes : 1, 1);
	ok = malloc(p->nstacks ? p->nstacks : 1);
	name = malloc(NAME_LEN);
	if (!match || !ok || !name) {
		free(match);
		free(ok);
		free(name);
		return -1;
	}
	for (uint32_t f = 0; f < p->nframes; f++) {
		report_frame_name(r, f, REPORT_PLAIN, name, NAME_LEN);
		if (any_match(o->include, o->ninclude, name))
			match[f] |= MATCH_INCLUDE;
		if (any_match(o->exclude, o->nexclude, name))
			match[f] |= MATCH_EXCLUDE;
	}
	for (uint32_t s = 0; s < p->nstacks; s++) {
		uint8_t seen = 0;

		for (uint32_t j = p->stack_start[s]; j < p->stack_start[s + 1];
		     j++)
			seen |= match[p->stack_frames[j]];
		ok[s] = (!o->ninclude || (seen & MATCH_INCLUDE)) &&
			!(seen & MATCH_EXCLUDE);
	}
	free(match);
	free(name);
	r->stack_ok = ok;
	return 0;
}

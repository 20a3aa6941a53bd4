// SPDX-License-Identifier: GPL-2.0
/*
 * --include / --exclude: which stacks have a frame whose name matches a POSIX
 * extended regex. Every frame is matched once, then every stack is marked
 * from its frames, so that selecting a sample is one table look-up.
 * A stack passes when it has a frame matching any --include (or there is
 * none) and no frame matching any --exclude. With --threads the thread root
 * ("[main tid=10]") is one of its frames, with --processes the process's
 * ("[java pid=9]"): each thread's labels are matched once, and a sample
 * passes on its stack's matches and its roots'.
 * report_sample_selected() is the one place where samples are chosen: the
 * event, --state, --tid, --pid, these filters and --from/--to.
 */
#include <stdlib.h>

#include "report/filter.h"
#include "report/names.h"
#include "report/procs.h"
#include "report/wallview.h"

#define NAME_LEN 4096

enum { MATCH_INCLUDE = 1, MATCH_EXCLUDE = 2 };

struct report_tmatch {
	uint64_t key; /* pid << 32 | tid */
	uint8_t match;
};

static bool any_match(const regex_t *re, unsigned int n, const char *name)
{
	for (unsigned int i = 0; i < n; i++)
		if (!regexec(&re[i], name, 0, NULL, 0))
			return true;
	return false;
}

static uint8_t match_of(const struct report_opts *o, const char *name)
{
	return (any_match(o->include, o->ninclude, name) ? MATCH_INCLUDE : 0) |
	       (any_match(o->exclude, o->nexclude, name) ? MATCH_EXCLUDE : 0);
}

static bool passes(const struct report_opts *o, uint8_t seen)
{
	return (!o->ninclude || (seen & MATCH_INCLUDE)) &&
	       !(seen & MATCH_EXCLUDE);
}

static int by_key(const void *a, const void *b)
{
	uint64_t x = ((const struct report_tmatch *)a)->key;
	uint64_t y = ((const struct report_tmatch *)b)->key;

	return x < y ? -1 : x > y;
}

static uint64_t key_of(const struct pj_sample *s)
{
	return (uint64_t)s->pid << 32 | s->tid;
}

/* --threads, --processes: the matches of each thread's root labels,
 * sorted by pid and tid. */
static int match_roots(struct report *r, char *name)
{
	const struct pj_profile *p = r->p;
	struct report_tmatch *t =
	    malloc((p->nsamples ? p->nsamples : 1) * sizeof(*t));
	size_t n = 0;

	if (!t)
		return -1;
	for (size_t i = 0; i < p->nsamples; i++)
		t[i].key = key_of(&p->samples[i]);
	qsort(t, p->nsamples, sizeof(*t), by_key);
	for (size_t i = 0; i < p->nsamples; i++)
		if (!n || t[n - 1].key != t[i].key)
			t[n++] = t[i];
	for (size_t i = 0; i < n; i++) {
		uint32_t pid = (uint32_t)(t[i].key >> 32);

		t[i].match = 0;
		if (r->o->threads) {
			report_thread_label(p, pid, (uint32_t)t[i].key, name,
					    NAME_LEN);
			t[i].match |= match_of(r->o, name);
		}
		if (r->o->processes) {
			report_process_label(p, pid, name, NAME_LEN);
			t[i].match |= match_of(r->o, name);
		}
	}
	r->tmatch = t;
	r->ntmatch = n;
	return 0;
}

int report_filter_stacks(struct report *r)
{
	const struct pj_profile *p = r->p;
	const struct report_opts *o = r->o;
	uint8_t *match, *ok;
	char *name;
	int ret = -1;

	if (!o->ninclude && !o->nexclude)
		return 0;
	match = calloc(p->nframes ? p->nframes : 1, 1);
	ok = malloc(p->nstacks ? p->nstacks : 1);
	name = malloc(NAME_LEN);
	if (!match || !ok || !name ||
	    ((o->threads || o->processes) && match_roots(r, name)))
		goto out;
	for (uint32_t f = 0; f < p->nframes; f++) {
		report_frame_name(r, f, REPORT_PLAIN, name, NAME_LEN);
		match[f] = match_of(o, name);
	}
	for (uint32_t s = 0; s < p->nstacks; s++) {
		uint8_t seen = 0;

		for (uint32_t j = p->stack_start[s]; j < p->stack_start[s + 1];
		     j++)
			seen |= match[p->stack_frames[j]];
		/* with thread roots: the matches, judged per sample */
		ok[s] = r->tmatch ? seen : passes(o, seen);
	}
	r->stack_ok = ok;
	ok = NULL;
	ret = 0;
out:
	free(ok);
	free(match);
	free(name);
	return ret;
}

bool report_filter_pass(const struct report *r, const struct pj_sample *s)
{
	struct report_tmatch key = { .key = key_of(s) }, *t;
	uint8_t seen;

	if (!r->stack_ok)
		return true;
	if (s->stack >= r->p->nstacks)
		return false;
	if (!r->tmatch)
		return r->stack_ok[s->stack];
	t = bsearch(&key, r->tmatch, r->ntmatch, sizeof(key), by_key);
	seen = r->stack_ok[s->stack] | (t ? t->match : 0);
	return passes(r->o, seen);
}

/* The one place where samples are chosen; filters go here. */
bool report_sample_selected(const struct report *r, const struct pj_sample *s)
{
	const struct report_opts *o = r->o;

	if (r->event && !r->all_events && s->event != r->event->index)
		return false;
	if (o->states && !report_state_selected(r, s))
		return false;
	if (o->ntids && !report_has_id(o->tids, o->ntids, s->tid))
		return false;
	if (o->npids && !report_has_id(o->pids, o->npids, s->pid))
		return false;
	if (!report_filter_pass(r, s))
		return false;
	if (o->from > 0 || o->to >= 0) {
		double t = report_secs(r, s->time);

		if (t < o->from || (o->to >= 0 && t >= o->to))
			return false;
	}
	return true;
}

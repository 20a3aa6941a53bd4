// SPDX-License-Identifier: GPL-2.0
/*
 * Reports of off-CPU and wall-clock recordings (record's -e offcpu,
 * --wall): off-CPU samples weigh the time their thread waited, so such
 * reports count time (as --total) by default; a file with offcpu and
 * another event shows the whole timeline (every event) unless --event picks
 * one, or --event wall asks for it; --state keeps the samples of some
 * states, named by the leaf frame record gave them ([off-cpu: sleep]) or
 * "running" for on-CPU samples.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/wallview.h"

static const char *const states[REPORT_NSTATES] = {
	"running", "sleep", "io", "lock", "runnable", "blocked", "wait",
};

int report_parse_states(const char *arg, unsigned int *mask)
{
	const char *p = arg;

	*mask = 0;
	while (*p) {
		size_t n = strcspn(p, ",");
		unsigned int i = 0;

		while (i < REPORT_NSTATES &&
		       (strlen(states[i]) != n || strncmp(p, states[i], n)))
			i++;
		if (i == REPORT_NSTATES)
			return -1;
		*mask |= 1u << i;
		p += n;
		if (*p)
			p++;
	}
	return *mask ? 0 : -1;
}

uint8_t report_stack_state(const struct pj_profile *p, uint32_t st)
{
	static const char prefix[] = "[off-cpu: ";
	const char *name;
	size_t n;

	if (st >= p->nstacks || p->stack_start[st] == p->stack_start[st + 1])
		return 0;
	name = pj_str(p, p->frames[p->stack_frames[p->stack_start[st]]].name);
	if (strncmp(name, prefix, sizeof(prefix) - 1))
		return 0;
	name += sizeof(prefix) - 1;
	n = strcspn(name, "]");
	for (uint8_t i = 1; i < REPORT_NSTATES; i++)
		if (strlen(states[i]) == n && !strncmp(name, states[i], n))
			return i;
	return 0;
}

static bool is_offcpu(const struct pj_event_desc *e)
{
	return e && !strcmp(e->name, "offcpu");
}

int report_wall_setup(struct report *r, struct report_opts *o)
{
	const struct pj_profile *p = r->p;
	bool offcpu = false;

	for (uint32_t i = 0; i < p->nevents; i++)
		offcpu |= is_offcpu(&p->events[i]);
	if (o->event && !strcmp(o->event, "wall") &&
	    !(r->event && !strcmp(r->event->name, "wall"))) {
		if (!offcpu)
			return -1;
		r->all_events = true;
	} else if (!o->event && offcpu && p->nevents > 1) {
		r->all_events = true; /* the whole timeline */
	}
	if (r->all_events || is_offcpu(r->event))
		o->total = true; /* waits weigh their length */
	if (!o->states)
		return 0;
	if (!offcpu)
		return -3;
	r->stack_state = calloc(p->nstacks ? p->nstacks : 1, 1);
	if (!r->stack_state)
		return -2;
	for (uint32_t st = 0; st < p->nstacks; st++)
		r->stack_state[st] = report_stack_state(p, st);
	return 0;
}

void report_title(const struct report *r, const char *what, char *buf,
		  size_t len)
{
	if (r->all_events)
		snprintf(buf, len, "%s (wall: on-CPU and off-CPU time)", what);
	else if (is_offcpu(r->event))
		snprintf(buf, len, "%s (offcpu: time off CPU)", what);
	else if (r->event)
		snprintf(buf, len, "%s (%s)", what, r->event->name);
	else
		snprintf(buf, len, "%s", what);
}

bool report_state_selected(const struct report *r, const struct pj_sample *s)
{
	uint8_t st;

	if (!r->o->states)
		return true;
	st = r->stack_state && s->stack < r->p->nstacks
		 ? r->stack_state[s->stack]
		 : 0;
	return r->o->states & (1u << st);
}

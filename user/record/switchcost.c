// SPDX-License-Identifier: GPL-2.0
/* The CPU time a clock event cannot sample; see record/switchcost.h. */
#include <stdio.h>

#include "record/perf_parse.h"
#include "record/record.h"
#include "record/switchcost.h"

void switchcost_sample(struct switch_cost *c, struct ring *r,
		       const struct pj_raw_sample *rs, struct pj_sample *s)
{
	uint64_t d;

	if (rs->nread < 1)
		return;
	c->nominal_ns += s->period;
	/* after lost records, or sampling throttled by the kernel, the time
	 * is not this sample's: it keeps the period */
	d = rs->read[0] - r->last_count;
	if (rs->read[0] > r->last_count && !r->lost_since)
		s->period = d;
	r->last_count = rs->read[0];
	r->lost_since = false;
	c->sampled_ns += s->period;
	r->sampled = true;
	if (rs->nread < 2 || rs->read[1] < r->last_switches)
		return;
	d = rs->read[1] - r->last_switches;
	r->last_switches = rs->read[1];
	s->switches = d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
	c->sampled_switches += s->switches;
}

void switchcost_lost(struct ring *r)
{
	r->lost_since = true;
}

void switchcost_tick(struct recorder *rec, uint64_t now)
{
	if (now < rec->swc_next)
		return;
	rec->swc_next = now + SWITCH_COST_TICK_NS;
	switchcost_take(rec, false);
}

void switchcost_take(struct recorder *rec, bool all)
{
	struct switch_cost *c = &rec->swc;

	for (unsigned int i = 0; i < rec->th.n; i++) {
		struct ring *r = rec->th.v[i];
		struct ring_clocks now;

		if (!all && !r->sampled)
			continue;
		r->sampled = false;
		if (ring_read_clocks(r, &now)) {
			r->marked = false;
			continue;
		}
		if (r->marked && now.thread_ns >= r->mark.thread_ns &&
		    now.event_ns >= r->mark.event_ns &&
		    now.switches >= r->mark.switches) {
			c->thread_ns += now.thread_ns - r->mark.thread_ns;
			c->event_ns += now.event_ns - r->mark.event_ns;
			c->switches += now.switches - r->mark.switches;
			if (!r->counted)
				c->threads++;
			r->counted = true;
		}
		r->mark = now;
		r->marked = true;
	}
}

uint64_t switchcost_ps(const struct switch_cost *c)
{
	uint64_t ps;

	if (c->switches < SWITCH_COST_MIN_SWITCHES ||
	    c->thread_ns <= c->event_ns)
		return 0;
	ps = (c->thread_ns - c->event_ns) * 1000 / c->switches;
	/* more than 1 ms a switch is no switch cost: not measured */
	return ps > 1000000000ull ? 0 : ps;
}

void switchcost_write_stats(struct recorder *rec)
{
	const struct switch_cost *c = &rec->swc;

	if (c->nominal_ns) {
		pj_writer_stat(rec->w, "clock_nominal_ns", c->nominal_ns);
		pj_writer_stat(rec->w, "clock_sampled_ns", c->sampled_ns);
	}
	if (!c->threads)
		return;
	pj_writer_stat(rec->w, "switch_cost_ps", switchcost_ps(c));
	pj_writer_stat(rec->w, "switch_cost_switches", c->switches);
	pj_writer_stat(rec->w, "switch_cost_thread_ns", c->thread_ns);
	pj_writer_stat(rec->w, "switch_cost_event_ns", c->event_ns);
	pj_writer_stat(rec->w, "switch_cost_threads", c->threads);
}

void switchcost_next_file(struct recorder *rec)
{
	rec->swc = (struct switch_cost){ 0 };
	for (unsigned int i = 0; i < rec->th.n; i++)
		rec->th.v[i]->counted = false;
}

void switchcost_summary(const struct recorder *rec)
{
	const struct switch_cost *c = &rec->swc;
	uint64_t ps = switchcost_ps(c);
	double timed = (double)c->sampled_ns + c->sampled_switches * ps / 1e3;

	/* under 1 ms a clock's timer falls behind; lost records say likewise */
	const struct pj_event *ev = &rec->evs[0];
	bool fast = rec->st.lost || ev->freq > 1000 ||
		    (ev->period && ev->period < 1000000);

	if (!c->nominal_ns || timed < c->nominal_ns * 1.02)
		return;
	fprintf(stderr,
		"perfjava: %s's samples stand for %.1f%% more time than their "
		"count: the kernel missed samples due %s (%.1f%%)",
		ev->name, 100.0 * (timed / c->nominal_ns - 1),
		fast ? "at this rate (sample less often: -c 1ms, -F 999)"
		     : "in short runs between waits",
		100.0 * ((double)c->sampled_ns / c->nominal_ns - 1));
	if (ps)
		fprintf(stderr, ", and %llu context switches took %.1f us each",
			(unsigned long long)c->sampled_switches, ps / 1e6);
	fprintf(stderr, "; report --total and pprof count that time\n");
}

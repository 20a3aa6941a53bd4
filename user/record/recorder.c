// SPDX-License-Identifier: GPL-2.0
/*
 * A recorder made ready to take ring records: its events parsed and their
 * periods chosen, tracepoint decoders, the output writer with the event
 * table, the symbolizer of the target. `perfjava record` (record/record.c)
 * and the unit tests that feed synthesized records build it the same way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "events/lbr.h"
#include "events/tracepoint.h"
#include "record/record.h"
#include "record/loop.h"
#include "record/jevents.h"
#include "record/wall.h"

/* Loads the formats that decode tracepoint samples into their info. */
static int setup_tracepoints(struct recorder *rec)
{
	char err[512];

	for (unsigned int i = 0; i < rec->nevents; i++) {
		const struct pj_event *ev = &rec->evs[i];

		if (!ev->tracepoint)
			continue;
		if (!rec->tp && !(rec->tp = tp_decoder_new())) {
			fprintf(stderr, "perfjava: out of memory\n");
			return -1;
		}
		if (tp_decoder_add(rec->tp, ev->tp_sys, ev->tp_name, err,
				   sizeof(err))) {
			fprintf(stderr, "perfjava: %s\n", err);
			return -1;
		}
	}
	return 0;
}

/*
 * -F and -c apply to the events without their own rate: each must reach
 * one, and -c in a time unit only clocks. One line says which and why.
 */
static int check_rate_options(const struct recorder *rec)
{
	const char *opt = rec->o.freq ? "-F" : "-c";
	bool used = false;

	if (!rec->o.freq && !rec->o.period)
		return 0;
	for (unsigned int i = 0; i < rec->nevents; i++) {
		const struct pj_event *ev = &rec->evs[i];

		if (wall_is_offcpu(rec, i) || jevents_is(rec, i) || ev->freq ||
		    ev->period)
			continue;
		if (rec->o.period_time && !event_is_clock(ev)) {
			fprintf(stderr,
				"perfjava: -c %s is a time, for cpu-clock and "
				"task-clock; %s is sampled every N of its "
				"events: give -c N\n",
				rec->o.period_arg, ev->name);
			return -1;
		}
		used = true;
	}
	if (!used) {
		fprintf(stderr, "perfjava: %s applies to no event here: %s\n",
			opt,
			rec->wall ? "offcpu records every wait (add cpu-clock, "
				    "or use --wall, to sample on CPU too)"
				  : "each event has its own period or freq");
		return -1;
	}
	return 0;
}

static int setup_events(struct recorder *rec)
{
	char err[256], expanded[4096], jexp[4096];
	bool fallback = false, offcpu[RING_MAX_EVENTS];
	uint8_t jkind[RING_MAX_EVENTS];
	const char *spec = rec->o.events;

	if (!spec) {
		spec = events_default(&fallback);
		if (fallback && !rec->o.quiet)
			fprintf(
			    stderr,
			    "perfjava: no hardware PMU (cycles); sampling cpu-clock instead\n");
	}
	if (jevents_expand(spec, jexp, sizeof(jexp), jkind, RING_MAX_EVENTS) ||
	    wall_expand(jexp, expanded, sizeof(expanded), offcpu,
			RING_MAX_EVENTS)) {
		fprintf(stderr, "perfjava: event list too long\n");
		return -1;
	}
	if (events_parse(expanded, &rec->evs, &rec->nevents, err,
			 sizeof(err))) {
		fprintf(stderr, "perfjava: %s\n", err);
		return -1;
	}
	if (rec->nevents > RING_MAX_EVENTS) {
		fprintf(stderr, "perfjava: at most %d events at once\n",
			RING_MAX_EVENTS);
		return -1;
	}
	if (wall_setup(rec, offcpu)) /* -e offcpu, -e wall, --wall */
		return -1;
	if (jevents_setup(rec, jkind)) /* -e alloc, -e lock */
		return -1;
	if (check_rate_options(rec))
		return -1;
	for (unsigned int i = 0; i < rec->nevents; i++) {
		struct pj_event *ev = &rec->evs[i];
		uint64_t freq = ev->freq ? ev->freq : rec->o.freq;
		uint64_t period = ev->period ? ev->period : rec->o.period;

		if (jevents_is(rec, i)) { /* the JVM's: no perf samples */
			ev->attr.freq = 0;
			ev->attr.sample_period = 0;
			continue;
		}
		if (!freq && !period) {
			if (event_is_clock(ev))
				period = RECORD_DEFAULT_PERIOD_NS;
			else if (event_counts_hits(ev))
				period = 1;
			else
				freq = RECORD_DEFAULT_FREQ;
		}
		if (freq)
			freq = record_clamp_freq(ev->name, freq, rec->o.quiet);
		ev->attr.freq = freq ? 1 : 0;
		ev->attr.sample_freq = freq ? freq : period;
		ev->freq = freq;
		ev->period = freq ? 0 : period;
	}
	rec->lbr = rec->o.cg.mode == CG_LBR;
	if (rec->lbr && lbr_check(rec->evs, rec->nevents, err, sizeof(err))) {
		fprintf(stderr, "perfjava: %s\n", err);
		return -1;
	}
	return setup_tracepoints(rec);
}

int recorder_init(struct recorder *rec, const struct record_opts *o)
{
	char err[512];

	memset(rec, 0, sizeof(*rec));
	rec->o = *o;
	rec->tgt.pidfd = -1;
	if (setup_events(rec))
		goto fail;
	rec->w = pj_writer_open(rec->o.output, err, sizeof(err));
	if (!rec->w) {
		fprintf(stderr, "perfjava: %s\n", err);
		goto fail;
	}
	if (symbolizer_init(&rec->sym, rec->w, rec->o.pid)) {
		fprintf(stderr,
			"perfjava: cannot read the symbols of process %d\n",
			rec->o.pid);
		pj_writer_abort(rec->w); /* and its file */
		rec->w = NULL;
		goto fail;
	}
	if (rec->o.cg.stack_size && !(rec->unw = unwinder_new(rec->o.pid))) {
		fprintf(stderr, "perfjava: out of memory\n");
		pj_writer_abort(rec->w); /* and its file */
		rec->w = NULL;
		goto fail;
	}
	record_describe_events(rec);
	return 0;
fail:
	recorder_free(rec);
	return -1;
}

void recorder_free(struct recorder *rec)
{
	if (rec->agent)
		agent_stop(rec->agent);
	rec->agent = NULL;
	threads_free(&rec->th);
	target_close(&rec->tgt);
	symbolizer_free(&rec->sym);
	memset(&rec->sym, 0, sizeof(rec->sym));
	unwinder_free(rec->unw);
	rec->unw = NULL;
	tp_decoder_free(rec->tp);
	ksig_free(&rec->ks);
	pending_free(rec);
	offjava_free(rec);
	rec->tp = NULL;
	wall_free(rec);
	jevents_free(rec);
	loop_free(rec);
	free(rec->evs);
	rec->evs = NULL;
	rec->nevents = 0;
	free(rec->st.lat);
	u64map_free(&rec->jnames);
	u64map_free(&rec->vnames);
	record_forget_bases(rec);
	rec->st.lat = NULL;
	rec->st.nlat = rec->st.caplat = 0;
}

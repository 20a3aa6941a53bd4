// SPDX-License-Identifier: GPL-2.0
/* A recorder made ready to take ring records; see record/recorder.h. */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "events/lbr.h"
#include "events/tracepoint.h"
#include "lib/clock.h"
#include "lib/file.h"
#include "pipeline/jevents.h"
#include "pipeline/wall.h"
#include "record/header.h"
#include "record/recorder.h"

/* Each process of rec->procs is a struct rproc (record/rproc.h). */
static void rproc_made(struct proc *p)
{
	rproc(p)->tgt.pidfd = -1;
}

static void rproc_drop(struct proc *p)
{
	target_close(&rproc(p)->tgt);
	free(rproc(p)->cmdline);
	rproc(p)->cmdline = NULL;
}

/* freq, or kernel.perf_event_max_sample_rate with a warning when above it. */
static uint64_t clamp_freq(const char *event, uint64_t freq, bool quiet)
{
	char buf[32];
	unsigned long long max;

	if (read_small_file("/proc/sys/kernel/perf_event_max_sample_rate", buf,
			    sizeof(buf)))
		return freq;
	max = strtoull(buf, NULL, 10);
	if (!max || freq <= max)
		return freq;
	if (!quiet)
		fprintf(stderr,
			"perfjava: warning: %s at %llu Hz is above "
			"kernel.perf_event_max_sample_rate; sampling at %llu "
			"Hz (raise the limit with sysctl "
			"kernel.perf_event_max_sample_rate=N)\n",
			event, (unsigned long long)freq, max);
	return max;
}

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

		if (wall_is_offcpu(rec->wall, i) || jevents_is(rec->jev, i) ||
		    ev->freq || ev->period)
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
	/* -e offcpu, -e wall, --wall */
	if (wall_setup(&rec->wall, rec->evs, rec->nevents, offcpu,
		       &(struct wall_links){ &rec->pend, &rec->oj, &rec->os,
					     &rec->em, &rec->procs }))
		return -1;
	rec->dec.wall = rec->wall;
	/* -e alloc, -e lock */
	if (jevents_setup(&rec->jev, rec->evs, rec->nevents, jkind, &rec->em,
			  &rec->th,
			  rec->wall ? (int)wall_event(rec->wall) : -1))
		return -1;
	if (check_rate_options(rec))
		return -1;
	for (unsigned int i = 0; i < rec->nevents; i++) {
		struct pj_event *ev = &rec->evs[i];
		uint64_t freq = ev->freq ? ev->freq : rec->o.freq;
		uint64_t period = ev->period ? ev->period : rec->o.period;

		if (jevents_is(rec->jev, i)) { /* the JVM's: no perf samples */
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
			freq = clamp_freq(ev->name, freq, rec->o.quiet);
		ev->attr.freq = freq ? 1 : 0;
		ev->attr.sample_freq = freq ? freq : period;
		ev->freq = freq;
		ev->period = freq ? 0 : period;
	}
	rec->dec.lbr = rec->o.cg.mode == CG_LBR;
	if (rec->dec.lbr &&
	    lbr_check(rec->evs, rec->nevents, err, sizeof(err))) {
		fprintf(stderr, "perfjava: %s\n", err);
		return -1;
	}
	return setup_tracepoints(rec);
}

/* Each stage is handed what it works with. */
static void wire(struct recorder *rec)
{
	struct decoder *d = &rec->dec;

	d->evs = rec->evs;
	d->nevents = rec->nevents;
	d->dwarf = rec->o.cg.mode == CG_DWARF;
	d->tp = rec->tp;
	rec->procs.w = rec->w;
	rec->procs.size = sizeof(struct rproc);
	rec->procs.made = rproc_made;
	rec->procs.drop = rproc_drop;
	rec->procs.unwind = rec->o.cg.stack_size != 0;
	/* what each process's walks at the sample work with */
	rec->procs.ks.th = &rec->th;
	rec->procs.ks.pend = &rec->pend;
	rec->procs.ks.event = jevents_take;
	rec->procs.ks.event_ctx = rec->jev;
	rec->em.w = rec->w;
	rec->em.procs = &rec->procs;
	rec->em.ksym = &rec->ksym;
	rec->em.bases.on = rec->o.native_base;
	rec->em.keep_self = rec->o.self;
	/* -a, -C: the recorder is among the processes */
	rec->em.self_pid = rec->o.system_wide ? getpid() : 0;
	d->walk_skips_cfi = !rec->o.native_base && !rec->o.no_java;
	rec->em.lbr = d->lbr;
	rec->cw.pend = &rec->pend;
	rec->cw.em = &rec->em;
	rec->oj.java = !rec->o.no_java;
	rec->oj.pend = &rec->pend;
	rec->oj.os = &rec->os;
	rec->oj.em = &rec->em;
}

void recorder_header(struct recorder *rec)
{
	bool java = false, first = true;

	for (unsigned int i = 0; i < rec->procs.n; i++)
		java |= rec->procs.v[i]->java;
	header_write(rec->w, rec->o.callgraph, java);
	if (rec->o.system_wide) { /* -a, -C */
		char cpus[1024] = "every CPU";

		if (rec->o.cpus.n) {
			memcpy(cpus, "CPUs ", 5);
			idlist_print(&rec->o.cpus, cpus + 5, sizeof(cpus) - 5);
		}
		pj_writer_meta(rec->w, "system_wide", cpus);
	}
	if (rec->o.tids.n) { /* -t: those threads alone */
		char tids[1024];

		idlist_print(&rec->o.tids, tids, sizeof(tids));
		pj_writer_meta(rec->w, "tids", tids);
	}
	for (unsigned int i = 0; i < rec->procs.n; i++) {
		const struct proc *p = rec->procs.v[i];

		if (rec->mach) /* -a: named as they come (record/machine.h) */
			continue;
		if (rproc(p)->child) { /* as it was named (it may be gone) */
			family_write(rec, p);
			continue;
		}
		header_process(rec->w, p->pid, p->java, rproc(p)->target,
			       rproc(p)->target && first);
		first &= !rproc(p)->target;
	}
}

struct proc *recorder_first(const struct recorder *rec)
{
	for (unsigned int i = 0; i < rec->procs.n; i++)
		if (rproc(rec->procs.v[i])->target)
			return rec->procs.v[i];
	return NULL;
}

int recorder_init(struct recorder *rec, const struct record_opts *o)
{
	char err[512];
	struct proc *p;

	memset(rec, 0, sizeof(*rec));
	rec->o = *o;
	rec->owner = &family_owner; /* (-a, -C: machine_new's) */
	rec->cpus = sysconf(_SC_NPROCESSORS_ONLN) > 0
			? (unsigned int)sysconf(_SC_NPROCESSORS_ONLN)
			: 1; /* the drain's pace (record/run.c) */
	if (setup_events(rec))
		goto fail;
	/* no output: perfjava top, whose tap takes what the file would */
	if (rec->o.output)
		rec->w = pj_writer_open(rec->o.output, err, sizeof(err));
	else if (!(rec->w = pj_writer_open_mem(rec->o.tap)))
		snprintf(err, sizeof(err), "out of memory");
	if (!rec->w) {
		fprintf(stderr, "perfjava: %s\n", err);
		goto fail;
	}
	ksymbolizer_init(&rec->ksym, rec->w);
	header_describe_events(rec->w, rec->evs, rec->nevents);
	wire(rec);
	if (!rec->o.pid)
		return 0;
	p = procs_add(&rec->procs, rec->o.pid, PROCS_UNWIND);
	if (!p) {
		fprintf(stderr, "perfjava: out of memory\n");
		pj_writer_abort(rec->w); /* and its file */
		rec->w = NULL;
		goto fail;
	}
	rproc(p)->target = true;
	return 0;
fail:
	recorder_free(rec);
	return -1;
}

void recorder_free(struct recorder *rec)
{
	threads_free(&rec->th);
	wall_free(rec->wall); /* before what its waits use */
	rec->wall = NULL;
	pending_free(&rec->pend);
	offjava_free(&rec->oj);
	cpuwalk_free(&rec->cw);
	switchcost_free(&rec->sc);
	jevents_free(rec->jev);
	rec->jev = NULL;
	emit_free(&rec->em);
	procs_free(&rec->procs); /* their agents stopped */
	ksymbolizer_free(&rec->ksym);
	memset(&rec->ksym, 0, sizeof(rec->ksym));
	tp_decoder_free(rec->tp);
	rec->tp = NULL;
	free(rec->evs);
	rec->evs = NULL;
	rec->nevents = 0;
}

void recorder_set_java(struct recorder *rec, struct proc *p, bool java)
{
	p->java = java;
}

void recorder_set_agent(struct recorder *rec, struct proc *p, struct agent *a)
{
	p->agent = a;
	rproc(p)->had_agent |= a != NULL;
}

bool recorder_any_agent(const struct recorder *rec)
{
	for (unsigned int i = 0; i < rec->procs.n; i++)
		if (rec->procs.v[i]->agent)
			return true;
	return false;
}

void recorder_mark_start(struct recorder *rec, uint64_t now)
{
	rec->start_ns = now;
	rec->oj.start_ns = now;
	header_mark_start(rec->w, now);
}

/* One round of the agents' answers: at most 10 ms of waiting for them;
 * false when none is left to wait for. */
static bool agents_round(struct recorder *rec)
{
	struct pollfd pf[64];
	struct proc *by[64];
	unsigned int n = 0;

	for (unsigned int i = 0; i < rec->procs.n && n < 64; i++) {
		struct proc *p = rec->procs.v[i];

		int more;

		/* one that stopped reading answers nothing: not waited for */
		if (!p->agent || (more = agent_flush(p->agent)) < 0 ||
		    agent_deaf(p->agent, now_ns()))
			continue;
		pf[n] =
		    (struct pollfd){ agent_fd(p->agent),
				     (short)(more ? POLLIN | POLLOUT : POLLIN),
				     0 };
		by[n++] = p;
	}
	if (!n || poll(pf, n, 10) < 0)
		return false;
	for (unsigned int i = 0; i < n; i++) {
		struct proc *p = by[i];

		if (pf[i].revents &&
		    agent_process(p->agent, cpuwalk_done, &rec->cw))
			continue;
		ksig_collect(&p->ks, p->agent);
		ksig_match(&p->ks);
	}
	return true;
}

void recorder_finish_waits(struct recorder *rec)
{
	/* stack copies in flight are the waits' own frames: worth a second
	 * of an agent that a loaded machine keeps from its CPU; walks at the
	 * sample come at once, asked for (PJA_PUMP), not at the agent's next
	 * pump (400 ms at most, wring.c) */
	uint64_t end =
	    now_ns() + (rec->oj.copies_out ? 1000000000ULL : 500000000ULL);

	for (unsigned int i = 0; i < rec->procs.n; i++)
		if (rec->procs.v[i]->agent && pending_in_flight(&rec->pend) &&
		    agent_ask_pump(rec->procs.v[i]->agent)) {
			/* its queue is full: its pump comes anyway */
		}
	offjava_ask(&rec->oj, &rec->procs);
	while (pending_in_flight(&rec->pend) && now_ns() < end &&
	       agents_round(rec))
		;
	pending_expire(&rec->pend, 0, true);
}

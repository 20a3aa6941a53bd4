// SPDX-License-Identifier: GPL-2.0
/* The recording's statistics: the trailer written into the file and the
 * summary printed on stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "perfjava/agent_proto.h"
#include "pipeline/jevents.h"
#include "pipeline/wall.h"
#include "profile/io.h"
#include "profile/javaloss.h"
#include "record/family.h"
#include "record/machine.h"
#include "record/recorder.h"
#include "record/summary.h"

/* Whether the recording is to speak of Java walks: a JVM whose agent was
 * not refused at the start. */
static bool walks_wanted(const struct recorder *rec)
{
	for (unsigned int i = 0; i < rec->procs.n; i++)
		if (rec->procs.v[i]->java &&
		    !rproc(rec->procs.v[i])->java_failed)
			return !rec->o.no_java;
	return false;
}

/* The agents' counters, of every JVM. */
static void agents_stats(const struct recorder *rec, struct agent_stats *sum)
{
	memset(sum, 0, sizeof(*sum));
	for (unsigned int i = 0; i < rec->procs.n; i++) {
		const struct agent_stats *a = &rproc(rec->procs.v[i])->ast;

		for (unsigned int k = 0; k < 16; k++)
			sum->asgct[k] += a->asgct[k];
		for (unsigned int k = 0; k < 8; k++)
			sum->recovered[k] += a->recovered[k];
		sum->unsent += a->unsent;
		sum->over_budget += a->over_budget;
		if (a->methods_probe_max > sum->methods_probe_max)
			sum->methods_probe_max = a->methods_probe_max;
	}
}

/* How many processes are JVMs. */
static unsigned int jvms(const struct recorder *rec)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < rec->procs.n; i++)
		n += rec->procs.v[i]->java;
	return n;
}

/* The account of lost Java walks (profile/javaloss.h): the walks' ends,
 * and every JVM's walks at the sample. */
static void java_loss(const struct recorder *rec, struct pj_java_loss *l)
{
	const struct cpuwalk_stats *st = &rec->cw.st;
	struct ksig ks = { 0 };

	pj_java_loss_init(l);
	if (!walks_wanted(rec))
		return;
	l->ok = st->walks[AGENT_WALK_OK];
	l->not_java = st->walks[AGENT_WALK_NOT_JAVA];
	l->not_walkable = st->walks[AGENT_WALK_NOT_WALKABLE];
	l->timeout = st->walks[AGENT_WALK_TIMEOUT];
	l->fault = st->walks[AGENT_WALK_FAULT];
	l->gone = st->walks[AGENT_WALK_GONE];
	l->lost = st->walks[AGENT_WALK_LOST];
	for (unsigned int i = 0; i < rec->procs.n; i++)
		ksig_add(&ks, &rec->procs.v[i]->ks);
	ksig_loss(&ks, l);
}

/* The warning when a JVM's samples lost more than a tenth of their Java
 * frames, with its cause: said even with -q (report's header says it
 * too). */
static void java_warning(const struct recorder *rec)
{
	struct pj_java_loss l;
	char line[768];

	java_loss(rec, &l);
	if (pj_java_loss_line(&l, line, sizeof(line)))
		fprintf(stderr, "perfjava: warning: %s\n", line);
}

void record_write_stats(struct recorder *rec)
{
	const struct cpuwalk_stats *st = &rec->cw.st;
	const struct decode_stats *ds = &rec->dec.st;
	struct agent_stats ast;
	struct ksig ks = { 0 };
	uint64_t p50, p99, max, own = 0;
	static const char *const walk_keys[] = {
		"walk_ok",	"walk_not_java", "walk_not_walkable",
		"walk_timeout", "walk_fault",	 "walk_gone",
		"walk_lost",
	};

	for (unsigned int i = 0; i < RING_MAX_EVENTS; i++)
		own += rec->em.st.own_samples[i];
	pj_writer_stat(rec->w, "samples", rec->em.st.samples);
	/* perfjava's own, left out unless --self */
	pj_writer_stat(rec->w, "own_samples", own);
	pj_writer_stat(rec->w, "lost", rec->lost);
	pj_writer_stat(rec->w, "bad_records", ds->bad_records);
	pj_writer_stat(rec->w, "threads", rec->th.opened);
	pj_writer_stat(rec->w, "start_ns", rec->start_ns);
	pj_writer_stat(rec->w, "duration_ns", rec->end_ns - rec->start_ns);
	offjava_write_stats(&rec->oj, rec->w);
	switchcost_write_stats(&rec->sc, rec->w);
	family_write_stats(rec);
	machine_write_stats(rec); /* -a: the processes not named, whose */
	if (rec->o.cg.stack_size) {
		pj_writer_stat(rec->w, "unwind_complete",
			       ds->unwind[UNWIND_COMPLETE]);
		pj_writer_stat(rec->w, "unwind_cut", ds->unwind[UNWIND_CUT]);
		pj_writer_stat(rec->w, "unwind_no_cfi",
			       ds->unwind[UNWIND_NO_CFI]);
		pj_writer_stat(rec->w, "unwind_no_copy",
			       ds->unwind[UNWIND_NO_COPY]);
		pj_writer_stat(rec->w, "unwind_fast", ds->unwc.fast);
		pj_writer_stat(rec->w, "unwind_libdw", ds->unwc.libdw);
		if (ds->unwc.checked) { /* PERFJAVA_UNWIND_CHECK */
			pj_writer_stat(rec->w, "unwind_checked",
				       ds->unwc.checked);
			pj_writer_stat(rec->w, "unwind_differ",
				       ds->unwc.differ);
		}
	}
	if (!walks_wanted(rec))
		return;
	agents_stats(rec, &ast);
	for (unsigned int i = 0; i <= AGENT_WALK_LOST; i++)
		pj_writer_stat(rec->w, walk_keys[i], st->walks[i]);
	pj_writer_stat(rec->w, "walk_no_answer", st->no_answer);
	pj_writer_stat(rec->w, "walk_not_sent", ast.unsent);
	pj_writer_stat(rec->w, "agent_over_budget", ast.over_budget);
	pj_writer_stat(rec->w, "agent_methods_probe_max",
		       ast.methods_probe_max);
	pj_writer_stat(rec->w, "walk_checked", st->checked);
	pj_writer_stat(rec->w, "walk_agreed", st->agreed);
	pj_writer_stat(rec->w, "walk_moved_on", st->moved_on);
	for (unsigned int i = 0; i < rec->procs.n; i++)
		ksig_add(&ks, &rec->procs.v[i]->ks);
	ksig_write_stats(&ks, rec->w);
	{
		struct pj_java_loss l;

		java_loss(rec, &l);
		pj_java_loss_write(&l, rec->w);
	}
	jevents_write_stats(rec->jev, rec->w);
	pj_writer_stat(rec->w, "walk_recovered_stub", ast.recovered[1]);
	pj_writer_stat(rec->w, "walk_recovered_epilogue", ast.recovered[2]);
	pj_writer_stat(rec->w, "walk_recovered_frame", ast.recovered[4]);
	pj_writer_stat(rec->w, "walk_recovered_compiled",
		       ast.recovered[PJA_HOW_COMPILED]);
	pj_writer_stat(rec->w, "walk_recovered_vm", ast.recovered[PJA_HOW_VM]);
	for (unsigned int i = 1; i < 16; i++) {
		char key[32];

		if (!ast.asgct[i])
			continue;
		snprintf(key, sizeof(key), "walk_asgct_%u", i);
		pj_writer_stat(rec->w, key, ast.asgct[i]);
	}
	if (cpuwalk_latency(&rec->cw, &p50, &p99, &max)) {
		pj_writer_stat(rec->w, "walk_p50_ns", p50);
		pj_writer_stat(rec->w, "walk_p99_ns", p99);
		pj_writer_stat(rec->w, "walk_max_ns", max);
	}
}

/* Which source named kernel frames, or why none could: said only when kernel
 * frames were recorded at all. */
static void kernel_symbols(const struct recorder *rec)
{
	char line[512];

	if (rec->th.opts.exclude_kernel)
		return;
	ksource_describe(&rec->ksym.kernel, line, sizeof(line));
	fprintf(stderr, "perfjava: kernel frames %s\n", line);
}

#define STR_(x) #x
#define STR(x) STR_(x)

/*
 * Why records were lost, and what to do: each thread's ring (its pages
 * said, the ones in effect) filled before the reader emptied it. With
 * -e offcpu or --wall, every switch-out is a record (a JVM's with its 8 KiB
 * stack copy): their rate is no -c or -F's to lower.
 */
static void lost_summary(struct recorder *rec, double secs)
{
	unsigned int pages = rec->th.opts.pages,
		     more = pages < 1024 ? pages * 4 : 4096;
	uint32_t ev = wall_event(rec->wall);
	uint64_t outs = rec->wall ? rec->em.st.event_samples[ev] : 0;

	fprintf(stderr,
		"perfjava: %llu samples lost: the rings (%u page%s, %u KiB a "
		"thread) filled faster than the reader emptied them",
		(unsigned long long)rec->lost, pages, pages == 1 ? "" : "s",
		pages * 4);
	if (outs && secs > 0)
		fprintf(
		    stderr, " (%.0f switch-outs a second%s)", outs / secs,
		    wall_java_copied(rec->wall)
			? ", each with " STR(WALL_JAVA_COPY) " bytes of stack"
			: "");
	fprintf(stderr, "; give more pages per thread (-m %u)", more);
	if (rec->nevents > (rec->wall ? 1u : 0u))
		fprintf(stderr, " or sample less often (-c, -F)");
	fprintf(stderr, "\n");
}

/* Whether event i is sampled on the CPU (not the JVM's own events, nor
 * the off-CPU waits of --wall or -e offcpu). */
static bool on_cpu_event(const struct recorder *rec, unsigned int i)
{
	return !jevents_is(rec->jev, i) &&
	       !(rec->wall && i == wall_event(rec->wall));
}

/*
 * perfjava's own share of what was recorded (the agent's thread and its
 * code on the application's threads, the recorder itself at -a): left out
 * of the profile unless --self, its share of the first on-CPU event said.
 */
static void self_summary(const struct recorder *rec)
{
	const struct emit_stats *es = &rec->em.st;
	uint64_t own = 0, all;
	unsigned int cpu = RING_MAX_EVENTS;

	if (!rec->mach && !walks_wanted(rec))
		return;
	for (unsigned int i = 0; i < rec->nevents && i < RING_MAX_EVENTS; i++) {
		own += es->own_samples[i];
		if (cpu == RING_MAX_EVENTS && on_cpu_event(rec, i))
			cpu = i;
	}
	if (cpu == RING_MAX_EVENTS) {
		if (own)
			fprintf(stderr,
				"perfjava: %llu samples of perfjava's own "
				"threads and code %s\n",
				(unsigned long long)own,
				rec->o.self ? "kept (--self)"
					    : "left out (--self keeps them)");
		return;
	}
	all = es->event_samples[cpu] + (rec->o.self ? 0 : es->own_samples[cpu]);
	fprintf(stderr,
		"perfjava: perfjava's own threads and code: %.2f%% of the %s "
		"samples (%llu of %llu), %s\n",
		all ? 100.0 * es->own_samples[cpu] / all : 0.0,
		rec->evs[cpu].name, (unsigned long long)es->own_samples[cpu],
		(unsigned long long)all,
		rec->o.self ? "kept (--self)" : "left out (--self keeps them)");
}

/* Whether any event is walked at its samples (not only the JVM's own
 * events or off-CPU waits, which get their Java frames otherwise). */
static bool walked_events(const struct recorder *rec)
{
	for (unsigned int i = 0; i < rec->nevents && i < RING_MAX_EVENTS; i++)
		if (on_cpu_event(rec, i))
			return true;
	return false;
}

/* The JVM's events lost on their way through the agent's rings (a
 * recording of them alone: the walks' line, which counts them, is not
 * printed). */
static void events_lost(const struct recorder *rec)
{
	uint64_t full = 0, bad = 0;

	for (unsigned int i = 0; i < rec->procs.n; i++) {
		full += rec->procs.v[i]->ks.rs.full;
		bad += rec->procs.v[i]->ks.rs.bad;
	}
	if (full || bad)
		fprintf(stderr,
			"perfjava: %llu JVM events lost: the agent's ring was "
			"full; %llu records refused\n",
			(unsigned long long)full, (unsigned long long)bad);
}

void record_summary(struct recorder *rec, uint64_t bytes)
{
	const struct cpuwalk_stats *st = &rec->cw.st;
	const struct emit_stats *es = &rec->em.st;
	double secs = (rec->end_ns - rec->start_ns) / 1e9;
	struct agent_stats ast;
	uint64_t unavailable = 0, recovered, p50, p99, max;
	unsigned int from = 0;
	struct stat sb;

	if (rec->o.quiet) {
		java_warning(rec);
		return;
	}
	fprintf(stderr, "perfjava: %llu samples",
		(unsigned long long)es->samples);
	for (unsigned int i = 0;
	     rec->nevents > 1 && i < rec->nevents && i < RING_MAX_EVENTS; i++)
		fprintf(stderr, "%s%llu %s", i ? ", " : " (",
			(unsigned long long)es->event_samples[i],
			rec->evs[i].name);
	for (unsigned int i = 0; rec->mach && i < rec->th.n; i++)
		from += ring_is_cpu(rec->th.v[i]); /* -a: its CPUs */
	if (!rec->mach)
		from = rec->th.opened;
	fprintf(stderr, "%s%s in %.1f s from %u %s%s, %llu lost (%s)\n",
		rec->nevents > 1 ? ")" : " of ",
		rec->nevents == 1 ? rec->evs[0].name : "", secs, from,
		rec->mach ? "CPU" : "thread", from == 1 ? "" : "s",
		(unsigned long long)rec->lost, rec->stop_reason);
	machine_summary(rec); /* -a: the processes seen */
	family_summary(rec); /* -p, CMD: the processes they started */
	if (!stat(rec->o.output, &sb)) /* the final size, END chunk included */
		bytes = (uint64_t)sb.st_size;
	fprintf(stderr, "perfjava: wrote %s: %llu bytes, %.1f bytes/sample\n",
		rec->o.output, (unsigned long long)bytes,
		es->samples ? (double)bytes / es->samples : 0.0);
	if (rec->lost && rec->o.cg.mode != CG_DWARF) /* dwarf: stackend.c */
		lost_summary(rec, secs);
	kernel_symbols(rec);
	switchcost_summary(&rec->sc, &rec->evs[0], rec->lost);
	stack_ends_print(stderr, &rec->em.ends, rec->dec.st.unwind, &rec->o.cg,
			 rec->lost);
	offjava_summary(&rec->oj);
	self_summary(rec);
	/* refused at the start: its one line said so, nothing more */
	if (!walks_wanted(rec))
		return;
	/* -e alloc, -e lock, -e offcpu: no walk at a sample to speak of, but
	 * the JVM's events the agent's rings dropped */
	if (!walked_events(rec)) {
		events_lost(rec);
		jevents_summary(rec->jev, recorder_any_agent(rec));
		return;
	}
	for (unsigned int i = AGENT_WALK_NOT_WALKABLE; i <= AGENT_WALK_LOST;
	     i++)
		unavailable += st->walks[i];
	fprintf(
	    stderr,
	    "perfjava: java: %llu stacks walked, %llu not java threads, %llu unavailable",
	    (unsigned long long)st->walks[AGENT_WALK_OK],
	    (unsigned long long)st->walks[AGENT_WALK_NOT_JAVA],
	    (unsigned long long)unavailable);
	agents_stats(rec, &ast);
	if (ast.unsent) /* its own walks only: samples were kept */
		fprintf(stderr, " (%llu not asked: the agent stopped reading)",
			(unsigned long long)ast.unsent);
	if (ast.over_budget) /* what agents sent past their user's share */
		fprintf(stderr,
			" (%llu of the agents' messages dropped: past the "
			"reader's memory for agents, or their user's share)",
			(unsigned long long)ast.over_budget);
	recovered = 0;
	for (unsigned int i = 1; i < PJA_HOW_MAX; i++)
		recovered += ast.recovered[i];
	if (recovered)
		fprintf(
		    stderr,
		    " (%llu recovered: %llu out of stubs, %llu epilogues, %llu stub frames, %llu compiled frames, %llu walked in the VM)",
		    (unsigned long long)recovered,
		    (unsigned long long)ast.recovered[PJA_HOW_STUB_RET],
		    (unsigned long long)ast.recovered[PJA_HOW_EPILOGUE],
		    (unsigned long long)ast.recovered[PJA_HOW_FRAME],
		    (unsigned long long)ast.recovered[PJA_HOW_COMPILED],
		    (unsigned long long)ast.recovered[PJA_HOW_VM]);
	if (cpuwalk_latency(&rec->cw, &p50, &p99, &max))
		fprintf(stderr, "; walk latency median %.0f us, p99 %.0f us",
			p50 / 1e3, p99 / 1e3);
	if (st->checked)
		fprintf(stderr,
			"; %.1f%% of %llu walks name the JIT code sampled",
			100.0 * st->agreed / st->checked,
			(unsigned long long)st->checked);
	fprintf(stderr, "\n");
	for (unsigned int i = 0; i < rec->procs.n; i++) {
		const struct proc *p = rec->procs.v[i];

		if (p->java && !rproc(p)->java_failed)
			ksig_summary(&p->ks, p->agent != NULL,
				     jvms(rec) > 1 ? p->pid : 0);
	}
	jevents_summary(rec->jev, recorder_any_agent(rec));
	java_warning(rec);
}

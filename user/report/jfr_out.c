// SPDX-License-Identifier: GPL-2.0
/*
 * `--format jfr` (and -o FILE.jfr): the selected samples as a JDK Flight
 * Recorder file, one chunk, for the JDK's jfr tool, JDK Mission Control,
 * async-profiler's converters and the profilers that ingest JFR.
 *
 * The event mapping (types in report/jfr_types.h):
 *   cpu-clock, task-clock, cycles   jdk.ExecutionSample (state RUNNABLE)
 *   offcpu (-e offcpu, --wall)      profiler.WallClockSample: the wait's
 *                                   state (SLEEPING, IO, LOCK, ...), one
 *                                   sample, timeSpan its length
 *   any other event                 perfjava.EventSample: event name,
 *                                   period, cpu, tracepoint details
 * Every frame of a stack is kept, leaf first, typed as async-profiler types
 * them (report/jfr_pools.c); threads carry their names. The recording's
 * metadata goes into jdk.ActiveSetting events of jdk.ActiveRecording, each
 * event's name and period into jdk.ActiveSetting events of its JFR type,
 * the kernel into jdk.OSInformation, a JVM's command line into
 * jdk.JVMInformation. Times are the samples' CLOCK_MONOTONIC ns as ticks
 * (10^9 a second); the chunk starts at the recording's start.
 *
 * Allocation and lock samples (when record takes them) go to the types
 * jfr_types.c declares already, as the JDK writes them:
 * jdk.ObjectAllocationSample (objectClass, weight in bytes) and
 * jdk.JavaMonitorEnter / jdk.ThreadPark (duration): a kind in kind_of()
 * and its fields in sample(); the reader reads them back with the class
 * as the leaf frame (profile/jfr_read.c).
 */
#include <stdlib.h>
#include <string.h>

#include "report/jfr_pools.h"
#include "report/jfr_types.h"

enum kind { K_CPU, K_WALL, K_OTHER };

struct out {
	const struct report *r;
	const struct pj_profile *p;
	struct jfr_pools pl;
	struct jfr_buf meta, info, events, cpool; /* info: the recording's */
	uint64_t start_ticks, end_ticks, used;
};

static enum kind kind_of(const struct pj_event_desc *e)
{
	static const char *const cpu[] = { "cpu-clock", "task-clock", "cycles",
					   "cpu-cycles" };
	size_t n;

	if (!e)
		return K_OTHER;
	if (!strcmp(e->name, "offcpu"))
		return K_WALL;
	n = strcspn(e->name, ":/");
	for (size_t i = 0; i < sizeof(cpu) / sizeof(*cpu); i++)
		if (strlen(cpu[i]) == n && !strncmp(e->name, cpu[i], n))
			return K_CPU;
	return K_OTHER;
}

static const struct pj_event_desc *event_of(const struct pj_profile *p,
					    uint32_t index)
{
	return pj_profile_event(p, index);
}

static enum jfr_type_id type_of(enum kind k)
{
	return k == K_CPU    ? JFR_T_EXECUTION_SAMPLE
	       : k == K_WALL ? JFR_T_WALL_CLOCK_SAMPLE
			     : JFR_T_EVENT_SAMPLE;
}

static void sample(struct out *o, const struct pj_sample *s, enum kind k)
{
	struct jfr_buf *b = &o->events;
	enum jfr_type_id t = type_of(k);
	unsigned int state = k == K_WALL ? report_stack_state(o->p, s->stack)
					 : 0;
	size_t at = jfr_event_begin(b, t);

	o->used |= jfr_event_bit(t);
	jfr_pools_use(&o->pl, s);
	jfr_varint(b, s->time);
	jfr_varint(b, (uint64_t)s->tid + 1);
	jfr_varint(b, (uint64_t)s->stack + 1);
	if (k == K_OTHER) {
		jfr_varint(b, JFR_EVENT_NAME_KEY + s->event);
		jfr_pools_use_string(&o->pl, JFR_EVENT_NAME_KEY + s->event);
		jfr_varint(b, s->period);
		jfr_varint(b, s->cpu);
		jfr_varint(b, s->info);
		jfr_pools_use_string(&o->pl, s->info);
	} else {
		jfr_varint(b, state + 1);
		jfr_pools_use_state(&o->pl, state + 1);
	}
	if (k == K_WALL) {
		jfr_varint(b, 1); /* samples */
		jfr_varint(b, s->period); /* ns waited, as ticks */
		if (s->time + s->period > o->end_ticks)
			o->end_ticks = s->time + s->period;
	}
	jfr_event_end(b, at);
	if (s->time > o->end_ticks)
		o->end_ticks = s->time;
}

static void setting(struct out *o, enum jfr_type_id id, const char *name,
		    const char *value)
{
	size_t at = jfr_event_begin(&o->info, JFR_T_ACTIVE_SETTING);

	jfr_varint(&o->info, o->start_ticks);
	jfr_varint(&o->info, id);
	jfr_str(&o->info, name);
	jfr_str(&o->info, value);
	jfr_event_end(&o->info, at);
}

/* Each event's name and period, as settings of the type it maps to. */
static void event_settings(struct out *o)
{
	for (uint32_t i = 0; i < o->p->nevents; i++) {
		const struct pj_event_desc *e = &o->p->events[i];
		enum jfr_type_id t = type_of(kind_of(e));
		char v[64];

		if (!(o->used & jfr_event_bit(t)))
			continue;
		setting(o, t, "enabled", "true");
		setting(o, t, "event", e->name);
		if (e->freq)
			snprintf(v, sizeof(v), "%llu Hz",
				 (unsigned long long)e->period);
		else if (!strcmp(e->unit, "ns") && e->period % 1000000 == 0)
			snprintf(v, sizeof(v), "%llu ms",
				 (unsigned long long)e->period / 1000000);
		else
			snprintf(v, sizeof(v), "%llu %s",
				 (unsigned long long)e->period, e->unit);
		setting(o, t, e->freq ? "frequency" : "period", v);
	}
}

/* Splits a java command line: JVM options, then the class or -jar. */
static void jvm_information(struct out *o, uint64_t epoch_ms)
{
	static const char *const with_arg[] = {
		"-cp",
		"-classpath",
		"--class-path",
		"-p",
		"--module-path",
		"--add-modules",
		"--add-opens",
		"--add-exports",
		"--add-reads",
		"--patch-module",
		"--limit-modules",
		"--upgrade-module-path",
	};
	const char *cmd = pj_profile_meta(o->p, "cmdline");
	const char *pid = pj_profile_meta(o->p, "pid");
	char *jvm = strdup(cmd ? cmd : ""), *app = NULL, *tok, *save = NULL;
	size_t at;

	if (!jvm) {
		o->info.oom = true;
		return;
	}
	tok = strtok_r(jvm, " ", &save); /* the java binary */
	while (tok && (tok = strtok_r(NULL, " ", &save))) {
		bool arg = false;

		if (*tok != '-' || !strcmp(tok, "-jar")) {
			app = tok;
			break;
		}
		for (size_t i = 0; i < sizeof(with_arg) / sizeof(*with_arg);
		     i++)
			arg |= !strcmp(tok, with_arg[i]);
		if (arg && strtok_r(NULL, " ", &save))
			continue;
	}
	at = jfr_event_begin(&o->info, JFR_T_JVM_INFORMATION);
	jfr_varint(&o->info, o->start_ticks);
	jfr_str(&o->info, "");
	jfr_str(&o->info, "");
	/* the options: what is between the binary and the application */
	if (cmd) {
		const char *opts = strchr(cmd, ' ');
		size_t n = app ? (size_t)(app - jvm) : strlen(cmd);

		opts = opts ? opts + 1 : cmd + strlen(cmd);
		n = n > (size_t)(opts - cmd) ? n - (size_t)(opts - cmd) : 0;
		while (n && opts[n - 1] == ' ')
			n--;
		jfr_strn(&o->info, opts, n);
	} else {
		jfr_str(&o->info, NULL);
	}
	jfr_str(&o->info, NULL);
	jfr_str(&o->info, app && cmd ? cmd + (app - jvm) : NULL);
	jfr_varint(&o->info, epoch_ms);
	jfr_varint(&o->info, pid ? strtoull(pid, NULL, 10) : 0);
	jfr_event_end(&o->info, at);
	o->used |= jfr_event_bit(JFR_T_JVM_INFORMATION);
	free(jvm);
}

/* The recording, its settings (the file's metadata), OS and JVM. */
static void recording(struct out *o, uint64_t epoch_ns, uint64_t dur_ns)
{
	const struct pj_profile *p = o->p;
	const char *kernel = pj_profile_meta(p, "kernel");
	const char *java = pj_profile_meta(p, "java");
	const char *v = pj_profile_meta(p, "perfjava");
	struct jfr_buf *b = &o->info;
	char name[64];
	size_t at;

	snprintf(name, sizeof(name), "perfjava %s", v ? v : "");
	at = jfr_event_begin(b, JFR_T_ACTIVE_RECORDING);
	jfr_varint(b, o->start_ticks);
	jfr_varint(b, 1);
	jfr_str(b, name);
	jfr_str(b, o->r->o->output);
	jfr_varint(b, 0);
	jfr_varint(b, 0);
	jfr_varint(b, epoch_ns / 1000000);
	jfr_varint(b, dur_ns / 1000000);
	jfr_event_end(b, at);
	o->used |= jfr_event_bit(JFR_T_ACTIVE_RECORDING) |
		   jfr_event_bit(JFR_T_ACTIVE_SETTING);
	for (uint32_t i = 0; i < p->nmeta; i++)
		setting(o, JFR_T_ACTIVE_RECORDING, p->meta[i].key,
			p->meta[i].value);
	event_settings(o);
	if (kernel) {
		char os[512];

		snprintf(os, sizeof(os), "uname: Linux %s", kernel);
		at = jfr_event_begin(b, JFR_T_OS_INFORMATION);
		jfr_varint(b, o->start_ticks);
		jfr_str(b, os);
		jfr_event_end(b, at);
		o->used |= jfr_event_bit(JFR_T_OS_INFORMATION);
	}
	if (java && !strcmp(java, "yes"))
		jvm_information(o, epoch_ns / 1000000);
}

static uint64_t meta_u64(const struct pj_profile *p, const char *key)
{
	const char *v = pj_profile_meta(p, key);

	return v ? strtoull(v, NULL, 10) : 0;
}

int report_jfr(FILE *out, const struct report *r)
{
	const struct pj_profile *p = r->p;
	struct report all = *r;
	struct out o = { .r = r, .p = p };
	struct jfr_chunk_times t = { .ticks_per_second = 1000000000 };
	uint64_t first = UINT64_MAX, start, epoch;
	int ret = -1;

	if (!r->o->event)
		all.event = NULL; /* a recording keeps every event */
	if (jfr_pools_init(&o.pl, r))
		goto out;
	for (size_t i = 0; i < p->nsamples; i++)
		if (p->samples[i].time < first &&
		    report_sample_selected(&all, &p->samples[i]))
			first = p->samples[i].time;
	start = meta_u64(p, "start_ns") ?: pj_profile_stat(p, "start_ns", 0);
	if (!start || (first != UINT64_MAX && first < start))
		start = first != UINT64_MAX ? first : 0;
	o.start_ticks = o.end_ticks = start;
	for (size_t i = 0; i < p->nsamples; i++) {
		const struct pj_sample *s = &p->samples[i];

		if (s->stack < p->nstacks && report_sample_selected(&all, s))
			sample(&o, s, kind_of(event_of(p, s->event)));
	}
	if (o.end_ticks < start + pj_profile_stat(p, "duration_ns", 0))
		o.end_ticks = start + pj_profile_stat(p, "duration_ns", 0);
	epoch = meta_u64(p, "start_realtime_ns");
	if (!epoch)
		epoch = meta_u64(p, "start_realtime") * 1000000000ull;
	/* the metadata, the recording's own events, then the samples */
	recording(&o, epoch, o.end_ticks - start);
	jfr_write_metadata(&o.meta, start, o.used);
	jfr_raw(&o.meta, o.info.d, o.info.n);
	o.meta.oom |= o.info.oom;
	jfr_pools_write(&o.pl, &o.cpool, o.end_ticks);
	t.start_nanos = epoch;
	t.duration_nanos = o.end_ticks - start;
	t.start_ticks = start;
	if (o.meta.oom || o.events.oom || o.cpool.oom) {
		fprintf(stderr, "perfjava report: out of memory writing JFR\n");
		ret = 1;
		goto out;
	}
	ret = jfr_chunk_write(out, &t, &o.meta, &o.events, &o.cpool);
out:
	jfr_pools_free(&o.pl);
	jfr_buf_free(&o.meta);
	jfr_buf_free(&o.info);
	jfr_buf_free(&o.events);
	jfr_buf_free(&o.cpool);
	return ret;
}

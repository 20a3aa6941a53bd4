// SPDX-License-Identifier: GPL-2.0
/*
 * `--format jfr` (and -o FILE.jfr): the selected samples as a JDK Flight
 * Recorder file, one chunk, for the JDK's jfr tool (summary, print, view),
 * JDK Mission Control, async-profiler's converter and the profilers that
 * ingest JFR.
 *
 * Each sample is an event of the JDK's type where the JDK has one, else
 * async-profiler's or perfjava's (report/jfr_emit.h); every frame of a
 * stack is kept, leaf first, typed as async-profiler types them
 * (report/jfr_names.h); threads carry their names, a virtual thread's
 * sample is that virtual thread's (report/jfr_pools.h). The recording's
 * metadata goes into jdk.ActiveSetting events of jdk.ActiveRecording, each
 * event's name and period into jdk.ActiveSetting events of its JFR types,
 * the kernel into jdk.OSInformation, the JVM (its name and version, as
 * its agent read them, and its command line) into jdk.JVMInformation.
 * Times are the samples' CLOCK_MONOTONIC ns as ticks (10^9 a second); the
 * chunk starts at the recording's start.
 */
#include <stdlib.h>
#include <string.h>

#include "report/filter.h"
#include "report/jfr_emit.h"
#include "report/jfr_pools.h"
#include "report/jfr_types.h"

#define MAX_STACKS (1u << 30) /* stack keys stay below 2^31 */

struct out {
	const struct report *r;
	const struct pj_profile *p;
	struct jfr_pools pl;
	struct jfr_emit ev;
	struct jfr_buf meta, info, cpool; /* info: the recording's */
	uint64_t start_ticks;
};

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

/* Each event's name and period, as settings of the types it maps to. */
static void event_settings(struct out *o)
{
	for (uint32_t i = 0; i < o->p->nevents; i++) {
		const struct pj_event_desc *e = &o->p->events[i];
		enum jfr_type_id types[2];
		char v[64];

		if (e->freq)
			snprintf(v, sizeof(v), "%llu Hz",
				 (unsigned long long)e->period);
		else if (!strcmp(e->unit, "ns") && e->period % 1000000 == 0)
			snprintf(v, sizeof(v), "%llu ms",
				 (unsigned long long)e->period / 1000000);
		else
			snprintf(v, sizeof(v), "%llu %s",
				 (unsigned long long)e->period, e->unit);
		jfr_kind_types(jfr_kind_of(e), types);
		for (unsigned int k = 0; k < 2 && types[k]; k++) {
			if (!(o->ev.used & jfr_event_bit(types[k])))
				continue;
			setting(o, types[k], "enabled", "true");
			setting(o, types[k], "event", e->name);
			if (types[k] == JFR_T_WALL_CLOCK_SAMPLE) {
				/* what one of its samples stands for */
				snprintf(v, sizeof(v), "%llu ns",
					 (unsigned long long)o->ev.unit);
				setting(o, types[k], "period", v);
				continue;
			}
			setting(o, types[k], e->freq ? "frequency" : "period",
				v);
		}
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
	/* java.vm.name and java.vm.version, as async-profiler writes them */
	jfr_str(&o->info, pj_profile_meta(o->p, "jvm_name"));
	jfr_str(&o->info, pj_profile_meta(o->p, "jvm_version"));
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
	o->ev.used |= jfr_event_bit(JFR_T_JVM_INFORMATION);
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
	o->ev.used |= jfr_event_bit(JFR_T_ACTIVE_RECORDING) |
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
		o->ev.used |= jfr_event_bit(JFR_T_OS_INFORMATION);
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
	uint64_t first = UINT64_MAX, start, epoch, end;
	int ret = -1;

	if (!r->o->event)
		all.event = NULL; /* a recording keeps every event */
	if (p->nstacks >= MAX_STACKS) {
		fprintf(stderr,
			"perfjava report: more than %u stacks: too "
			"many for a JFR file; select fewer samples "
			"(--from/--to, --tid)\n",
			MAX_STACKS);
		return 1;
	}
	if (jfr_pools_init(&o.pl, r))
		goto oom;
	o.ev = (struct jfr_emit){ .r = r, .p = p, .pl = &o.pl };
	for (size_t i = 0; i < p->nsamples; i++)
		if (p->samples[i].time < first &&
		    report_sample_selected(&all, &p->samples[i]))
			first = p->samples[i].time;
	start = pj_profile_start_ns(p);
	if (!start || (first != UINT64_MAX && first < start))
		start = first != UINT64_MAX ? first : 0;
	o.start_ticks = o.ev.end_ticks = start;
	jfr_emit_unit(&o.ev, &all);
	for (size_t i = 0; i < p->nsamples; i++) {
		const struct pj_sample *s = &p->samples[i];

		if (s->stack < p->nstacks && report_sample_selected(&all, s))
			jfr_emit_sample(&o.ev, s);
	}
	end = o.ev.end_ticks;
	if (end < start + pj_profile_stat(p, "duration_ns", 0))
		end = start + pj_profile_stat(p, "duration_ns", 0);
	epoch = meta_u64(p, "start_realtime_ns");
	if (!epoch)
		epoch = meta_u64(p, "start_realtime") * 1000000000ull;
	/* the metadata, the recording's own events, then the samples */
	recording(&o, epoch, end - start);
	jfr_write_metadata(&o.meta, start, o.ev.used);
	jfr_raw(&o.meta, o.info.d, o.info.n);
	o.meta.oom |= o.info.oom;
	jfr_pools_write(&o.pl, &o.cpool, end);
	t.start_nanos = epoch;
	t.duration_nanos = end - start;
	t.start_ticks = start;
	if (o.meta.oom || o.ev.b.oom || o.cpool.oom)
		goto oom;
	ret = jfr_chunk_write(out, &t, &o.meta, &o.ev.b, &o.cpool);
	goto out;
oom:
	fprintf(stderr, "perfjava report: out of memory writing JFR\n");
	ret = 1;
out:
	jfr_pools_free(&o.pl);
	jfr_emit_free(&o.ev);
	jfr_buf_free(&o.meta);
	jfr_buf_free(&o.info);
	jfr_buf_free(&o.cpool);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * A JDK Flight Recorder file read as a profile (profile/jfr.h): the JDK's
 * own recordings, async-profiler's (-o jfr) and perfjava's (report
 * --format jfr), into the same arrays as a perfjava file, so that every
 * report format and --diff work on them.
 *
 * Each chunk: its header (version 2, compressed integers), its metadata,
 * then two passes over its events: the first reads the checkpoints
 * (constant pools) and the settings, the second the samples. Every event
 * type with a stack trace is an event of the profile:
 *   jdk.ExecutionSample     its "event" setting's name (perfjava's files:
 *                           cpu-clock ...), else jdk.ExecutionSample
 *   profiler.WallClockSample "offcpu" in perfjava's files: one sample per
 *                           "samples", weighing timeSpan
 *   perfjava.EventSample    the event named in each sample, its period
 *   allocations, locks      the class allocated or locked as the leaf (as
 *                           async-profiler's converter shows them),
 *                           weighing the bytes or the time
 *   any other               weighing its duration, if it has one
 * Samples without their own weight weigh their event's sampling period
 * (the "period" or "interval" setting: "20 ms", "10000000"). Times become
 * ns since the epoch; the recording's settings become its metadata.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "profile/jfr.h"

#define MAX_SAMPLES (1ull << 30)
#define MAX_BATCH 100000 /* samples one wall-clock event stands for */

enum role {
	R_SKIP,
	R_TIME,
	R_DURATION,
	R_THREAD,
	R_STACK,
	R_SAMPLES,
	R_SPAN,
	R_EVENT,
	R_PERIOD,
	R_CPU,
	R_DETAILS,
	R_WEIGHT,
	R_CLASS,
	R_ID,
	R_NAME,
	R_VALUE,
	R_ARGS,
	R_APP,
	R_PID,
	R_N
};

static const struct {
	const char *name;
	uint8_t role;
} roles[] = {
	{ "duration", R_DURATION },
	{ "sampledThread", R_THREAD },
	{ "eventThread", R_THREAD },
	{ "stackTrace", R_STACK },
	{ "samples", R_SAMPLES },
	{ "timeSpan", R_SPAN },
	{ "event", R_EVENT },
	{ "period", R_PERIOD },
	{ "samplingPeriod", R_PERIOD },
	{ "cpu", R_CPU },
	{ "details", R_DETAILS },
	{ "weight", R_WEIGHT },
	{ "allocationSize", R_WEIGHT },
	{ "objectClass", R_CLASS },
	{ "monitorClass", R_CLASS },
	{ "parkedClass", R_CLASS },
	{ "id", R_ID },
	{ "name", R_NAME },
	{ "value", R_VALUE },
	{ "jvmArguments", R_ARGS },
	{ "javaArguments", R_APP },
	{ "pid", R_PID },
};

enum ev_kind { EV_SAMPLE, EV_SETTING, EV_JVM };

/* An event type of the chunk that the profile takes. */
struct evtype {
	uint32_t cls;
	uint8_t kind, leaf_type;
	uint8_t *role; /* per field */
	uint32_t event; /* the profile's event index, UINT32_MAX: per sample */
	bool weighs; /* its samples carry their weight */
};

/* What the settings say of one JFR event type. */
struct setting {
	uint64_t type;
	char *event; /* "event": the name it stands for */
	uint64_t period; /* ns, 0 unknown */
};

struct jchunk {
	const uint8_t *start, *events, *end;
	uint64_t start_nanos, start_ticks, tps;
	struct jfr_meta m;
	struct jfr_cp *cp;
	struct evtype *ev;
	uint32_t nev;
	struct u64map ev_of; /* class id + 1 -> index + 1 */
	struct setting *set;
	uint32_t nset;
	size_t cap_set;
	uint64_t recording_id; /* jdk.ActiveRecording's class id + 1 */
	struct u64map named; /* String key + 1 -> event index + 1 */
	struct u64map tids; /* Thread key + 1 -> tid + 1 */
};

struct rd {
	struct jfr_build b;
	struct jfr_cur c;
	uint64_t duration, dropped;
	bool have_start;
};

static int oom(struct rd *r)
{
	snprintf(r->c.err, r->c.errlen, "out of memory");
	return -1;
}

/* "20 ms", "10000000" (ns), "1 s": ns; 0 when not a period. */
static uint64_t parse_period(const char *v)
{
	static const struct {
		const char *unit;
		uint64_t ns;
	} units[] = { { "ns", 1 },
		      { "us", 1000 },
		      { "ms", 1000000 },
		      { "s", 1000000000 },
		      { "", 1 } };
	char *end;
	unsigned long long x = strtoull(v, &end, 10);

	while (*end == ' ')
		end++;
	for (size_t i = 0; i < sizeof(units) / sizeof(*units); i++)
		if (!strcmp(end, units[i].unit) && end != v &&
		    x < UINT64_MAX / units[i].ns)
			return x * units[i].ns;
	return 0;
}

static struct setting *setting_of(struct jchunk *ch, uint64_t type)
{
	for (uint32_t i = 0; i < ch->nset; i++)
		if (ch->set[i].type == type)
			return &ch->set[i];
	if (ch->nset >= 4096 || /* more event types than settings matter */
	    GROW(ch->set, ch->cap_set, (size_t)ch->nset + 1))
		return NULL;
	ch->set[ch->nset] = (struct setting){ .type = type };
	return &ch->set[ch->nset++];
}

/* The event types of the chunk the profile takes, their fields' roles. */
static int event_types(struct rd *r, struct jchunk *ch)
{
	const struct jfr_meta *m = &ch->m;
	int k = jfr_meta_find(m, "jdk.ActiveRecording");

	ch->recording_id = k >= 0 ? m->classes[k].id + 1 : 0;
	ch->ev = calloc(m->nclasses ? m->nclasses : 1, sizeof(*ch->ev));
	if (!ch->ev)
		return oom(r);
	for (uint32_t i = 0; i < m->nclasses; i++) {
		const struct jfr_class *cl = &m->classes[i];
		struct evtype *e = &ch->ev[ch->nev];
		bool stack = false;

		if (strcmp(cl->super, "jdk.jfr.Event"))
			continue;
		e->kind = !strcmp(cl->name, "jdk.ActiveSetting")    ? EV_SETTING
			  : !strcmp(cl->name, "jdk.JVMInformation") ? EV_JVM
								    : EV_SAMPLE;
		e->role = calloc(cl->nfields ? cl->nfields : 1, 1);
		if (!e->role)
			return oom(r);
		for (uint32_t f = 0; f < cl->nfields; f++) {
			const char *name = m->fields[cl->first + f].name;

			if (!f && !strcmp(name, "startTime"))
				e->role[f] = R_TIME;
			for (size_t j = 0; j < sizeof(roles) / sizeof(*roles);
			     j++)
				if (f && !strcmp(name, roles[j].name))
					e->role[f] = roles[j].role;
			stack |= e->role[f] == R_STACK;
		}
		if (e->kind == EV_SAMPLE && !stack) {
			free(e->role);
			continue;
		}
		e->cls = i;
		e->event = UINT32_MAX;
		if (u64map_put(&ch->ev_of, cl->id + 1, ch->nev + 1))
			return oom(r);
		ch->nev++;
	}
	return 0;
}

/* The values of one event, by role. */
struct vals {
	uint64_t u[R_N];
	struct jfr_str s[R_N];
	uint32_t have; /* bit per role */
};

static int read_event(struct jchunk *ch, struct jfr_cur *c,
		      const struct evtype *e, struct vals *v)
{
	const struct jfr_meta *m = &ch->m;
	const struct jfr_class *cl = &m->classes[e->cls];

	v->have = 0;
	for (uint32_t i = 0; i < cl->nfields; i++) {
		const struct jfr_field *f = &m->fields[cl->first + i];
		const struct jfr_class *fc = &m->classes[f->cls];
		uint8_t role = e->role[i];

		if (role == R_SKIP || f->array) {
			uint64_t x;

			if (!f->array && (f->cpool || fc->kind == JK_VARINT)
				? jfr_get_varint(c, &x)
				: jfr_skip(m, c, f, 1))
				return -1;
			continue;
		}
		v->have |= 1u << role;
		if (fc->kind == JK_STRING) {
			if (f->cpool) {
				v->s[role] =
				    (struct jfr_str){ .enc = JFR_S_POOL };
				if (jfr_get_varint(c, &v->s[role].key))
					return -1;
			} else if (jfr_get_string(c, &v->s[role])) {
				return -1;
			}
		} else if (f->cpool || fc->kind == JK_VARINT) {
			if (jfr_get_varint(c, &v->u[role]))
				return -1;
		} else {
			v->have &= ~(1u << role);
			if (jfr_skip(m, c, f, 1))
				return -1;
		}
	}
	return 0;
}

static int on_setting(struct rd *r, struct jchunk *ch, struct vals *v)
{
	char name[256], value[JFR_NAME_MAX];
	struct setting *s;

	snprintf(name, sizeof(name), "%s", jfr_cp_text(ch->cp, &v->s[R_NAME]));
	snprintf(value, sizeof(value), "%s",
		 jfr_cp_text(ch->cp, &v->s[R_VALUE]));
	if (ch->recording_id && v->u[R_ID] + 1 == ch->recording_id) {
		/* the recording's own: perfjava's metadata, or the
		 * profiler's settings; the times are the chunk's */
		static const char *const not_meta[] = {
			"start_ns", "start_realtime", "start_realtime_ns",
			"enabled",  "threshold",      "stackTrace",
			"period",   "throttle",	      "cutoff",
		};

		for (size_t i = 0; i < sizeof(not_meta) / sizeof(*not_meta);
		     i++)
			if (!strcmp(name, not_meta[i]))
				return 0;
		return jfr_add_meta(&r->b, name, value);
	}
	s = setting_of(ch, v->u[R_ID]);
	if (!s)
		return 0; /* past the bound, or out of memory: not needed */
	if (!strcmp(name, "event") && *value && !s->event) {
		s->event = strdup(value);
		if (!s->event)
			return oom(r);
	} else if (!strcmp(name, "period") || !strcmp(name, "interval") ||
		   !strcmp(name, "wall")) {
		s->period = parse_period(value);
	}
	return 0;
}

static int on_jvm(struct rd *r, struct jchunk *ch, struct vals *v)
{
	char cmd[2 * JFR_NAME_MAX + 8], pid[32];
	size_t n;

	if (pj_profile_meta(&r->b.d->p, "cmdline"))
		return 0; /* perfjava's own, from the settings */
	n = (size_t)snprintf(cmd, JFR_NAME_MAX, "java %s",
			     jfr_cp_text(ch->cp, &v->s[R_ARGS]));
	snprintf(cmd + n, sizeof(cmd) - n, " %s",
		 jfr_cp_text(ch->cp, &v->s[R_APP]));
	snprintf(pid, sizeof(pid), "%llu", (unsigned long long)v->u[R_PID]);
	return jfr_add_meta(&r->b, "cmdline", cmd) ||
	       jfr_add_meta(&r->b, "pid", pid) ||
	       jfr_add_meta(&r->b, "java", "yes");
}

static uint64_t ticks_ns(const struct jchunk *ch, uint64_t t)
{
	unsigned __int128 d =
	    (unsigned __int128)(t - ch->start_ticks) * 1000000000u / ch->tps;

	if (t < ch->start_ticks)
		return ch->start_nanos; /* before its chunk: at its start */
	return ch->start_nanos + (uint64_t)d;
}

/* The profile's event of a sample, named when first seen. */
static uint32_t sample_event(struct rd *r, struct jchunk *ch, struct evtype *e,
			     struct vals *v)
{
	const struct jfr_class *cl = &ch->m.classes[e->cls];
	struct setting *s = setting_of(ch, cl->id);
	const char *name = s && s->event ? s->event : cl->name;
	bool time = v->have & (1u << R_SPAN | 1u << R_DURATION);
	uint32_t i;

	if (v->have & (1u << R_EVENT)) { /* perfjava.EventSample */
		if (v->s[R_EVENT].enc == JFR_S_POOL &&
		    u64map_get(&ch->named, v->s[R_EVENT].key + 1, &i))
			return i - 1;
		i = jfr_add_event(&r->b, jfr_cp_text(ch->cp, &v->s[R_EVENT]), 2,
				  "events");
		if (i != UINT32_MAX && v->s[R_EVENT].enc == JFR_S_POOL &&
		    u64map_put(&ch->named, v->s[R_EVENT].key + 1, i + 1))
			return UINT32_MAX;
		return i;
	}
	if (e->event != UINT32_MAX)
		return e->event;
	e->weighs = v->have & (1u << R_WEIGHT | 1u << R_SPAN |
			       1u << R_DURATION | 1u << R_PERIOD);
	e->event = jfr_add_event(&r->b, name,
				 !strcmp(cl->name, "jdk.ExecutionSample") ? 0
				 : !strcmp(cl->name, "profiler.WallClockSample")
				     ? 1
				     : 3,
				 v->have & (1u << R_WEIGHT) ? "bytes"
				 : time || !e->weighs	    ? "ns"
							    : "events");
	if (e->event != UINT32_MAX && s && s->period && !r->b.period[e->event])
		r->b.period[e->event] = s->period;
	if (!strcmp(cl->name, "jdk.ObjectAllocationOutsideTLAB"))
		e->leaf_type = PJ_FRAME_KERNEL;
	else if (v->have & (1u << R_CLASS))
		e->leaf_type = PJ_FRAME_INLINED;
	return e->event;
}

static int add_sample(struct rd *r, struct pj_sample *s)
{
	struct priv *d = r->b.d;
	struct pj_profile *p = &d->p;

	if (p->nsamples >= MAX_SAMPLES) {
		snprintf(r->c.err, r->c.errlen,
			 "more than %llu samples in a JFR file",
			 (unsigned long long)MAX_SAMPLES);
		return -1;
	}
	if (GROW(p->samples, d->samples_cap, p->nsamples + 1))
		return oom(r);
	p->samples[p->nsamples++] = *s;
	r->b.count[s->event]++;
	return 0;
}

/* Thread key's tid, its name given to the profile once per chunk. */
static int thread(struct rd *r, struct jchunk *ch, uint64_t key, uint32_t *tid)
{
	const char *name;
	uint32_t i;

	*tid = 0;
	if (key == UINT64_MAX)
		return 0;
	if (u64map_get(&ch->tids, key + 1, &i)) {
		*tid = i - 1;
		return 0;
	}
	if (!jfr_cp_thread(ch->cp, key, tid, &name))
		return 0;
	if (jfr_add_thread(&r->b, *tid, name) ||
	    u64map_put(&ch->tids, key + 1, *tid + 1))
		return oom(r);
	return 0;
}

static int on_sample(struct rd *r, struct jchunk *ch, struct evtype *e,
		     struct vals *v)
{
	struct pj_sample s = { 0 };
	uint64_t n = 1, w = 0;

	if (!v->u[R_STACK])
		return 0; /* recorded without its stack */
	s.event = sample_event(r, ch, e, v);
	if (s.event == UINT32_MAX)
		return oom(r);
	s.stack = jfr_cp_stack(ch->cp, &r->b, v->u[R_STACK],
			       e->leaf_type ? v->u[R_CLASS] : 0, e->leaf_type);
	if (s.stack == UINT32_MAX) { /* a key no pool defines */
		r->dropped++;
		return 0;
	}
	if (thread(r, ch, v->u[R_THREAD], &s.tid))
		return -1;
	s.time = ticks_ns(ch, v->u[R_TIME]);
	s.cpu = (uint32_t)v->u[R_CPU];
	if (v->have & (1u << R_DETAILS)) {
		const char *t = jfr_cp_text(ch->cp, &v->s[R_DETAILS]);

		s.info = *t ? jfr_intern(&r->b, t, strlen(t)) : 0;
		if (s.info == UINT32_MAX)
			return oom(r);
	}
	if (v->have & (1u << R_WEIGHT))
		w = v->u[R_WEIGHT];
	else if (v->have & (1u << R_SPAN))
		w = ticks_ns(ch, ch->start_ticks + v->u[R_SPAN]) -
		    ch->start_nanos;
	else if (v->have & (1u << R_DURATION))
		w = ticks_ns(ch, ch->start_ticks + v->u[R_DURATION]) -
		    ch->start_nanos;
	else if (v->have & (1u << R_PERIOD))
		w = v->u[R_PERIOD];
	if (v->have & (1u << R_SAMPLES))
		n = v->u[R_SAMPLES] ? v->u[R_SAMPLES] : 1;
	if (n > MAX_BATCH) {
		r->dropped++;
		return 0;
	}
	s.period = w / n;
	for (uint64_t i = 0; i < n; i++)
		if (add_sample(r, &s))
			return -1;
	return 0;
}

/* One pass over the chunk's events: checkpoints and settings first
 * (samples refer to them), samples second. */
static int pass(struct rd *r, struct jchunk *ch, bool samples)
{
	struct jfr_cur *c = &r->c;
	struct vals v;

	for (const uint8_t *at = ch->events; at < ch->end;) {
		uint64_t size, type;
		uint32_t k;

		c->p = at;
		c->end = ch->end;
		if (jfr_get_varint(c, &size))
			return -1;
		if (size < 2 || size > (uint64_t)(ch->end - at))
			return jfr_damaged(c, at, "event size %llu",
					   (unsigned long long)size);
		c->end = at + size;
		if (jfr_get_varint(c, &type))
			return -1;
		at += size;
		if (type == 1) {
			if (!samples && jfr_cp_read(ch->cp, c))
				return -1;
			continue;
		}
		if (type == UINT64_MAX || !u64map_get(&ch->ev_of, type + 1, &k))
			continue;
		struct evtype *e = &ch->ev[k - 1];

		if ((e->kind == EV_SAMPLE) != samples)
			continue;
		if (read_event(ch, c, e, &v))
			return -1;
		if (e->kind == EV_SETTING ? on_setting(r, ch, &v)
		    : e->kind == EV_JVM	  ? on_jvm(r, ch, &v)
					  : on_sample(r, ch, e, &v))
			return -1;
	}
	return 0;
}

static uint64_t be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static void free_chunk(struct jchunk *ch)
{
	for (uint32_t i = 0; i < ch->nev; i++)
		free(ch->ev[i].role);
	free(ch->ev);
	for (uint32_t i = 0; i < ch->nset; i++)
		free(ch->set[i].event);
	free(ch->set);
	u64map_free(&ch->ev_of);
	u64map_free(&ch->named);
	u64map_free(&ch->tids);
	jfr_cp_free(ch->cp);
	jfr_meta_free(&ch->m);
}

/* The chunk at buf + off; 1 when it is incomplete (the file ends). */
static int read_chunk(struct rd *r, const uint8_t *buf, size_t size, size_t off,
		      size_t *next)
{
	const uint8_t *h = buf + off;
	struct jfr_cur *c = &r->c;
	struct jchunk ch = { .start = h };
	uint64_t csize, cp_off, meta_off, v;
	int ret = -1;

	if (size - off < JFR_HEADER_SIZE)
		return 1;
	if (memcmp(h, "FLR\0", 4))
		return jfr_damaged(c, h, "no chunk header");
	if ((h[4] << 8 | h[5]) != 2 || !(h[67] & 1)) {
		snprintf(c->err, c->errlen,
			 "unsupported JFR version %u.%u%s (perfjava reads "
			 "2.x with compressed integers)",
			 (unsigned int)(h[4] << 8 | h[5]),
			 (unsigned int)(h[6] << 8 | h[7]),
			 h[67] & 1 ? "" : " without compressed integers");
		return -1;
	}
	csize = be64(h + 8);
	cp_off = be64(h + 16);
	meta_off = be64(h + 24);
	ch.start_nanos = be64(h + 32);
	ch.start_ticks = be64(h + 48);
	ch.tps = be64(h + 56);
	if (csize > size - off || !meta_off || !cp_off)
		return 1; /* still being written, or cut */
	if (csize < JFR_HEADER_SIZE || meta_off < JFR_HEADER_SIZE ||
	    meta_off >= csize || cp_off < JFR_HEADER_SIZE || cp_off >= csize ||
	    !ch.tps)
		return jfr_damaged(c, h, "bad chunk header");
	ch.events = h + JFR_HEADER_SIZE;
	ch.end = h + csize;
	*next = off + csize;
	if (!r->have_start) {
		char t[32];

		r->have_start = true;
		snprintf(t, sizeof(t), "%llu",
			 (unsigned long long)ch.start_nanos);
		if (jfr_add_meta(&r->b, "start_ns", t))
			return -1;
		snprintf(t, sizeof(t), "%llu",
			 (unsigned long long)(ch.start_nanos / 1000000000));
		if (jfr_add_meta(&r->b, "start_realtime", t))
			return -1;
		snprintf(t, sizeof(t), "%llu",
			 (unsigned long long)ch.start_nanos);
		if (jfr_add_meta(&r->b, "start_realtime_ns", t))
			return -1;
	}
	r->duration += be64(h + 40);
	/* the metadata event: size, type 0, start, duration, id, body */
	c->p = h + meta_off;
	c->end = ch.end;
	if (jfr_get_varint(c, &v) || v > (uint64_t)(ch.end - (h + meta_off)))
		return jfr_damaged(c, h + meta_off, "bad metadata event");
	c->end = h + meta_off + v;
	for (int i = 0; i < 4; i++)
		if (jfr_get_varint(c, &v))
			return -1;
	if (jfr_meta_parse(&ch.m, c))
		goto out;
	ch.cp = jfr_cp_new(&ch.m);
	if (!ch.cp) {
		oom(r);
		goto out;
	}
	if (event_types(r, &ch) || pass(r, &ch, false) || pass(r, &ch, true))
		goto out;
	ret = 0;
out:
	free_chunk(&ch);
	return ret;
}

int profile_jfr_parse(struct priv *d, const uint8_t *buf, size_t size,
		      char *err, size_t errlen)
{
	struct rd r = { .b.d = d,
			.c = { .base = buf, .err = err, .errlen = errlen } };
	size_t off = 0, next = 0;
	int ret = -1, rc;

	while (off < size) {
		rc = read_chunk(&r, buf, size, off, &next);
		if (rc < 0)
			goto out;
		if (rc > 0) {
			if (!off) {
				snprintf(err, errlen,
					 "incomplete JFR file: its first chunk "
					 "is not finished");
				goto out;
			}
			d->p.truncated = true;
			break;
		}
		off = next;
	}
	if (jfr_finish_events(&r.b) || jfr_add_meta(&r.b, "format", "jfr")) {
		oom(&r);
		goto out;
	}
	d->p.finished = !d->p.truncated;
	if (GROW(d->p.stats, d->stats_cap, 2)) {
		oom(&r);
		goto out;
	}
	d->p.stats[d->p.nstats++] =
	    (struct pj_kv){ .key = (char *)"duration_ns", .num = r.duration };
	d->p.stats[d->p.nstats++] =
	    (struct pj_kv){ .key = (char *)"jfr_dropped", .num = r.dropped };
	ret = 0;
out:
	u64map_free(&r.b.strings);
	u64map_free(&r.b.frames);
	u64map_free(&r.b.stacks);
	u64map_free(&r.b.thread_name);
	free(r.b.period);
	free(r.b.prio);
	free(r.b.count);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The events of a JFR chunk the profile takes (profile/jfr.h): each event
 * type with a stack trace, the settings, the JVM's information. Fields are
 * found by name (their role), so the JDK's, async-profiler's and
 * perfjava's layouts of a type all read. Event types of one kind become
 * one event of the profile, named as perfjava names its own, weighed as
 * their producer means them (as async-profiler's converter counts them):
 *   cpu     jdk.ExecutionSample; its "event" setting's name in perfjava's
 *           files (cpu-clock ...), weighing the sampling period
 *   wall    profiler.WallClockSample (async-profiler's; "offcpu" in
 *           perfjava's files): one sample standing for its "samples",
 *           weighing its timeSpan (else the period, each)
 *   alloc   jdk.ObjectAllocationInNewTLAB, OutsideTLAB, Sample: the bytes
 *           a sample stands for (tlabSize: async-profiler's sampling
 *           weight, the JDK's TLAB; else weight; else allocationSize)
 *   lock    jdk.JavaMonitorEnter, jdk.ThreadPark: the time waited
 *   perfjava.EventSample: the event named in each sample, its period
 *   any other type with a stack trace: its own name, weighing its
 *           duration if it has one
 * Allocations and locks name the class allocated or locked as the leaf
 * frame. Samples without their own weight weigh their event's sampling
 * period (the "period" or "interval" setting: "20 ms", "10000000"). Times
 * become ns since the epoch; the recording's settings its metadata.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "profile/jfr.h"
#include "profile/jfr_event.h"

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
	{ "tlabSize", R_TLAB },
	{ "allocationSize", R_SIZE },
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

static const struct {
	const char *type;
	uint8_t kind;
} kinds[] = {
	{ "jdk.ExecutionSample", K_CPU },
	{ "profiler.WallClockSample", K_WALL },
	{ "jdk.ObjectAllocationInNewTLAB", K_ALLOC },
	{ "jdk.ObjectAllocationOutsideTLAB", K_ALLOC },
	{ "jdk.ObjectAllocationSample", K_ALLOC },
	{ "jdk.JavaMonitorEnter", K_LOCK },
	{ "jdk.ThreadPark", K_LOCK },
	{ "jdk.ActiveSetting", K_SETTING },
	{ "jdk.JVMInformation", K_JVM },
};

static int oom(struct jfr_cur *c)
{
	snprintf(c->err, c->errlen, "out of memory");
	return -1;
}

static uint8_t kind_of(const struct jfr_class *cl)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(*kinds); i++)
		if (!strcmp(cl->name, kinds[i].type))
			return kinds[i].kind;
	return K_OTHER;
}

static int64_t class_id(const struct jfr_meta *m, const char *name)
{
	int k = jfr_meta_find(m, name);

	return k >= 0 ? (int64_t)m->classes[k].id + 1 : 0;
}

/* One event type: its fields' roles; false when the profile does not
 * take it (no stack trace). */
static bool take(const struct jfr_meta *m, uint32_t i, struct evtype *e)
{
	const struct jfr_class *cl = &m->classes[i];
	bool stack = false;

	for (uint32_t f = 0; f < cl->nfields; f++) {
		const char *name = m->fields[cl->first + f].name;

		if (!f && !strcmp(name, "startTime"))
			e->role[f] = R_TIME;
		for (size_t j = 0; j < sizeof(roles) / sizeof(*roles); j++)
			if (f && !strcmp(name, roles[j].name))
				e->role[f] = roles[j].role;
		stack |= e->role[f] == R_STACK;
		e->per_sample |= e->role[f] == R_EVENT;
	}
	return stack || e->kind == K_SETTING || e->kind == K_JVM;
}

struct jfr_events *jfr_events_new(const struct jfr_chunk *ch)
{
	const struct jfr_meta *m = &ch->m;
	struct jfr_events *ev = calloc(1, sizeof(*ev));

	if (!ev)
		return NULL;
	ev->recording_id = class_id(m, "jdk.ActiveRecording");
	ev->wall_id = class_id(m, "profiler.WallClockSample");
	ev->ev = calloc(m->nclasses ? m->nclasses : 1, sizeof(*ev->ev));
	if (!ev->ev)
		goto fail;
	for (uint32_t i = 0; i < m->nclasses; i++) {
		const struct jfr_class *cl = &m->classes[i];
		struct evtype *e = &ev->ev[ev->nev];

		if (strcmp(cl->super, "jdk.jfr.Event"))
			continue;
		*e = (struct evtype){ .cls = i,
				      .kind = kind_of(cl),
				      .event = UINT32_MAX,
				      .role = calloc(cl->nfields + 1, 1) };
		if (!e->role)
			goto fail;
		if (!take(m, i, e)) {
			free(e->role);
			continue;
		}
		if (u64map_put(&ev->ev_of, cl->id + 1, ev->nev + 1))
			goto fail;
		ev->nev++;
	}
	return ev;
fail:
	jfr_events_free(ev);
	return NULL;
}

void jfr_events_free(struct jfr_events *ev)
{
	if (!ev)
		return;
	for (uint32_t i = 0; i < ev->nev; i++)
		free(ev->ev[i].role);
	free(ev->ev);
	for (uint32_t i = 0; i < ev->nset; i++)
		free(ev->set[i].event);
	free(ev->set);
	u64map_free(&ev->ev_of);
	u64map_free(&ev->set_of);
	u64map_free(&ev->named);
	u64map_free(&ev->details);
	u64map_free(&ev->tids);
	free(ev);
}

enum jfr_pass jfr_event_pass(const struct jfr_events *ev, uint64_t type,
			     uint32_t *k)
{
	uint8_t kind;

	if (type == UINT64_MAX || !u64map_get(&ev->ev_of, type + 1, k))
		return JFR_PASS_NONE;
	kind = ev->ev[--*k].kind;
	return kind == K_SETTING || kind == K_JVM ? JFR_PASS_FIRST
						  : JFR_PASS_SAMPLES;
}

static int read_event(const struct jfr_meta *m, struct jfr_cur *c,
		      const struct evtype *e, struct vals *v)
{
	const struct jfr_class *cl = &m->classes[e->cls];

	v->have = 0; /* and 0 for a role the type has not, not the last's */
	memset(v->u, 0, sizeof(v->u));
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

static int on_setting(struct jfr_chunk *ch, struct jfr_build *b,
		      struct jfr_cur *c, struct vals *v)
{
	struct jfr_events *ev = ch->ev;
	char name[256], value[JFR_NAME_MAX];
	struct setting *s;
	uint64_t id = v->u[R_ID];

	jfr_cp_text(ch->cp, &v->s[R_NAME], name, sizeof(name));
	jfr_cp_text(ch->cp, &v->s[R_VALUE], value, sizeof(value));
	if (ev->recording_id && id + 1 == ev->recording_id) {
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
		return jfr_add_meta(b, name, value) ? oom(c) : 0;
	}
	/* async-profiler gives the wall-clock interval to its CPU event */
	if (!strcmp(name, "wall") && ev->wall_id)
		id = ev->wall_id - 1;
	s = jfr_setting_of(ev, id);
	if (!s)
		return 0; /* past the bound, or out of memory: not needed */
	if (!strcmp(name, "event") && *value && !s->event) {
		s->event = strdup(value);
		if (!s->event)
			return oom(c);
	} else if (!strcmp(name, "period") || !strcmp(name, "interval") ||
		   !strcmp(name, "wall")) {
		s->period = parse_period(value);
	}
	return 0;
}

static int on_jvm(struct jfr_chunk *ch, struct jfr_build *b, struct jfr_cur *c,
		  struct vals *v)
{
	char cmd[2 * JFR_NAME_MAX + 8], pid[32];
	size_t n;

	if (pj_profile_meta(&b->d->p, "cmdline"))
		return 0; /* perfjava's own, from the settings */
	n = (size_t)snprintf(cmd, JFR_NAME_MAX, "java %s",
			     jfr_cp_text(ch->cp, &v->s[R_ARGS], ch->text,
					 sizeof(ch->text)));
	snprintf(cmd + n, sizeof(cmd) - n, " %s",
		 jfr_cp_text(ch->cp, &v->s[R_APP], ch->text, sizeof(ch->text)));
	snprintf(pid, sizeof(pid), "%llu", (unsigned long long)v->u[R_PID]);
	if (jfr_add_meta(b, "cmdline", cmd) || jfr_add_meta(b, "pid", pid) ||
	    jfr_add_meta(b, "java", "yes"))
		return oom(c);
	return 0;
}

int jfr_event_read(struct jfr_chunk *ch, struct jfr_build *b, struct jfr_cur *c,
		   uint32_t k)
{
	struct evtype *e = &ch->ev->ev[k];
	struct vals v;

	if (read_event(&ch->m, c, e, &v))
		return -1;
	switch (e->kind) {
	case K_SETTING:
		return on_setting(ch, b, c, &v);
	case K_JVM:
		return on_jvm(ch, b, c, &v);
	default:
		return jfr_on_sample(ch, b, c, e, &v);
	}
}

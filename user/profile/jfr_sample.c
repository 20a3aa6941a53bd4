// SPDX-License-Identifier: GPL-2.0
/*
 * The samples of a JFR chunk (profile/jfr_event.h): each event with a stack
 * trace becomes one sample of the profile, of the profile event its kind
 * maps to (named when first seen), its thread named once per chunk, its
 * stack made once (profile/jfr_stack.c), weighed as its producer means it
 * (profile/jfr_event.c says how). A batch (a wall-clock event's "samples")
 * is one sample standing for them, never as many samples as the file
 * claims.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "profile/jfr_event.h"

#define MAX_SAMPLES (1ull << 30)
#define MAX_SETTINGS 4096 /* event types whose settings matter */

/* Of each kind: the profile event's name (unless its setting names it),
 * priority (reports show the first: CPU samples) and unit. */
static const struct {
	const char *name;
	uint8_t prio;
	const char *unit;
} kind_event[] = {
	[K_CPU] = { "cpu", 0, "ns" },
	[K_WALL] = { "wall", 1, "ns" },
	[K_ALLOC] = { "alloc", 2, "bytes" },
	[K_LOCK] = { "lock", 2, "ns" },
};

static int oom(struct jfr_cur *c)
{
	snprintf(c->err, c->errlen, "out of memory");
	return -1;
}

static uint64_t ticks_ns(const struct jfr_chunk *ch, uint64_t t)
{
	unsigned __int128 d =
	    (unsigned __int128)(t - ch->start_ticks) * 1000000000u / ch->tps;

	if (t < ch->start_ticks)
		return ch->start_nanos; /* before its chunk: at its start */
	return ch->start_nanos + (uint64_t)d;
}

static uint64_t span_ns(const struct jfr_chunk *ch, uint64_t ticks)
{
	unsigned __int128 d = (unsigned __int128)ticks * 1000000000u / ch->tps;

	return d > UINT64_MAX ? UINT64_MAX : (uint64_t)d;
}

/* perfjava.EventSample's event: the one each sample names. */
static uint32_t named_event(struct jfr_chunk *ch, struct jfr_build *b,
			    const struct jfr_str *s)
{
	struct jfr_events *ev = ch->ev;
	uint32_t i;

	if (s->enc == JFR_S_POOL && u64map_get(&ev->named, s->key + 1, &i))
		return i - 1;
	i = jfr_add_event(b, jfr_cp_text(ch->cp, s, ch->text, sizeof(ch->text)),
			  2, "events");
	if (i != UINT32_MAX && s->enc == JFR_S_POOL &&
	    u64map_put(&ev->named, s->key + 1, i + 1))
		return UINT32_MAX;
	return i;
}

/* The profile's event of a sample, named when first seen. */
static uint32_t sample_event(struct jfr_chunk *ch, struct jfr_build *b,
			     struct evtype *e, struct vals *v)
{
	const struct jfr_class *cl = &ch->m.classes[e->cls];
	const struct setting *s;
	const char *name = cl->name, *unit;
	uint8_t prio = 3;

	if (e->per_sample && (v->have & (1u << R_EVENT)))
		return named_event(ch, b, &v->s[R_EVENT]);
	if (e->event != UINT32_MAX)
		return e->event;
	s = jfr_setting_of(ch->ev, cl->id);
	if (e->kind != K_OTHER) {
		name = kind_event[e->kind].name;
		prio = kind_event[e->kind].prio;
		unit = kind_event[e->kind].unit;
	} else { /* without a weight: its period's ns, if it has one */
		unit = v->have & (1u << R_WEIGHT) ? "bytes"
		       : v->have & (1u << R_PERIOD) &&
			       !(v->have & (1u << R_DURATION | 1u << R_SPAN))
			   ? "events"
			   : "ns";
	}
	if (s && s->event && (e->kind == K_CPU || e->kind == K_WALL))
		name = s->event;
	e->event = jfr_add_event(b, name, prio, unit);
	if (e->event == UINT32_MAX)
		return UINT32_MAX;
	if (s && s->period && !b->period[e->event])
		b->period[e->event] = s->period;
	if (strcmp(name, cl->name)) { /* --event by its JFR type too */
		char key[256];

		snprintf(key, sizeof(key), "event.%s", cl->name);
		if (jfr_add_meta(b, key, name))
			return UINT32_MAX;
	}
	return e->event;
}

static int add_sample(struct jfr_build *b, struct jfr_cur *c,
		      const struct pj_sample *s)
{
	struct priv *d = b->d;
	struct pj_profile *p = &d->p;

	if (p->nsamples >= MAX_SAMPLES) {
		snprintf(c->err, c->errlen,
			 "more than %llu samples in a JFR file",
			 (unsigned long long)MAX_SAMPLES);
		return -1;
	}
	if (GROW(p->samples, d->samples_cap, p->nsamples + 1))
		return oom(c);
	p->samples[p->nsamples++] = *s;
	b->count[s->event] += s->batch;
	return 0;
}

/* Thread key's tid, its name given to the profile once per chunk. */
static int thread(struct jfr_chunk *ch, struct jfr_build *b, struct jfr_cur *c,
		  uint64_t key, uint32_t *tid)
{
	uint32_t i;

	*tid = 0;
	if (key == UINT64_MAX)
		return 0;
	if (u64map_get(&ch->ev->tids, key + 1, &i)) {
		*tid = i - 1;
		return 0;
	}
	if (!jfr_cp_thread(ch->cp, key, tid, ch->text, sizeof(ch->text)))
		return 0;
	if (jfr_add_thread(b, *tid, ch->text) ||
	    u64map_put(&ch->ev->tids, key + 1, *tid + 1))
		return oom(c);
	return 0;
}

/* A sample's details (perfjava's), a pooled text interned once. */
static int details(struct jfr_chunk *ch, struct jfr_build *b,
		   const struct jfr_str *s, uint32_t *id)
{
	const char *t;

	if (s->enc == JFR_S_POOL && s->key != UINT64_MAX &&
	    u64map_get(&ch->ev->details, s->key + 1, id)) {
		(*id)--;
		return 0;
	}
	t = jfr_cp_text(ch->cp, s, ch->text, sizeof(ch->text));
	*id = *t ? jfr_intern(b, t, strlen(t)) : 0;
	if (*id == UINT32_MAX)
		return -1;
	if (s->enc == JFR_S_POOL && s->key != UINT64_MAX)
		return u64map_put(&ch->ev->details, s->key + 1, *id + 1);
	return 0;
}

/* The settings of event type id (class id), made when first asked for. */
struct setting *jfr_setting_of(struct jfr_events *ev, uint64_t id)
{
	uint32_t i;

	if (id == UINT64_MAX)
		return NULL;
	if (u64map_get(&ev->set_of, id + 1, &i))
		return &ev->set[i - 1];
	if (ev->nset >= MAX_SETTINGS ||
	    GROW(ev->set, ev->cap_set, (size_t)ev->nset + 1) ||
	    u64map_put(&ev->set_of, id + 1, ev->nset + 1))
		return NULL;
	ev->set[ev->nset] = (struct setting){ 0 };
	return &ev->set[ev->nset++];
}

/* What a sample weighs, as its producer means it; 0: its event's period. */
static uint64_t weight(const struct jfr_chunk *ch, const struct evtype *e,
		       const struct vals *v)
{
	uint32_t h = v->have;

	if (e->kind == K_ALLOC) {
		if ((h & (1u << R_TLAB)) && v->u[R_TLAB])
			return v->u[R_TLAB];
		return h & (1u << R_WEIGHT) ? v->u[R_WEIGHT] : v->u[R_SIZE];
	}
	if (h & (1u << R_WEIGHT))
		return v->u[R_WEIGHT];
	if (h & (1u << R_SPAN))
		return span_ns(ch, v->u[R_SPAN]);
	if (h & (1u << R_DURATION))
		return span_ns(ch, v->u[R_DURATION]);
	return h & (1u << R_PERIOD) ? v->u[R_PERIOD] : 0;
}

int jfr_on_sample(struct jfr_chunk *ch, struct jfr_build *b, struct jfr_cur *c,
		  struct evtype *e, struct vals *v)
{
	struct pj_sample s = { .batch = 1 };
	bool leaf = e->kind == K_ALLOC || e->kind == K_LOCK;
	int rc;

	if (!v->u[R_STACK])
		return 0; /* recorded without its stack */
	s.event = sample_event(ch, b, e, v);
	if (s.event == UINT32_MAX)
		return oom(c);
	rc = jfr_stack(ch->st, b, v->u[R_STACK],
		       leaf && (v->have & (1u << R_CLASS)) ? v->u[R_CLASS] : 0,
		       &s.stack);
	if (rc) { /* 1: a key no pool defines */
		b->dropped += rc > 0;
		return rc < 0 ? -1 : 0;
	}
	if (thread(ch, b, c, v->u[R_THREAD], &s.tid))
		return -1;
	s.time = ticks_ns(ch, v->u[R_TIME]);
	s.cpu = (uint32_t)v->u[R_CPU];
	if ((v->have & (1u << R_DETAILS)) &&
	    details(ch, b, &v->s[R_DETAILS], &s.info))
		return oom(c);
	/* a batch (a wall-clock event's "samples") is one sample that
	 * weighs them all, never as many samples as a file claims */
	if ((v->have & (1u << R_SAMPLES)) && v->u[R_SAMPLES] > 1)
		s.batch = v->u[R_SAMPLES] > UINT32_MAX
			      ? UINT32_MAX
			      : (uint32_t)v->u[R_SAMPLES];
	s.period = weight(ch, e, v);
	/* the objects an allocation stands for: its weight in objects of
	 * its size (async-profiler's), for pprof's alloc_objects */
	if (e->kind == K_ALLOC && (v->have & (1u << R_SIZE)) && v->u[R_SIZE])
		s.count = (s.period + v->u[R_SIZE] / 2) / v->u[R_SIZE];
	return add_sample(b, c, &s);
}

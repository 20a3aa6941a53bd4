// SPDX-License-Identifier: GPL-2.0
/* The CPU time a clock event cannot sample; see pipeline/switchcost.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/spec.h"
#include "lib/grow.h"
#include "pipeline/sample.h"
#include "pipeline/switchcost.h"
#include "profile/io.h"
#include "rings/threads.h"

/* The counts of key (a thread's tid + 1; with CPU counts, its events' on
 * CPU c too: + (c + 1) << 32), made when add, or NULL. */
static struct swc_thread *counts_of(struct switchcost *sc, uint64_t key,
				    bool add)
{
	uint32_t i;

	if (u64map_get(&sc->index, key, &i))
		return &sc->v[i - 1];
	if (!add || GROW(sc->v, sc->cap, sc->n + 1) ||
	    u64map_put(&sc->index, key, (uint32_t)sc->n + 1))
		return NULL;
	memset(&sc->v[sc->n], 0, sizeof(sc->v[sc->n]));
	sc->v[sc->n].key = key;
	return &sc->v[sc->n++];
}

/* Thread tid's counts (made when add), or NULL. */
static struct swc_thread *thread_of(struct switchcost *sc, uint32_t tid,
				    bool add)
{
	return counts_of(sc, (uint64_t)tid + 1, add);
}

static void forget(struct switchcost *sc, uint64_t key)
{
	uint32_t i;

	if (!u64map_get(&sc->index, key, &i))
		return;
	u64map_del(&sc->index, key);
	sc->v[i - 1] = sc->v[--sc->n];
	if (i - 1 < sc->n)
		u64map_put(&sc->index, sc->v[i - 1].key, i);
}

void switchcost_sample(struct switchcost *sc, struct sample *smp)
{
	struct switch_cost *c = &sc->c;
	struct pj_sample *s = &smp->s;
	struct swc_thread *t;
	uint64_t d;

	/* an inherited ring's counts are its CPU's events': its deltas
	 * too (the thread's time on that CPU since its sample there) */
	if (smp->read_cpu && s->cpu + 1 > sc->cpus)
		sc->cpus = s->cpu + 1;
	if (smp->nread < 1 ||
	    !(t = counts_of(sc,
			    (uint64_t)s->tid + 1 +
				(smp->read_cpu ? (uint64_t)(s->cpu + 1) << 32
					       : 0),
			    true)))
		return;
	c->nominal_ns += s->period;
	/* after lost records, or sampling throttled by the kernel, the time
	 * is not this sample's: it keeps the period */
	d = smp->read[0] - t->last_count;
	if (smp->read[0] > t->last_count && !t->lost_since)
		s->period = d;
	t->last_count = smp->read[0];
	t->lost_since = false;
	c->sampled_ns += s->period;
	t->sampled = true;
	if (smp->nread >= 2 && smp->read[1] >= t->last_switches) {
		d = smp->read[1] - t->last_switches;
		t->last_switches = smp->read[1];
		s->switches = d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
		c->sampled_switches += s->switches;
	}
	/* its thread's clocks to read (take); last, as the counts made may
	 * move t's */
	if (smp->read_cpu && (t = thread_of(sc, s->tid, true)))
		t->sampled = true;
}

void switchcost_lost(struct switchcost *sc, uint32_t tid)
{
	struct swc_thread *t = thread_of(sc, tid, false);
	union u64map_val *v;

	if (t)
		t->lost_since = true;
	for (uint64_t c = 0; c < sc->cpus; c++)
		if ((v = u64map_find(&sc->index,
				     (uint64_t)tid + 1 + ((c + 1) << 32))))
			sc->v[v->u - 1].lost_since = true;
}

void switchcost_mark(struct switchcost *sc, const struct ring *r)
{
	struct swc_thread *t;

	if (r->sw_fd < 0 || !(t = thread_of(sc, (uint32_t)r->tid, true)))
		return;
	t->gone = false; /* its tid anew: the file's totals go on */
	t->marked = !ring_read_clocks(r, &t->mark);
}

void switchcost_tick(struct switchcost *sc, const struct threads *th,
		     uint64_t now)
{
	if (now < sc->next)
		return;
	sc->next = now + SWITCH_COST_TICK_NS;
	switchcost_take(sc, th, false);
}

void switchcost_take(struct switchcost *sc, const struct threads *th, bool all)
{
	struct switch_cost *c = &sc->c;

	for (unsigned int i = 0; i < th->n; i++) {
		struct ring *r = th->v[i];
		struct swc_thread *t;
		struct ring_clocks now;

		if (r->sw_fd < 0 || !(t = thread_of(sc, (uint32_t)r->tid, all)))
			continue;
		if (!all && !t->sampled)
			continue;
		t->sampled = false;
		if (ring_read_clocks(r, &now)) {
			t->marked = false;
			continue;
		}
		if (t->marked && now.thread_ns >= t->mark.thread_ns &&
		    now.event_ns >= t->mark.event_ns &&
		    now.switches >= t->mark.switches) {
			t->thread_ns += now.thread_ns - t->mark.thread_ns;
			t->event_ns += now.event_ns - t->mark.event_ns;
			t->switches += now.switches - t->mark.switches;
			c->thread_ns += now.thread_ns - t->mark.thread_ns;
			c->event_ns += now.event_ns - t->mark.event_ns;
			c->switches += now.switches - t->mark.switches;
			if (!t->counted)
				c->threads++;
			t->counted = true;
		}
		t->mark = now;
		t->marked = true;
	}
}

void switchcost_thread_gone(struct switchcost *sc, uint32_t tid)
{
	struct swc_thread *t = thread_of(sc, tid, false);

	/* a thread with a cost of its own in this file keeps its totals until
	 * the file's STATS (so many at most: threads come and go all day),
	 * and starts again should its tid come back */
	if (t && t->counted && t->switches >= SWITCH_COST_MIN_SWITCHES &&
	    !t->gone && sc->gone < SWITCH_COST_THREADS_MAX) {
		*t = (struct swc_thread){ .key = t->key,
					  .counted = true,
					  .gone = true,
					  .thread_ns = t->thread_ns,
					  .event_ns = t->event_ns,
					  .switches = t->switches };
		sc->gone++;
	} else if (!t || !t->gone) {
		forget(sc, (uint64_t)tid + 1);
	}
	for (uint64_t c = 0; c < sc->cpus; c++)
		forget(sc, (uint64_t)tid + 1 + ((c + 1) << 32));
}

uint64_t switchcost_ps(const struct switch_cost *c)
{
	uint64_t ps;

	if (c->switches < SWITCH_COST_MIN_SWITCHES ||
	    c->thread_ns <= c->event_ns)
		return 0;
	ps = (c->thread_ns - c->event_ns) * 1000 / c->switches;
	/* more than 1 ms a switch is no switch cost: not measured */
	return ps > SWITCH_COST_MAX_PS ? 0 : ps;
}

void switchcost_write_stats(const struct switchcost *sc, struct pj_writer *w)
{
	const struct switch_cost *c = &sc->c;

	if (c->nominal_ns) {
		pj_writer_stat(w, "clock_nominal_ns", c->nominal_ns);
		pj_writer_stat(w, "clock_sampled_ns", c->sampled_ns);
	}
	if (!c->threads)
		return;
	pj_writer_stat(w, "switch_cost_ps", switchcost_ps(c));
	pj_writer_stat(w, "switch_cost_switches", c->switches);
	pj_writer_stat(w, "switch_cost_thread_ns", c->thread_ns);
	pj_writer_stat(w, "switch_cost_event_ns", c->event_ns);
	pj_writer_stat(w, "switch_cost_threads", c->threads);
	for (size_t i = 0, k = 0; i < sc->n && k < SWITCH_COST_THREADS_MAX;
	     i++) {
		const struct swc_thread *t = &sc->v[i];
		int64_t ps;
		char key[40];

		/* a thread's own key: no CPU in it */
		if (!t->counted || t->key >> 32 ||
		    t->switches < SWITCH_COST_MIN_SWITCHES ||
		    t->thread_ns > INT64_MAX / 1000 ||
		    t->event_ns > INT64_MAX / 1000)
			continue;
		ps = ((int64_t)t->thread_ns - (int64_t)t->event_ns) * 1000 /
		     (int64_t)t->switches;
		if (ps > SWITCH_COST_MAX_PS || ps < -SWITCH_COST_MAX_PS)
			continue;
		snprintf(key, sizeof(key), "switch_cost_ps.%llu",
			 (unsigned long long)(t->key - 1));
		pj_writer_stat(w, key, (uint64_t)ps);
		k++;
	}
}

void switchcost_next_file(struct switchcost *sc)
{
	sc->c = (struct switch_cost){ 0 };
	for (size_t i = sc->n; i-- > 0;) {
		struct swc_thread *t = &sc->v[i];

		if (t->gone) {
			forget(sc, t->key);
			continue;
		}
		t->counted = false;
		t->thread_ns = t->event_ns = t->switches = 0;
	}
	sc->gone = 0;
}

void switchcost_free(struct switchcost *sc)
{
	u64map_free(&sc->index);
	free(sc->v);
	memset(sc, 0, sizeof(*sc));
}

void switchcost_summary(const struct switchcost *sc, const struct pj_event *ev,
			uint64_t lost)
{
	const struct switch_cost *c = &sc->c;
	uint64_t ps = switchcost_ps(c);
	double timed = (double)c->sampled_ns + c->sampled_switches * ps / 1e3;
	/* under 1 ms a clock's timer falls behind; lost records say likewise */
	bool fast = lost || ev->freq > 1000 ||
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

// SPDX-License-Identifier: GPL-2.0
/* The JVM's own events as samples; see pipeline/jevents.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "perfjava/walk_ring.h"
#include "pipeline/emit.h"
#include "pipeline/jevents.h"
#include "pipeline/sample.h"
#include "rings/ring.h"
#include "rings/threads.h"

/* What one JVM's agent was asked and said. */
struct jev_agent {
	pid_t pid;
	bool asked, answered;
	uint32_t on, failed;
	uint64_t stray, dropped;
	uint32_t park, rebound; /* its Unsafe.park hook: PJA_PARK_* */
};

/* The kinds of lock wait, as the summary counts them. */
enum { LOCK_MONITOR, LOCK_PARK, LOCK_KINDS };

struct jevents {
	uint8_t kind[RING_MAX_EVENTS]; /* enum jevent_kind by event index */
	int ev[JEV_KINDS]; /* event index by kind, -1 */
	uint64_t interval, lock_ns;
	struct jev_agent *agents; /* one per JVM */
	unsigned int nagents, capagents;
	/* all of them: any asked, what any turned on or could not */
	bool asked;
	uint32_t on, failed;
	uint64_t samples[JEV_KINDS], bytes, waited, no_thread, unnamed, stray,
	    dropped;
	uint64_t locks[LOCK_KINDS], lock_waited[LOCK_KINDS], owned;
	uint32_t park, rebound; /* every JVM's hook state, rebindings */
	char info[160]; /* a lock sample's "owner=NAME" */
	struct emitter *em; /* where its samples go */
	const struct threads *th; /* the threads recorded */
};

/* pid's agent's state, made when new; NULL when out of memory. */
static struct jev_agent *agent_of(struct jevents *j, pid_t pid)
{
	for (unsigned int i = 0; i < j->nagents; i++)
		if (j->agents[i].pid == pid)
			return &j->agents[i];
	if (GROW(j->agents, j->capagents, j->nagents + 1))
		return NULL;
	j->agents[j->nagents] = (struct jev_agent){ .pid = pid };
	return &j->agents[j->nagents++];
}

/* The JVMs' states summed up for the summary and the file. */
static void sum_agents(struct jevents *j)
{
	j->asked = false;
	j->on = j->failed = 0;
	j->stray = j->dropped = 0;
	j->park = j->rebound = 0;
	for (unsigned int i = 0; i < j->nagents; i++) {
		const struct jev_agent *s = &j->agents[i];

		j->asked |= s->asked;
		j->on |= s->on;
		j->failed |= s->failed;
		j->stray += s->stray;
		j->dropped += s->dropped;
		j->park |= s->park;
		j->rebound += s->rebound;
	}
}

int jevents_expand(const char *spec, char *out, size_t len, uint8_t *kind,
		   unsigned int nmax)
{
	size_t at = 0;
	unsigned int n = 0;
	const char *p = spec;

	memset(kind, 0, nmax);
	while (*p) {
		size_t k = events_token_len(p), h = strcspn(p, "/,");
		uint8_t kd = JEV_NONE;

		if (h > k)
			h = k;
		if (h == 5 && !strncmp(p, "alloc", 5))
			kd = JEV_ALLOC;
		else if (h == 4 && !strncmp(p, "lock", 4))
			kd = JEV_LOCK;
		if (at + k + 8 > len)
			return -1;
		if (at)
			out[at++] = ',';
		if (kd) {
			memcpy(out + at, "dummy", 5);
			at += 5;
			memcpy(out + at, p + h, k - h); /* its terms */
			at += k - h;
		} else {
			memcpy(out + at, p, k);
			at += k;
		}
		if (n < nmax)
			kind[n] = kd;
		n++;
		p += k;
		if (*p == ',')
			p++;
	}
	out[at] = 0;
	return 0;
}

int jevents_setup(struct jevents **out, struct pj_event *evs, unsigned int n,
		  const uint8_t *kind, struct emitter *em,
		  const struct threads *th, int wall_ev)
{
	struct jevents *j = NULL;

	for (unsigned int i = 0; i < n && i < RING_MAX_EVENTS; i++) {
		struct pj_event *ev = &evs[i];
		bool alloc = kind[i] == JEV_ALLOC;

		if (!kind[i])
			continue;
		if (!j) {
			if (!(j = calloc(1, sizeof(*j)))) {
				fprintf(stderr, "perfjava: out of memory\n");
				return -1;
			}
			for (int k = 0; k < JEV_KINDS; k++)
				j->ev[k] = -1;
			j->em = em;
			j->th = th;
		}
		if (j->ev[kind[i]] >= 0 || ev->freq) {
			fprintf(stderr, "perfjava: %s: %s\n",
				alloc ? "alloc" : "lock",
				ev->freq ? "takes a period, not a freq "
					   "(alloc/period=BYTES/, "
					   "lock/period=NS/)"
					 : "given twice");
			free(j);
			return -1;
		}
		j->kind[i] = kind[i];
		j->ev[kind[i]] = (int)i;
		snprintf(ev->name, sizeof(ev->name), alloc ? "alloc" : "lock");
		snprintf(ev->unit, sizeof(ev->unit), alloc ? "bytes" : "ns");
		if (!ev->period)
			ev->period = alloc ? JEVENTS_ALLOC_DEFAULT
					   : JEVENTS_LOCK_DEFAULT;
		if (alloc)
			j->interval = ev->period;
		else
			j->lock_ns = ev->period;
		ev->freq = 0;
	}
	/* virtual threads are asked for in every JVM's recording */
	if (!j && (j = calloc(1, sizeof(*j)))) {
		for (int k = 0; k < JEV_KINDS; k++)
			j->ev[k] = -1;
		j->em = em;
		j->th = th;
	}
	/* --wall: a virtual thread's park is a wait of its own */
	if (j && wall_ev >= 0)
		j->ev[JEV_VPARK] = wall_ev;
	*out = j;
	return j ? 0 : -1;
}

void jevents_free(struct jevents *j)
{
	if (j)
		free(j->agents);
	free(j);
}

bool jevents_is(const struct jevents *j, uint32_t ev)
{
	return j && ev < RING_MAX_EVENTS && j->kind[ev];
}

void jevents_tick(struct jevents *j, struct agent *a, pid_t pid)
{
	const char *env = getenv("PERFJAVA_VTHREADS");
	struct jev_agent *s;
	uint32_t flags = 0;
	int on;

	if (!j || !a || !(s = agent_of(j, pid)))
		return;
	if (!s->asked && agent_ring_signal(a) > 0) {
		if (j->ev[JEV_ALLOC] >= 0)
			flags |= PJA_EV_ALLOC;
		if (j->ev[JEV_LOCK] >= 0)
			flags |= PJA_EV_LOCK;
		/* which virtual thread each carrier's sample ran (JDK 21+);
		 * PERFJAVA_VTHREADS=0 leaves the JVM's mounts alone, to
		 * measure what that costs */
		if (!env || strcmp(env, "0"))
			flags |= PJA_EV_VTHREADS |
				 (j->ev[JEV_VPARK] >= 0 ? PJA_EV_WALL : 0);
		s->asked = true;
		if (agent_events_ask(a, j->interval, j->lock_ns, flags)) {
			s->failed = flags;
			s->answered = true;
		}
	}
	if (s->answered)
		s->dropped = agent_events_dropped(a);
	if (j->ev[JEV_LOCK] >= 0) {
		uint64_t lo, hi;

		s->park = agent_park_state(a, &lo, &hi, &s->rebound);
	}
	if (s->asked && !s->answered &&
	    (on = agent_events_on(a, &s->failed, &s->stray)) >= 0) {
		s->on = (uint32_t)on;
		s->answered = true;
	}
	sum_agents(j);
}

/* The reader's tid of the thread ttid of JVM pid; 0 when none. */
static uint32_t reader_tid(const struct jevents *j, struct agent *a, pid_t pid,
			   pid_t ttid)
{
	for (unsigned int i = 0; i < j->th->n; i++) {
		pid_t t = j->th->v[i]->tid;

		if (j->th->v[i]->pid != pid)
			continue;
		if (t == ttid || agent_target_tid(a, t) == ttid)
			return (uint32_t)t;
	}
	/* a task carried by a ring opened before it started (record/family.h:
	 * a launched JVM's threads until it is promoted), its tid the
	 * reader's when the JVM shares our pid namespace */
	if (agent_target_tid(a, ttid) == ttid &&
	    threads_is_carried(j->th, ttid))
		return (uint32_t)ttid;
	return 0;
}

/*
 * An allocation sampled with mean interval I bytes (a geometric draw per
 * thread) has size s: it was taken with probability 1 - exp(-s/I), so it
 * stands for s / that bytes and 1 / that objects (unbiased).
 */
static void alloc_weight(uint64_t s, uint64_t interval, uint64_t *bytes,
			 uint64_t *count)
{
	double p = interval ? -expm1(-(double)s / (double)interval) : 1.0;

	if (p <= 0 || p > 1)
		p = 1;
	*bytes = (uint64_t)llround((double)s / p);
	*count = (uint64_t)llround(1.0 / p);
	if (!*count)
		*count = 1;
}

void jevents_take(void *ctx, struct agent *a, pid_t pid,
		  const struct ring_walk *w)
{
	struct jevents *j = ctx;
	const struct ring_event *e = w->ev;
	struct sample smp = { .fd = -1 };
	struct java_part jp = { .status = w->status,
				.jf = w->frames,
				.nj = w->n };
	uint32_t leaf = 0, kd;

	if (!j || !e)
		return;
	kd = e->kind == PJW_EV_ALLOC				   ? JEV_ALLOC
	     : e->kind == PJW_EV_MONITOR || e->kind == PJW_EV_PARK ? JEV_LOCK
	     : e->kind == PJW_EV_VPARK				   ? JEV_VPARK
								   : JEV_NONE;
	if (!kd || j->ev[kd] < 0)
		return;
	smp.s.pid = (uint32_t)pid;
	smp.s.tid = reader_tid(j, a, pid, w->tid);
	if (!smp.s.tid) {
		j->no_thread++;
		return;
	}
	smp.s.time = w->time;
	smp.s.event = (uint32_t)j->ev[kd];
	smp.s.vthread = e->vthread;
	if (kd == JEV_ALLOC) {
		alloc_weight(e->value, j->interval, &smp.s.period,
			     &smp.s.count);
		j->bytes += smp.s.period;
	} else {
		smp.s.period = e->value;
		j->waited += e->value;
	}
	if (kd == JEV_LOCK) {
		unsigned int lk = e->kind == PJW_EV_MONITOR ? LOCK_MONITOR
							    : LOCK_PARK;

		j->locks[lk]++;
		j->lock_waited[lk] += e->value;
		/* the thread that held it, in the sample's info (report
		 * --format script) */
		if (e->owner) {
			snprintf(j->info, sizeof(j->info), "owner=%s",
				 e->owner);
			smp.tp = j->info;
			j->owned++;
		}
	}
	if (e->flags & PJW_EVF_PINNED)
		smp.root = JEVENTS_PINNED;
	if (e->cls)
		leaf = pj_writer_frame(j->em->w, PJ_FRAME_CLASS, e->cls, "",
				       NULL, 0) +
		       1;
	else if (kd == JEV_VPARK)
		leaf = pj_writer_frame(j->em->w, PJ_FRAME_MARKER, JEVENTS_VPARK,
				       "", NULL, 0) +
		       1;
	else
		j->unnamed++;
	j->samples[kd]++;
	emit_write(j->em, &smp, emit_stack(j->em, &smp, &jp, NULL, leaf, NULL));
}

/* The lock events' line: what was recorded, by kind. */
static void lock_summary(const struct jevents *j)
{
	if (!j->samples[JEV_LOCK]) {
		fprintf(stderr,
			"perfjava: lock: no contended wait of %llu ns or more "
			"(a monitor's enter, a park to acquire a "
			"java.util.concurrent lock or semaphore); waits for "
			"work (a condition, a queue, Object.wait, sleep) are "
			"off-CPU time (--wall)\n",
			(unsigned long long)j->lock_ns);
		return;
	}
	fprintf(stderr,
		"perfjava: lock: %llu contended waits of %llu ns or more (and "
		"shorter ones sampled), %.3f s waited: %llu entering a monitor "
		"(%.3f s), %llu parked to acquire a java.util.concurrent lock "
		"(%.3f s, %llu naming its owner)\n",
		(unsigned long long)j->samples[JEV_LOCK],
		(unsigned long long)j->lock_ns, j->waited / 1e9,
		(unsigned long long)j->locks[LOCK_MONITOR],
		j->lock_waited[LOCK_MONITOR] / 1e9,
		(unsigned long long)j->locks[LOCK_PARK],
		j->lock_waited[LOCK_PARK] / 1e9, (unsigned long long)j->owned);
}

/* What the agents' Unsafe.park hooks could see beside other agents: a line
 * when it matters. */
static void park_summary(const struct jevents *j)
{
	if ((j->on & PJA_EV_LOCK) &&
	    ((j->failed & PJA_EV_LOCK) || (j->park & PJA_PARK_FAILED)))
		fprintf(stderr,
			"perfjava: lock: java.util.concurrent waits not seen: "
			"the agent could not bind Unsafe.park to its hook "
			"(monitors only)\n");
	else if (j->park & PJA_PARK_LOST)
		fprintf(
		    stderr,
		    "perfjava: lock: another agent bound Unsafe.park to its "
		    "own hook over perfjava's, which could not be bound "
		    "again: java.util.concurrent waits after that are not "
		    "seen\n");
	else if (j->rebound)
		fprintf(stderr,
			"perfjava: lock: another agent (a profiler's lock "
			"hook) had bound Unsafe.park over perfjava's hook (%u "
			"time%s); perfjava's was bound again, calling that "
			"one: both see the parks\n",
			j->rebound, j->rebound == 1 ? "" : "s");
	else if (j->park & PJA_PARK_CHAINED)
		fprintf(stderr,
			"perfjava: lock: Unsafe.park was bound to another "
			"agent's hook (a profiler's); perfjava's calls it: "
			"both see the parks\n");
	else if (j->park & PJA_PARK_UNCHECKED)
		fprintf(stderr,
			"perfjava: lock: another agent binding Unsafe.park "
			"after perfjava would go unseen (HotSpot's Method "
			"size unknown): its java.util.concurrent waits would "
			"then be missing\n");
}

void jevents_summary(const struct jevents *j, bool agent)
{
	uint32_t refused;

	if (!j || (j->ev[JEV_ALLOC] < 0 && j->ev[JEV_LOCK] < 0))
		return;
	/* a lock bit both on and failed: monitors on, the park hook not */
	refused = j->failed & ~j->on & (PJA_EV_ALLOC | PJA_EV_LOCK);
	if (!j->asked || refused) {
		fprintf(stderr, "perfjava: %s%s%s unavailable: %s\n",
			refused & PJA_EV_ALLOC || !j->asked ? "alloc " : "",
			(refused & PJA_EV_LOCK) ? "lock " : "", "events",
			!agent && !j->asked ? "no Java agent"
			: !j->asked	    ? "the agent took no walk ring"
			: (j->failed & PJA_EV_HELD)
			    ? "another agent in the JVM (a profiler's "
			      "allocation profiling) holds its sampled "
			      "allocations, which HotSpot gives to one agent "
			      "at a time"
			    : "the JVM refused them");
	}
	if (j->dropped)
		fprintf(stderr,
			"perfjava: %llu JVM events dropped by the agent (a "
			"storm over its bound of 50000 a second)\n",
			(unsigned long long)j->dropped);
	if (j->ev[JEV_ALLOC] >= 0 && (j->on & PJA_EV_ALLOC))
		fprintf(stderr,
			j->samples[JEV_ALLOC]
			    ? "perfjava: alloc: %llu samples (one allocation "
			      "in every %llu bytes on average), %.1f MB "
			      "allocated by estimate\n"
			    : "perfjava: alloc: %llu samples: no allocation "
			      "sampled (one in every %llu bytes on average)\n",
			(unsigned long long)j->samples[JEV_ALLOC],
			(unsigned long long)j->interval, j->bytes / 1e6);
	if (j->ev[JEV_LOCK] >= 0 && (j->on & PJA_EV_LOCK)) {
		lock_summary(j);
		park_summary(j);
	}
	if (j->no_thread)
		fprintf(stderr,
			"perfjava: %llu events of threads not recorded\n",
			(unsigned long long)j->no_thread);
}

void jevents_write_stats(const struct jevents *j, struct pj_writer *w)
{
	if (!j)
		return;
	pj_writer_stat(w, "jevents_on", j->on);
	pj_writer_stat(w, "jevents_failed", j->failed);
	pj_writer_stat(w, "alloc_samples", j->samples[JEV_ALLOC]);
	pj_writer_stat(w, "lock_samples", j->samples[JEV_LOCK]);
	pj_writer_stat(w, "lock_monitor_samples", j->locks[LOCK_MONITOR]);
	pj_writer_stat(w, "lock_park_samples", j->locks[LOCK_PARK]);
	pj_writer_stat(w, "lock_owner_named", j->owned);
	pj_writer_stat(w, "lock_park_state", j->park);
	pj_writer_stat(w, "lock_park_rebound", j->rebound);
	pj_writer_stat(w, "jevents_no_thread", j->no_thread);
	pj_writer_stat(w, "jevents_stray", j->stray);
	pj_writer_stat(w, "jevents_dropped", j->dropped);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The profile a JFR file becomes (profile/jfr.h): its strings, frames and
 * stacks, each kept once across the file's chunks (a JDK recording repeats
 * its constant pools in every chunk), found again by a hash of their
 * content and compared in full, so that a collision only costs a copy.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "lib/hash.h"
#include "profile/jfr.h"

#define MAX_STACK_FRAMES (1ull << 31) /* all stacks' frames together */

static uint64_t str_key(const char *s, size_t n)
{
	return hash_bytes(s, n, 0) | 1;
}

uint32_t jfr_intern(struct jfr_build *b, const char *s, size_t n)
{
	struct priv *d = b->d;
	struct pj_profile *p = &d->p;
	uint64_t h = str_key(s, n);
	uint32_t id;
	char *q;

	if (u64map_get(&b->strings, h, &id) &&
	    !strncmp(p->strings[id - 1], s, n))
		return id - 1;
	if (p->nstrings == UINT32_MAX - 1 ||
	    GROW(p->strings, d->strings_cap, (size_t)p->nstrings + 1))
		return UINT32_MAX;
	q = profile_pool_str(d, (const uint8_t *)s, n);
	if (!q)
		return UINT32_MAX;
	p->strings[p->nstrings] = q;
	if (!u64map_get(&b->strings, h, &id) &&
	    u64map_put(&b->strings, h, p->nstrings + 1))
		return UINT32_MAX;
	return p->nstrings++;
}

uint32_t jfr_add_frame(struct jfr_build *b, uint8_t type, uint32_t name,
		       uint32_t module, uint32_t line)
{
	struct priv *d = b->d;
	struct pj_profile *p = &d->p;
	struct pj_frame f = {
		.type = type, .name = name, .module = module, .line = line
	};
	uint64_t h = hash_u64((uint64_t)name << 32 ^ module) ^
		     hash_u64((uint64_t)line << 8 | type);
	uint32_t id;

	h |= 1;
	if (u64map_get(&b->frames, h, &id)) {
		const struct pj_frame *g = &p->frames[id - 1];

		if (g->type == type && g->name == name && g->module == module &&
		    g->line == line)
			return id - 1;
	}
	if (p->nframes == UINT32_MAX - 1 ||
	    GROW(p->frames, d->frames_cap, (size_t)p->nframes + 1))
		return UINT32_MAX;
	p->frames[p->nframes] = f;
	if (!u64map_get(&b->frames, h, &id) &&
	    u64map_put(&b->frames, h, p->nframes + 1))
		return UINT32_MAX;
	return p->nframes++;
}

uint32_t jfr_add_stack(struct jfr_build *b, const uint32_t *frames, uint32_t n)
{
	struct priv *d = b->d;
	struct pj_profile *p = &d->p;
	uint64_t h = hash_bytes(frames, n * sizeof(*frames), 1) | 1;
	uint32_t id;

	if (u64map_get(&b->stacks, h, &id)) {
		uint32_t lo = p->stack_start[id - 1];

		if (p->stack_start[id] - lo == n &&
		    (!n || !memcmp(p->stack_frames + lo, frames,
				   n * sizeof(*frames))))
			return id - 1;
	}
	if (p->nstacks >= UINT32_MAX - 2 ||
	    d->nstack_frames + n > MAX_STACK_FRAMES ||
	    GROW(p->stack_start, d->stack_start_cap, (size_t)p->nstacks + 2) ||
	    GROW(p->stack_frames, d->stack_frames_cap, d->nstack_frames + n))
		return UINT32_MAX;
	if (n)
		memcpy(p->stack_frames + d->nstack_frames, frames,
		       n * sizeof(*frames));
	d->nstack_frames += n;
	p->stack_start[p->nstacks + 1] = (uint32_t)d->nstack_frames;
	if (!u64map_get(&b->stacks, h, &id) &&
	    u64map_put(&b->stacks, h, p->nstacks + 1))
		return UINT32_MAX;
	return p->nstacks++;
}

int jfr_add_meta(struct jfr_build *b, const char *key, const char *value)
{
	struct priv *d = b->d;
	struct pj_profile *p = &d->p;
	uint32_t k = jfr_intern(b, key, strlen(key));
	uint32_t v = jfr_intern(b, value, strlen(value));

	if (k == UINT32_MAX || v == UINT32_MAX || p->nmeta == UINT32_MAX ||
	    GROW(p->meta, d->meta_cap, (size_t)p->nmeta + 1))
		return -1;
	p->meta[p->nmeta++] =
	    (struct pj_kv){ .key = p->strings[k], .value = p->strings[v] };
	return 0;
}

/* The profile's event named name (made with its priority and unit),
 * found by a hash of its name: a file may name one with every sample. */
uint32_t jfr_add_event(struct jfr_build *b, const char *name, uint8_t prio,
		       const char *unit)
{
	struct priv *d = b->d;
	struct pj_profile *p = &d->p;
	uint32_t n = p->nevents, s, u, i;
	uint64_t h = str_key(name, strlen(name));

	if (u64map_get(&b->event_names, h, &i) &&
	    !strcmp(p->events[i - 1].name, name))
		return i - 1;
	for (i = 0; i < n; i++) /* another name of the same hash */
		if (!strcmp(p->events[i].name, name))
			return i;
	s = jfr_intern(b, name, strlen(name));
	u = jfr_intern(b, unit, strlen(unit));
	if (n >= 4096 || s == UINT32_MAX || u == UINT32_MAX ||
	    GROW(p->events, d->events_cap, (size_t)n + 1) ||
	    GROW(b->period, b->cap_period, (size_t)n + 1) ||
	    GROW(b->prio, b->cap_prio, (size_t)n + 1) ||
	    GROW(b->count, b->cap_count, (size_t)n + 1))
		return UINT32_MAX;
	p->events[n] = (struct pj_event_desc){ .index = n,
					       .name = p->strings[s],
					       .unit = p->strings[u] };
	b->period[n] = 0;
	b->prio[n] = prio;
	b->count[n] = 0;
	if (!u64map_get(&b->event_names, h, &i) &&
	    u64map_put(&b->event_names, h, n + 1))
		return UINT32_MAX;
	return p->nevents++;
}

/* A thread's name into the profile when it is new or changed. */
int jfr_add_thread(struct jfr_build *b, uint32_t tid, const char *name)
{
	struct priv *d = b->d;
	uint32_t id = jfr_intern(b, name, strlen(name)), old;

	if (id == UINT32_MAX)
		return -1;
	if (u64map_get(&b->thread_name, (uint64_t)tid + 1, &old) &&
	    old == id + 1)
		return 0;
	if (u64map_put(&b->thread_name, (uint64_t)tid + 1, id + 1) ||
	    GROW(d->threads, d->threads_cap, d->nthreads + 1))
		return -1;
	d->threads[d->nthreads] = (struct thread_ent){ .tid = tid,
						       .name = d->p.strings[id],
						       .order = d->nthreads };
	d->nthreads++;
	return 0;
}

/* Events by priority (CPU samples first: reports show the first), the
 * samples renumbered, periods given to samples without their own. */
int jfr_finish_events(struct jfr_build *b)
{
	struct pj_profile *p = &b->d->p;
	uint32_t n = p->nevents, *to = malloc((n ? n : 1) * sizeof(*to));
	struct pj_event_desc *ev = malloc((n ? n : 1) * sizeof(*ev));

	if (!to || !ev) {
		free(to);
		free(ev);
		return -1;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t rank = 0;

		for (uint32_t j = 0; j < n; j++)
			rank += b->prio[j] < b->prio[i] ||
				(b->prio[j] == b->prio[i] &&
				 (b->count[j] > b->count[i] ||
				  (j < i && b->count[j] == b->count[i])));
		to[i] = rank;
		ev[rank] = p->events[i];
		ev[rank].index = rank;
		ev[rank].period = b->period[i];
	}
	for (size_t i = 0; i < p->nsamples; i++) {
		struct pj_sample *s = &p->samples[i];
		uint64_t each = b->period[s->event],
			 n = s->batch ? s->batch : 1;

		if (!s->period) /* a batch weighs its samples' periods */
			s->period = each > UINT64_MAX / n ? UINT64_MAX
							  : each * n;
		s->event = to[s->event];
	}
	if (n)
		memcpy(p->events, ev, n * sizeof(*ev));
	free(to);
	free(ev);
	return n ? jfr_add_meta(b, "event", p->events[0].name) : 0;
}

void jfr_build_free(struct jfr_build *b)
{
	u64map_free(&b->strings);
	u64map_free(&b->frames);
	u64map_free(&b->stacks);
	u64map_free(&b->event_names);
	u64map_free(&b->thread_name);
	free(b->period);
	free(b->prio);
	free(b->count);
}

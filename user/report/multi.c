// SPDX-License-Identifier: GPL-2.0
/*
 * Several profiles as one (`report -i a.data -i b.data`, or the files of a
 * --loop recording): the later ones are appended to the first, their
 * string, frame, stack and event ids renumbered. Strings stay in the pools
 * of their own profiles, which live as long as the merged one (freed by
 * report_merged_free()), in the order they were recorded (their start).
 * Stats add up (counts, durations; start_ns is the earliest); meta is the
 * first file's; a thread's name and a process's entry are the latest
 * file's.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/u64map.h"
#include "report/multi.h"

#define GROW_TO(arr, n)                                                      \
	({                                                                   \
		void *_g = realloc((arr), ((n) ? (n) : 1) * sizeof(*(arr))); \
		if (_g)                                                      \
			(arr) = _g;                                          \
		_g ? 0 : -1;                                                 \
	})

static int cmp_thread(const void *a, const void *b)
{
	const struct pj_thread *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int cmp_proc(const void *a, const void *b)
{
	const struct pj_process *x = a, *y = b;

	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int add_strings(struct pj_profile *m, const struct pj_profile *o,
		       uint32_t **map)
{
	*map = malloc((o->nstrings ? o->nstrings : 1) * sizeof(**map));
	if (!*map || GROW_TO(m->strings, (size_t)m->nstrings + o->nstrings))
		return -1;
	(*map)[0] = 0;
	for (uint32_t i = 1; i < o->nstrings; i++) {
		m->strings[m->nstrings] = o->strings[i];
		(*map)[i] = m->nstrings++;
	}
	return 0;
}

static uint32_t smap(const uint32_t *map, const struct pj_profile *o,
		     uint32_t id)
{
	return id < o->nstrings ? map[id] : 0;
}

static int add_frames(struct pj_profile *m, const struct pj_profile *o,
		      const uint32_t *sm)
{
	uint32_t base = m->nframes;

	if (GROW_TO(m->frames, (size_t)m->nframes + o->nframes))
		return -1;
	for (uint32_t i = 0; i < o->nframes; i++) {
		struct pj_frame f = o->frames[i];

		f.name = smap(sm, o, f.name);
		f.module = smap(sm, o, f.module);
		f.file = smap(sm, o, f.file);
		m->frames[base + i] = f;
	}
	m->nframes += o->nframes;
	return 0;
}

static int add_stacks(struct pj_profile *m, const struct pj_profile *o,
		      uint32_t frame_base)
{
	uint32_t nf = o->stack_start[o->nstacks],
		 mf = m->stack_start[m->nstacks];

	if (GROW_TO(m->stack_start, (size_t)m->nstacks + o->nstacks + 1) ||
	    GROW_TO(m->stack_frames, (size_t)mf + nf))
		return -1;
	for (uint32_t i = 0; i < nf; i++)
		m->stack_frames[mf + i] = o->stack_frames[i] + frame_base;
	for (uint32_t i = 1; i <= o->nstacks; i++)
		m->stack_start[m->nstacks + i] = mf + o->stack_start[i];
	m->nstacks += o->nstacks;
	return 0;
}

/* The merged event index of each of o's event indexes (by name). */
static int add_events(struct pj_profile *m, const struct pj_profile *o,
		      uint32_t *emap, uint32_t nemap)
{
	for (uint32_t i = 0; i < o->nevents; i++) {
		const struct pj_event_desc *e = &o->events[i];
		uint32_t j = 0, top = 0;

		while (j < m->nevents && strcmp(m->events[j].name, e->name))
			j++;
		if (j == m->nevents) {
			for (uint32_t k = 0; k < m->nevents; k++)
				if (m->events[k].index >= top)
					top = m->events[k].index + 1;
			if (GROW_TO(m->events, (size_t)m->nevents + 1))
				return -1;
			m->events[m->nevents] = *e;
			m->events[m->nevents++].index = top;
		}
		if (e->index < nemap)
			emap[e->index] = m->events[j].index;
	}
	return 0;
}

static int add_threads(struct pj_profile *m, const struct pj_profile *o,
		       const uint32_t *sm)
{
	uint32_t n = m->nthreads;

	if (GROW_TO(m->threads, (size_t)m->nthreads + o->nthreads))
		return -1;
	/* found by bsearch: merging files of many threads stays n log n */
	qsort(m->threads, n, sizeof(*m->threads), cmp_thread);
	for (uint32_t i = 0; i < o->nthreads; i++) {
		struct pj_thread t = o->threads[i];
		struct pj_thread *had =
		    bsearch(&t, m->threads, n, sizeof(t), cmp_thread);

		t.name = smap(sm, o, t.name);
		if (had)
			*had = t; /* the latest name */
		else
			m->threads[m->nthreads++] = t;
	}
	qsort(m->threads, m->nthreads, sizeof(*m->threads), cmp_thread);
	return 0;
}

static int add_procs(struct pj_profile *m, const struct pj_profile *o,
		     const uint32_t *sm)
{
	uint32_t n = m->nprocs;

	if (GROW_TO(m->procs, (size_t)m->nprocs + o->nprocs))
		return -1;
	for (uint32_t i = 0; i < o->nprocs; i++) {
		struct pj_process pr = o->procs[i];
		struct pj_process *had =
		    bsearch(&pr, m->procs, n, sizeof(pr), cmp_proc);

		pr.comm = smap(sm, o, pr.comm);
		pr.cmdline = smap(sm, o, pr.cmdline);
		pr.container = smap(sm, o, pr.container);
		if (had)
			*had = pr; /* the latest */
		else
			m->procs[m->nprocs++] = pr;
	}
	qsort(m->procs, m->nprocs, sizeof(*m->procs), cmp_proc);
	return 0;
}

static void add_stats(struct pj_profile *m, const struct pj_profile *o)
{
	for (uint32_t i = 0; i < o->nstats; i++)
		for (uint32_t j = 0; j < m->nstats; j++) {
			struct pj_kv *k = &m->stats[j];

			if (strcmp(k->key, o->stats[i].key))
				continue;
			if (!strcmp(k->key, "start_ns")) {
				if (o->stats[i].num < k->num)
					k->num = o->stats[i].num;
			} else if (!strstr(k->key, "_p50_") &&
				   !strstr(k->key, "_p99_") &&
				   !strstr(k->key, "_max_")) {
				k->num += o->stats[i].num;
			}
		}
}

static int append(struct pj_profile *m, const struct pj_profile *o)
{
	static uint32_t emap[PJ_MAX_EVENTS];
	uint32_t *sm = NULL, frame_base = m->nframes, stack_base = m->nstacks;
	int ret = -1;

	memset(emap, 0, sizeof(emap));
	if (add_strings(m, o, &sm) || add_frames(m, o, sm) ||
	    add_stacks(m, o, frame_base) ||
	    add_events(m, o, emap, PJ_MAX_EVENTS) || add_threads(m, o, sm) ||
	    add_procs(m, o, sm) ||
	    GROW_TO(m->samples, m->nsamples + o->nsamples))
		goto out;
	for (size_t i = 0; i < o->nsamples; i++) {
		struct pj_sample s = o->samples[i];

		s.stack += stack_base;
		s.info = smap(sm, o, s.info);
		s.event = s.event < PJ_MAX_EVENTS ? emap[s.event] : s.event;
		m->samples[m->nsamples++] = s;
	}
	add_stats(m, o);
	m->finished = m->finished && o->finished;
	m->truncated = m->truncated || o->truncated;
	m->file_size += o->file_size;
	pj_profile_count_pids(m);
	if (pj_profile_index_events(m))
		goto out;
	ret = 0;
out:
	free(sm);
	return ret;
}

/*
 * A sample's weight is its period plus its thread's context switches since
 * the previous sample at the measured cost of a switch, its thread's own
 * (switch_cost_ps.TID, signed) or else the file's: the thread time its
 * clock event could not sample, or counted beyond the scheduler's
 * (pipeline/switchcost.h). A file without the measure keeps its periods.
 * -1: out of memory.
 */
static int add_switch_cost(struct pj_profile *p)
{
	static const char own[] = "switch_cost_ps.";
	uint64_t ps = pj_profile_stat(p, "switch_cost_ps", 0);
	struct u64map by_tid = { 0 };
	uint32_t v;

	if (ps > 1000000000ull) /* as the recorder bounds it */
		ps = 0;
	for (uint32_t i = 0; i < p->nstats; i++) {
		const char *k = p->stats[i].key;
		int64_t c = (int64_t)p->stats[i].num;
		char *end;
		unsigned long long tid;

		if (strncmp(k, own, sizeof(own) - 1) || c > 1000000000ll ||
		    c < -1000000000ll)
			continue;
		errno = 0;
		tid = strtoull(k + sizeof(own) - 1, &end, 10);
		if (errno || *end || end == k + sizeof(own) - 1 ||
		    tid > UINT32_MAX)
			continue;
		/* (keys: tid + 1, never 0; as many as the recorder writes,
		 * 4096, and some more) */
		if (by_tid.n >= 65536)
			break;
		if (u64map_put(&by_tid, tid + 1, (uint32_t)(int32_t)c)) {
			u64map_free(&by_tid);
			return -1;
		}
	}
	for (size_t i = 0; i < p->nsamples; i++) {
		struct pj_sample *s = &p->samples[i];
		int64_t d;

		if (!u64map_get(&by_tid, (uint64_t)s->tid + 1, &v)) {
			s->period += s->switches * ps / 1000;
			continue;
		}
		/* a thread's time less than the event's: never below 0 */
		d = (int64_t)s->switches * (int32_t)v / 1000;
		if (d >= 0)
			s->period += (uint64_t)d;
		else
			s->period -= (uint64_t)-d < s->period ? (uint64_t)-d
							      : s->period;
	}
	u64map_free(&by_tid);
	return 0;
}

struct by_start {
	uint64_t start;
	unsigned int i; /* its place among the paths: ties keep it */
	struct pj_profile *p;
};

static int cmp_start(const void *a, const void *b)
{
	const struct by_start *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* out->all in the order the files were recorded, whatever the order of
 * their paths (--loop's files of one second are named X and X-1, which a
 * glob sorts the other way round): the first is the merge's, whose meta
 * (start_ns: --from, --to) the report takes. */
static int sort_by_start(struct report_merged *out)
{
	struct by_start *v = calloc(out->n ? out->n : 1, sizeof(*v));

	if (!v)
		return -1;
	for (unsigned int i = 0; i < out->n; i++)
		v[i] = (struct by_start){ pj_profile_start_ns(out->all[i]), i,
					  out->all[i] };
	qsort(v, out->n, sizeof(*v), cmp_start);
	for (unsigned int i = 0; i < out->n; i++)
		out->all[i] = v[i].p;
	free(v);
	return 0;
}

int report_load_merged(const char *const *paths, unsigned int n,
		       struct report_merged *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	out->all = calloc(n ? n : 1, sizeof(*out->all));
	if (!out->all)
		return -1;
	for (unsigned int i = 0; i < n; i++) {
		char e[400];

		if (pj_profile_load(paths[i], &out->all[i], e, sizeof(e))) {
			snprintf(err, errlen, "cannot read %s: %s", paths[i],
				 e);
			report_merged_free(out);
			return -1;
		}
		out->n++;
		if (add_switch_cost(out->all[i]))
			goto oom;
	}
	if (sort_by_start(out))
		goto oom;
	for (unsigned int i = 1; i < n; i++)
		if (append(out->all[0], out->all[i]))
			goto oom;
	return 0;
oom:
	snprintf(err, errlen, "out of memory merging %u files", n);
	report_merged_free(out);
	return -1;
}

void report_merged_free(struct report_merged *m)
{
	for (unsigned int i = 0; i < m->n; i++)
		pj_profile_free(m->all[i]);
	free(m->all);
	m->all = NULL;
	m->n = 0;
}

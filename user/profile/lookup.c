// SPDX-License-Identifier: GPL-2.0
/*
 * Looking things up in a loaded profile (profile/io.h): an event by its
 * index, a metadata entry or a statistic by its key, a thread, a virtual
 * thread or a process by its id; and the processes counted. What the report
 * asks of a profile, and what the readers (profile/read.c,
 * profile/jfr_read.c) ask of the one they are making.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/u64map.h"
#include "profile/io.h"

/* The first thread entry of tid, or p->nthreads. */
static uint32_t first_thread(const struct pj_profile *p, uint32_t tid)
{
	uint32_t lo = 0, hi = p->nthreads;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (p->threads[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->nthreads && p->threads[lo].tid == tid ? lo : p->nthreads;
}

const struct pj_thread *pj_profile_thread(const struct pj_profile *p,
					  uint32_t pid, uint32_t tid)
{
	for (uint32_t i = first_thread(p, tid);
	     i < p->nthreads && p->threads[i].tid == tid; i++)
		if (!pid || p->threads[i].pid == pid)
			return &p->threads[i];
	return NULL;
}

void pj_profile_count_pids(struct pj_profile *p)
{
	struct u64map seen = { 0 };
	uint64_t last = UINT64_MAX;

	for (uint32_t i = 0; i < p->nprocs; i++)
		u64map_put(&seen, (uint64_t)p->procs[i].pid + 1, 1);
	for (uint32_t i = 0; i < p->nthreads; i++)
		u64map_put(&seen, (uint64_t)p->threads[i].pid + 1, 1);
	for (size_t i = 0; i < p->nsamples; i++)
		if (p->samples[i].pid != last) {
			last = p->samples[i].pid;
			u64map_put(&seen, last + 1, 1);
		}
	p->npids = seen.n;
	u64map_free(&seen);
}

int pj_profile_index_events(struct pj_profile *p)
{
	if (!p->event_at &&
	    !(p->event_at = calloc(PJ_MAX_EVENTS, sizeof(*p->event_at))))
		return -1;
	memset(p->event_at, 0, PJ_MAX_EVENTS * sizeof(*p->event_at));
	for (uint32_t i = 0; i < p->nevents; i++)
		if (p->events[i].index < PJ_MAX_EVENTS)
			p->event_at[p->events[i].index] = i + 1;
	return 0;
}

const struct pj_event_desc *pj_profile_event(const struct pj_profile *p,
					     uint32_t index)
{
	uint32_t at = p->event_at && index < PJ_MAX_EVENTS ? p->event_at[index]
							   : 0;

	return at && at <= p->nevents ? &p->events[at - 1] : NULL;
}

const char *pj_profile_meta(const struct pj_profile *p, const char *key)
{
	for (uint32_t i = 0; i < p->nmeta; i++)
		if (!strcmp(p->meta[i].key, key))
			return p->meta[i].value;
	return NULL;
}

uint64_t pj_profile_stat(const struct pj_profile *p, const char *key,
			 uint64_t def)
{
	for (uint32_t i = 0; i < p->nstats; i++)
		if (!strcmp(p->stats[i].key, key))
			return p->stats[i].num;
	return def;
}

uint64_t pj_profile_start_ns(const struct pj_profile *p)
{
	const char *m = pj_profile_meta(p, "start_ns");
	uint64_t t = m && *m ? strtoull(m, NULL, 10) : 0;

	return t ? t : pj_profile_stat(p, "start_ns", 0);
}

const char *pj_profile_vthread_name(const struct pj_profile *p, uint64_t id)
{
	size_t lo = 0, hi = p->nvthreads;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->vthreads[mid].id == id)
			return p->vthreads[mid].name;
		if (p->vthreads[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *pj_profile_thread_name(const struct pj_profile *p, uint32_t pid,
				   uint32_t tid)
{
	const struct pj_thread *t = pj_profile_thread(p, pid, tid);

	return t ? pj_str(p, t->name) : "";
}

const struct pj_process *pj_profile_process(const struct pj_profile *p,
					    uint32_t pid)
{
	uint32_t lo = 0, hi = p->nprocs;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (p->procs[mid].pid == pid)
			return &p->procs[mid];
		if (p->procs[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

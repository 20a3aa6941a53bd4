// SPDX-License-Identifier: GPL-2.0
/* Walks taken at the sample given to their samples; see pipeline/ksig.h. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/clock.h"
#include "pipeline/ksig.h"
#include "pipeline/pending.h"
#include "rings/threads.h"

/* The kernel stamps samples with its NMI-safe monotonic clock, the handler
 * with clock_gettime: a walk may seem to precede its sample by a little. */
#define CLOCK_SLACK_NS 20000ULL
/* how long a walk read before its sample may wait for it (as the sample
 * waits for its walk: pipeline/cpuwalk.h) */
#define DEFER_NS 1000000000ULL

struct waiter {
	pid_t tid;
	int fd;
	uint64_t time, cookie;
	bool done;
};

static int key_cmp(pid_t t1, int f1, uint64_t x1, pid_t t2, int f2, uint64_t x2)
{
	if (t1 != t2)
		return t1 < t2 ? -1 : 1;
	if (f1 != f2)
		return f1 < f2 ? -1 : 1;
	return x1 < x2 ? -1 : x1 > x2;
}

static int cmp_waiter(const void *a, const void *b)
{
	const struct waiter *x = a, *y = b;

	return key_cmp(x->tid, x->fd, x->time, y->tid, y->fd, y->time);
}

static int cmp_walk(const void *a, const void *b)
{
	const struct ksig_walk *x = a, *y = b;

	return key_cmp(x->tid, x->fd, x->time, y->tid, y->fd, y->time);
}

/* A thread's ring and since when it was emptied: drained[] sorted by tid. */
struct drained {
	pid_t tid;
	uint64_t ns;
};

static int cmp_drained(const void *a, const void *b)
{
	const struct drained *x = a, *y = b;

	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* k's threads' rings, with when each was last emptied; NULL (every walk
 * then matched at once) when none or out of memory. */
static struct drained *rings_drained(const struct ksig *k, size_t *n)
{
	struct drained *d = malloc((k->th->n + 1) * sizeof(*d));

	*n = 0;
	for (unsigned int i = 0; d && i < k->th->n; i++)
		if (k->th->v[i]->pid == k->pid && !k->th->v[i]->exited)
			d[(*n)++] = (struct drained){ k->th->v[i]->tid,
						      k->th->v[i]->drained_ns };
	if (*n)
		qsort(d, *n, sizeof(*d), cmp_drained);
	return d;
}

/* Whether kw waits for its thread's ring to be emptied once after it was
 * read (its sample may still be in the ring), a second at most. */
static bool walk_early(const struct ksig *k, const struct ksig_walk *kw,
		       const struct drained *d, size_t nd, uint64_t now)
{
	struct drained key = { kw->tid, 0 }, *r;

	if (k->flush || !d || now - kw->seen >= DEFER_NS)
		return false;
	r = bsearch(&key, d, nd, sizeof(*d), cmp_drained);
	return r && r->ns <= kw->seen;
}

/* The walks that wait for the next match first in k->walks, their frames
 * first in the pool (kept[] says which, in k->walks' order). */
static void keep_early(struct ksig *k, const bool *kept)
{
	size_t n = 0, np = 0, w;
	struct java_frame *pool = NULL;

	for (w = 0; w < k->nwalks; w++)
		np += kept[w] ? k->walks[w].n : 0;
	if (np && !(pool = malloc(np * sizeof(*pool)))) {
		k->orphans += k->nwalks; /* out of memory: dropped */
		k->nwalks = k->npool = 0;
		return;
	}
	np = 0;
	for (w = 0; w < k->nwalks; w++) {
		struct ksig_walk kw = k->walks[w];

		if (!kept[w])
			continue;
		if (kw.n)
			memcpy(pool + np, k->pool + kw.off,
			       kw.n * sizeof(*pool));
		kw.off = np;
		np += kw.n;
		k->walks[n++] = kw;
	}
	if (np)
		memcpy(k->pool, pool, np * sizeof(*pool));
	free(pool);
	k->nwalks = n;
	k->npool = np;
}

void ksig_last(struct ksig *k)
{
	k->last = true;
}

void ksig_flush(struct ksig *k)
{
	k->flush = true;
}

/*
 * Each walk belongs to the latest waiting sample of its thread and event
 * taken at or before it; earlier samples of that thread and event passed
 * over lost their walk (the agent dropped it) and end without one. A walk
 * read before its thread's ring was emptied again waits (walk_early): its
 * sample may be behind in the ring, and matched now the walk would go to
 * an older sample or to none.
 */
void ksig_match(struct ksig *k)
{
	struct waiter *s;
	struct drained *d = NULL;
	bool *kept = NULL;
	size_t ns = 0, nd = 0, i, j = 0, w, nkept = 0;
	uint64_t now = now_ns();
	pid_t late_tid = 0;
	int late_fd = -1;

	if (!k->nwait && !k->nwalks)
		return;
	s = malloc((k->nwait + 1) * sizeof(*s));
	kept = calloc(k->nwalks + 1, sizeof(*kept));
	if (!s || !kept)
		goto out;
	if (k->nwalks)
		d = rings_drained(k, &nd);
	for (i = 0; i < k->nwait; i++) {
		const struct held *h = pending_get(k->pend, k->wait[i]);

		if (!h)
			continue; /* expired */
		s[ns++] = (struct waiter){ h->ttid, h->smp.fd, h->smp.s.time,
					   h->id, false };
	}
	if (ns)
		qsort(s, ns, sizeof(*s), cmp_waiter);
	if (k->nwalks)
		qsort(k->walks, k->nwalks, sizeof(*k->walks), cmp_walk);
	for (w = 0; w < k->nwalks; w++) {
		const struct ksig_walk *kw = &k->walks[w];
		size_t best = ns;

		/* (its thread and event's later walks wait with it) */
		if ((kw->tid == late_tid && kw->fd == late_fd) ||
		    walk_early(k, kw, d, nd, now)) {
			late_tid = kw->tid;
			late_fd = kw->fd;
			kept[w] = true;
			nkept++;
			continue;
		}
		while (j < ns &&
		       key_cmp(s[j].tid, s[j].fd, 0, kw->tid, kw->fd, 0) < 0)
			j++;
		for (; j < ns && s[j].tid == kw->tid && s[j].fd == kw->fd &&
		       s[j].time <= kw->time + CLOCK_SLACK_NS;
		     j++) {
			if (best < ns) {
				s[best].done = true;
				k->missed++;
				k->done(k->done_ctx, s[best].cookie,
					AGENT_WALK_TIMEOUT, NULL, 0, 0);
			}
			best = j;
		}
		if (best == ns) {
			k->orphans++;
			continue;
		}
		s[best].done = true;
		k->matched++;
		if (kw->vthread) { /* a carrier's: which virtual thread ran */
			struct held *h = pending_get(k->pend, s[best].cookie);

			if (h)
				h->smp.s.vthread = kw->vthread;
		}
		k->done(k->done_ctx, s[best].cookie, kw->status,
			k->pool + kw->off, kw->n, kw->time);
	}
	k->nwait = 0;
	for (i = 0; i < ns; i++)
		if (!s[i].done)
			k->wait[k->nwait++] = s[i].cookie;
out:
	free(s);
	free(d);
	if (nkept)
		keep_early(k, kept);
	else
		k->nwalks = k->npool = 0;
	free(kept);
}

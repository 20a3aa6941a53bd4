// SPDX-License-Identifier: GPL-2.0
/* The one stage where samples wait; see pipeline/pending.h. */
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "pipeline/pending.h"

#define SLOT_BITS 20 /* an id is a sequence number, then its slot */
#define SLOT_MASK ((1u << SLOT_BITS) - 1)

static int list_of(struct pending *p, const struct wait_kind *kind)
{
	int i;

	for (i = 0; i < PENDING_KINDS && p->k[i].kind; i++)
		if (p->k[i].kind == kind)
			return i;
	if (i == PENDING_KINDS)
		return -1;
	p->k[i].kind = kind;
	return i;
}

/* The state of h's kind. */
static void *ctx_of(struct pending *p, const struct held *h)
{
	return p->k[list_of(p, h->kind)].ctx;
}

static void unlink_held(struct pending *p, struct held *h)
{
	int l = list_of(p, h->kind);
	uint32_t me = (uint32_t)(h - p->v) + 1;

	if (h->prev)
		p->v[h->prev - 1].next = h->next;
	else
		p->k[l].first = h->next;
	if (h->next)
		p->v[h->next - 1].prev = h->prev;
	else
		p->k[l].last = h->prev;
	p->k[l].count--;
	h->id = 0;
	h->next = p->free;
	p->free = me;
}

/* h leaves through its kind, and its slot is free again. */
static void leave(struct pending *p, struct held *h)
{
	h->kind->leave(ctx_of(p, h), h);
	unlink_held(p, h);
}

/* Gives up h's answer: it waits on, or goes without. */
static void give_up(struct pending *p, struct held *h, bool force)
{
	if (h->kind->expired(ctx_of(p, h), h, force))
		return;
	h->needs &= ~PENDING_JAVA;
	h->answered = false;
	h->ans = (struct java_answer){ .status = AGENT_WALK_TIMEOUT };
	if (!h->needs)
		leave(p, h);
}

static struct held *new_slot(struct pending *p)
{
	struct held *h;

	if (p->free) {
		h = &p->v[p->free - 1];
		p->free = h->next;
		return h;
	}
	if (p->n > SLOT_MASK || GROW(p->v, p->cap, p->n + 1))
		return NULL;
	h = &p->v[p->n++];
	memset(h, 0, sizeof(*h));
	return h;
}

/* h's own copy of smp, its arrays with it: 0, or -1 out of memory. */
static int copy_arrays(struct held *h, const struct sample *smp)
{
	size_t tlen = smp->tp ? strlen(smp->tp) + 1 : 0;

	if (GROW(h->ubuf, h->ucap, smp->nu + 1) ||
	    (smp->kips && GROW(h->kbuf, h->kcap, smp->nk + 1)) ||
	    (smp->kframes && GROW(h->fbuf, h->fcap, smp->nk + 1)) ||
	    (tlen && GROW(h->tbuf, h->tcap, tlen)))
		return -1;
	h->smp = *smp;
	if (smp->nu)
		memcpy(h->ubuf, smp->uips, smp->nu * sizeof(*h->ubuf));
	h->smp.uips = h->ubuf;
	if (smp->kips) {
		memcpy(h->kbuf, smp->kips, smp->nk * sizeof(*h->kbuf));
		h->smp.kips = h->kbuf;
	}
	if (smp->kframes) {
		memcpy(h->fbuf, smp->kframes, smp->nk * sizeof(*h->fbuf));
		h->smp.kframes = h->fbuf;
	}
	if (tlen) {
		memcpy(h->tbuf, smp->tp, tlen);
		h->smp.tp = h->tbuf;
	}
	return 0;
}

struct held *pending_hold(struct pending *p, const struct wait_kind *kind,
			  void *ctx, const struct sample *smp,
			  unsigned int needs, uint64_t asked)
{
	int l = list_of(p, kind);
	struct held *h;
	uint32_t me;

	if (l < 0)
		return NULL;
	p->k[l].ctx = ctx;
	if (kind->max && p->k[l].count >= kind->max) /* the oldest gives way */
		give_up(p, &p->v[p->k[l].first - 1], true);
	h = new_slot(p);
	if (!h)
		return NULL;
	if (copy_arrays(h, smp)) {
		h->next = p->free;
		p->free = (uint32_t)(h - p->v) + 1;
		return NULL;
	}
	me = (uint32_t)(h - p->v) + 1;
	h->id = ++p->seq << SLOT_BITS | (me - 1);
	h->kind = kind;
	h->needs = needs;
	h->end = 0;
	h->answered = false;
	h->ans = (struct java_answer){ 0 };
	h->premerged = 0;
	h->premarker = 0;
	h->mark = 0;
	h->flag = h->flag2 = false;
	h->ttid = 0;
	h->prev = p->k[l].last;
	h->next = 0;
	if (h->prev)
		p->v[h->prev - 1].next = me;
	else
		p->k[l].first = me;
	p->k[l].last = me;
	p->k[l].count++;
	if (asked)
		pending_asked(h, asked);
	else
		h->asked = h->deadline = 0;
	return h;
}

struct held *pending_get(struct pending *p, uint64_t id)
{
	uint32_t slot = (uint32_t)(id & SLOT_MASK);

	if (!id || slot >= p->n || p->v[slot].id != id)
		return NULL;
	return &p->v[slot];
}

void pending_asked(struct held *h, uint64_t now)
{
	h->asked = now;
	h->deadline = now + h->kind->deadline_ns;
}

void pending_answer(struct pending *p, uint64_t id, const struct java_answer *a)
{
	struct held *h = pending_get(p, id);

	if (!h || !(h->needs & PENDING_JAVA))
		return; /* given up already */
	h->needs &= ~PENDING_JAVA;
	h->answered = true;
	h->ans = *a;
	h->kind->answered(ctx_of(p, h), h);
	if (!h->needs) {
		leave(p, h);
		return;
	}
	/* it waits on: the frames are its own (their names the agent's) */
	if (h->ans.n && !GROW(h->jbuf, h->jcap, h->ans.n))
		memcpy(h->jbuf, a->frames, a->n * sizeof(*h->jbuf));
	else
		h->ans.n = 0;
	h->ans.frames = h->jbuf;
}

void pending_end(struct pending *p, uint64_t id, uint64_t end)
{
	struct held *h = pending_get(p, id);

	if (!h || !(h->needs & PENDING_END))
		return;
	h->needs &= ~PENDING_END;
	h->end = end;
	if (!h->asked) /* nothing was asked: nothing to wait for */
		h->needs &= ~PENDING_JAVA;
	if (!h->needs)
		leave(p, h);
}

void pending_expire(struct pending *p, uint64_t now, bool force)
{
	for (uint32_t i = 0; i < p->n; i++) {
		struct held *h = &p->v[i];

		if (h->id && (h->needs & PENDING_JAVA) && h->asked &&
		    (force || now >= h->deadline))
			give_up(p, h, force);
	}
}

bool pending_in_flight(const struct pending *p)
{
	for (uint32_t i = 0; i < p->n; i++)
		if (p->v[i].id && (p->v[i].needs & PENDING_JAVA) &&
		    p->v[i].asked)
			return true;
	return false;
}

void pending_agent_gone(struct pending *p, pid_t pid)
{
	for (uint32_t i = 0; i < p->n; i++) {
		struct held *h = &p->v[i];

		if (!h->id || (pid_t)h->smp.s.pid != pid)
			continue;
		if ((h->needs & PENDING_JAVA) && h->asked)
			give_up(p, h, true); /* no answer comes now */
		if (h->id && h->kind->agent_gone)
			h->kind->agent_gone(ctx_of(p, h), h);
	}
}

void pending_free(struct pending *p)
{
	for (uint32_t i = 0; i < p->n; i++) {
		free(p->v[i].kbuf);
		free(p->v[i].ubuf);
		free(p->v[i].fbuf);
		free(p->v[i].tbuf);
		free(p->v[i].jbuf);
	}
	free(p->v);
	memset(p, 0, sizeof(*p));
}

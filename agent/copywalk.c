// SPDX-License-Identifier: GPL-2.0
/*
 * The Java frames of a stack as it was at one instant (PJA_STACK_COPY): the
 * reader sends the bytes of a thread's stack the kernel copied when the
 * thread switched out (or that the reader read from a thread blocked since
 * before the recording), from the first frame in the JVM's generated code
 * up, with that frame's pc, sp and fp. The frames are walked in those bytes,
 * not in the thread, which may have run on since: the answer describes that
 * instant whatever the thread did after, and the thread is neither signalled
 * nor woken nor waited for.
 *
 * The walk is frametype.c's own walk of the physical frames over the copy
 * (interpreter frames by their frame pointer, compiled frames by their code
 * blob's size); the JVM's structures (code blobs, methods) are read live,
 * under the walk's fault protection: they outlive the frames on any stack
 * but for code or classes unloaded in between, whose reads then fail their
 * checks or fault. Each compiled frame is then expanded into what it inlined
 * at its pc, from the code map's inlining records (codemap_top). Runs on the
 * session thread.
 */
#include <string.h>

#include "pja.h"
#include "clock.h"
#include "codemap.h"
#include "copywalk.h"
#include "frametype.h"
#include "methods.h"
#include "out.h"
#include "stackwalk.h"

static struct asgct_frame phys[PJA_MAX_DEPTH], raw[PJA_MAX_DEPTH];
static uint64_t pcs[PJA_MAX_DEPTH];
static struct pja_frame out[PJA_MAX_DEPTH];

struct copy_walk {
	struct pja_stackview v;
	const struct pja_copy_req *r;
	/* PJA_COPY_CHAIN, PJA_COPY_BEYOND: the return addresses of the
	 * frame-pointer chain from link on */
	const uint64_t *chain;
	unsigned int nchain;
	uint64_t link;
	int n;
};

/* Whether the live stack's frame-pointer chain from w->link holds the
 * nchain return addresses as at the switch-out; *last its last link (the
 * sp of the frame of its last return address is just above it). */
static int chain_holds(const struct copy_walk *w, uint64_t *last)
{
	uint64_t fp = w->link;

	for (unsigned int i = 0; i < w->nchain; i++) {
		if (!fp || fp & 7 ||
		    *(const volatile uint64_t *)(fp + 8) != w->chain[i])
			return 0;
		*last = fp;
		if (i + 1 < w->nchain) {
			uint64_t next = *(const volatile uint64_t *)fp;

			if (next <= fp)
				return 0;
			fp = next;
		}
	}
	return 1;
}

/* Whether the copy's last COPY_TAIL bytes are still in the live stack. */
#define COPY_TAIL 64u
static int tail_holds(const struct pja_stackview *v)
{
	uint64_t n = v->len < COPY_TAIL ? v->len : COPY_TAIL, at = v->len - n;

	return !memcmp((const void *)(uintptr_t)(v->base + at), v->bytes + at,
		       n);
}

/* PJA_COPY_BEYOND: the walk in the copy stopped at its end. The thread
 * has run on; while it is still inside the frames that straddle the
 * copy's end (the copy's last bytes and the chain's links beyond it
 * unchanged, before and after), the frames beyond are the switch-out's:
 * the walk goes on in the live stack there. */
static void walk_beyond(struct copy_walk *w)
{
	struct pja_stackview v = w->v;
	uint64_t last;
	int n;

	if (!chain_holds(w, &last) || !tail_holds(&v))
		return;
	v.beyond = 0;
	v.live = 1;
	n = frametype_walk_view(&v, phys, pcs, (int)pja.depth, w->r->pc,
				w->r->sp, w->r->fp);
	if (n > w->n && chain_holds(w, &last) && tail_holds(&v)) {
		w->n = n;
		w->v.beyond = 0;
	} else { /* the copy's own walk again: phys[] was overwritten */
		w->n = frametype_walk_view(&w->v, phys, pcs, (int)pja.depth,
					   w->r->pc, w->r->sp, w->r->fp);
	}
}

static int walk(const void *arg)
{
	struct copy_walk *w = (struct copy_walk *)arg;
	uint64_t last = 0;

	if (!(w->r->flags & PJA_COPY_CHAIN)) {
		w->n = frametype_walk_view(&w->v, phys, pcs, (int)pja.depth,
					   w->r->pc, w->r->sp, w->r->fp);
		if (w->v.beyond && w->nchain)
			walk_beyond(w);
		return 0;
	}
	/* the thread has run on: its frames from the chain's end are the
	 * switch-out's while it is still inside that call, before and after
	 * the walk */
	w->n = 0;
	if (!chain_holds(w, &last))
		return 0;
	w->n = frametype_walk_view(NULL, phys, pcs, (int)pja.depth,
				   w->chain[w->nchain - 1], last + 16,
				   *(const volatile uint64_t *)last);
	if (!chain_holds(w, &last))
		w->n = 0;
	return 0;
}

/* Compiled frame f at pc (where the thread was, or a return address) into
 * raw[at..]: the frames it inlined there, innermost first, then its own
 * method. The frames written. */
static unsigned int expand(const struct asgct_frame *f, uint64_t pc,
			   unsigned int at, unsigned int cap)
{
	unsigned int n;

	raw[at].method = NULL;
	raw[at].lineno = 0;
	/* the first record at or after pc: a return address's is at that
	 * very pc */
	n = codemap_top(pc, raw + at, 1, cap - at);
	if (!n || raw[at + n - 1].method != f->method) {
		raw[at] = *f; /* unloaded since, or no records: as walked */
		return 1;
	}
	raw[at + n - 1].lineno |= PJA_SEEN_COMPILED << PJA_SEEN_SHIFT;
	return n;
}

/* The frames walked, expanded and typed into out; their number. */
static unsigned int frames_of(const struct pja_copy_req *r, int nphys,
			      uint32_t *flags)
{
	unsigned int n = 0, cap = pja.depth;
	jboolean native;

	for (int i = 0; i < nphys && n < cap; i++) {
		int kind = phys[i].lineno >> PJA_SEEN_SHIFT;

		if ((*pja.jvmti)
			->IsMethodNative(pja.jvmti, phys[i].method, &native))
			native = 0;
		if (native) {
			raw[n].method = phys[i].method;
			raw[n++].lineno = ASGCT_NATIVE_BCI;
		} else if (kind == PJA_SEEN_COMPILED) {
			n += expand(&phys[i], pcs[i], n, cap);
		} else {
			raw[n++] = phys[i];
		}
	}
	if (n >= cap)
		*flags |= PJA_WALK_TRUNCATED;
	/* no pc types the top frame: each frame is typed as it was seen */
	method_frames(0, raw, out, n);
	return n;
}

static int answer(const struct pja_copy_req *r, const char *stack)
{
	static uint64_t chain[PJA_CHAIN_MAX];
	struct copy_walk w = {
		.v = { r->sp, r->len, (const uint8_t *)stack, 0 }, .r = r
	};
	struct pja_stack_result res = { .cookie = r->cookie,
					.switch_time = r->switch_time,
					.status = PJA_WALK_NOT_WALKABLE,
					.flags = PJA_WALK_COPY };
	unsigned int n = 0;

	if (r->flags & PJA_COPY_CHAIN) {
		w.nchain = r->len / 8;
		memcpy(chain, stack, r->len);
		w.chain = chain;
		w.link = r->fp;
		w.v.len = 0;
	} else if ((r->flags & PJA_COPY_BEYOND) && r->nchain) {
		/* after the copy: the first link outside it, its chain */
		memcpy(&w.link, stack + r->len, 8);
		memcpy(chain, stack + r->len + 8, r->nchain * 8u);
		w.nchain = r->nchain;
		w.chain = chain;
	}
	res.start_time = pja_now();
	if (pja_protected(walk, &w) < 0)
		res.status = PJA_WALK_FAULT;
	else if (w.n > 0)
		res.status = PJA_WALK_OK;
	res.walk_time = pja_now();
	/* stopped by the copy's end, not at the bottom of the Java frames */
	if (w.v.beyond)
		res.flags |= PJA_WALK_TRUNCATED;
	if (res.status == PJA_WALK_OK)
		n = frames_of(r, w.n, &res.flags);
	res.nframes = n;
	return out_msg(PJA_STACK_RESULT, &res, sizeof(res), out,
		       n * sizeof(out[0]), NULL, 0);
}

int copywalk_answer(const char *p, uint32_t len)
{
	struct pja_copy_req r;

	if (len < sizeof(r))
		return 0;
	memcpy(&r, p, sizeof(r));
	if (r.len > len - sizeof(r) || r.len > PJA_COPY_MAX ||
	    ((r.flags & PJA_COPY_CHAIN) &&
	     (!r.len || r.len % 8 || r.len / 8 > PJA_CHAIN_MAX)))
		return 0; /* not ours to answer: the reader counts it lost */
	if ((r.flags & PJA_COPY_BEYOND) &&
	    (r.nchain > PJA_CHAIN_MAX ||
	     8u * (r.nchain + 1) > len - sizeof(r) - r.len))
		r.nchain = 0; /* no chain beyond: the copy alone */
	if (answer(&r, p + sizeof(r)))
		return 0; /* the queue is over its limit: dropped */
	return out_flush();
}

// SPDX-License-Identifier: GPL-2.0
/* Parsing perf ring records; see rings/perf_parse.h. */
#include <string.h>

#include "rings/perf_parse.h"

/* More values than any group perfjava opens: a damaged record. */
#define READ_GROUP_MAX 16

struct cursor {
	const uint8_t *p, *end;
	bool bad;
};

static uint64_t take64(struct cursor *c)
{
	uint64_t v = 0;

	if (c->end - c->p < 8) {
		c->bad = true;
		c->p = c->end;
		return 0;
	}
	memcpy(&v, c->p, 8);
	c->p += 8;
	return v;
}

static const void *take(struct cursor *c, uint64_t n)
{
	const void *at = c->p;

	if ((uint64_t)(c->end - c->p) < n) {
		c->bad = true;
		c->p = c->end;
		return NULL;
	}
	c->p += n;
	return at;
}

/* PERF_SAMPLE_REGS_USER then PERF_SAMPLE_STACK_USER, which follow the
 * branch stack. The copied size (dyn_size) may not exceed the room given. */
static void take_user_regs_stack(struct cursor *c, uint64_t sample_type,
				 uint64_t regs_mask, struct pj_raw_sample *s)
{
	if (sample_type & PERF_SAMPLE_REGS_USER) {
		s->regs_abi = take64(c);
		if (s->regs_abi) {
			s->nregs =
			    (unsigned int)__builtin_popcountll(regs_mask);
			s->regs = take(c, (uint64_t)s->nregs * 8);
			if (!s->regs)
				s->nregs = 0;
		}
	}
	if (sample_type & PERF_SAMPLE_STACK_USER) {
		uint64_t size = take64(c), dyn;

		if (!size)
			return;
		if (size > (uint64_t)(c->end - c->p)) {
			c->bad = true;
			return;
		}
		s->stack = take(c, size);
		dyn = take64(c);
		s->stack_size = dyn <= size ? dyn : size;
		if (!s->stack_size)
			s->stack = NULL;
	}
}

int sample_parse(const struct perf_event_header *hdr, uint64_t sample_type,
		 uint64_t branch_sample_type, struct pj_raw_sample *s)
{
	return sample_parse_regs(hdr, sample_type, branch_sample_type, 0, s);
}

int sample_parse_regs(const struct perf_event_header *hdr, uint64_t sample_type,
		      uint64_t branch_sample_type, uint64_t regs_mask,
		      struct pj_raw_sample *s)
{
	struct cursor c = { (const uint8_t *)(hdr + 1),
			    (const uint8_t *)hdr + hdr->size, false };
	uint64_t v;

	memset(s, 0, sizeof(*s));
	if (hdr->size < sizeof(*hdr))
		return -1;
	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		s->id = take64(&c);
	if (sample_type & PERF_SAMPLE_IP)
		s->ip = take64(&c);
	if (sample_type & PERF_SAMPLE_TID) {
		v = take64(&c);
		s->pid = (uint32_t)v;
		s->tid = (uint32_t)(v >> 32);
	}
	if (sample_type & PERF_SAMPLE_TIME)
		s->time = take64(&c);
	if (sample_type & PERF_SAMPLE_ADDR)
		s->addr = take64(&c);
	if (sample_type & PERF_SAMPLE_ID)
		s->id = take64(&c);
	if (sample_type & PERF_SAMPLE_STREAM_ID)
		s->stream_id = take64(&c);
	if (sample_type & PERF_SAMPLE_CPU)
		s->cpu = (uint32_t)take64(&c);
	if (sample_type & PERF_SAMPLE_PERIOD)
		s->period = take64(&c);
	if (sample_type & PERF_SAMPLE_READ) {
		/* read_format PERF_FORMAT_GROUP: { u64 nr; u64 values[nr]; } */
		uint64_t nv = take64(&c);

		if (nv > READ_GROUP_MAX || nv > (uint64_t)(c.end - c.p) / 8)
			return -1;
		for (uint64_t i = 0; i < nv; i++) {
			v = take64(&c);
			if (i < 2)
				s->read[i] = v;
		}
		s->nread = (unsigned int)nv;
	}
	if (sample_type & PERF_SAMPLE_CALLCHAIN) {
		s->nr = take64(&c);
		if (s->nr > (uint64_t)(c.end - c.p) / 8)
			return -1;
		s->ips = take(&c, s->nr * 8);
	}
	if (sample_type & PERF_SAMPLE_RAW) {
		uint32_t size = 0;
		const void *p = take(&c, 4);

		if (p)
			memcpy(&size, p, 4);
		s->raw_size = size;
		s->raw = take(&c, size);
		/* RAW is padded so that the next field is 8-byte aligned. */
		if (!c.bad && ((c.p - (const uint8_t *)hdr) & 7))
			take(&c, 8 - ((c.p - (const uint8_t *)hdr) & 7));
	}
	if (sample_type & PERF_SAMPLE_BRANCH_STACK) {
		s->nbranch = take64(&c);
		if (branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			take64(&c);
		if (s->nbranch >
		    (uint64_t)(c.end - c.p) / sizeof(struct perf_branch_entry))
			return -1;
		s->branches =
		    take(&c, s->nbranch * sizeof(struct perf_branch_entry));
	}
	take_user_regs_stack(&c, sample_type, regs_mask, s);
	return c.bad ? -1 : 0;
}

enum callchain_ctx callchain_marker(uint64_t v)
{
	switch (v) {
	case PERF_CONTEXT_HV:
		return CC_HV;
	case PERF_CONTEXT_KERNEL:
		return CC_KERNEL;
	case PERF_CONTEXT_USER:
		return CC_USER;
	case PERF_CONTEXT_GUEST:
	case PERF_CONTEXT_GUEST_KERNEL:
		return CC_GUEST_KERNEL;
	case PERF_CONTEXT_GUEST_USER:
		return CC_GUEST_USER;
	default:
		return CC_NONE;
	}
}

void callchain_iter_init(struct callchain_iter *it, const uint64_t *ips,
			 uint64_t nr)
{
	it->ips = ips;
	it->nr = nr;
	it->i = 0;
	it->ctx = CC_NONE;
}

bool callchain_next(struct callchain_iter *it, uint64_t *ip,
		    enum callchain_ctx *ctx)
{
	while (it->i < it->nr) {
		uint64_t v = it->ips[it->i++];

		if (v >= (uint64_t)PERF_CONTEXT_MAX) {
			/* Unknown markers are skipped; known ones set context. */
			it->ctx = callchain_marker(v);
			continue;
		}
		*ip = v;
		*ctx = it->ctx;
		return true;
	}
	return false;
}

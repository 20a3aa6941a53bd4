// SPDX-License-Identifier: GPL-2.0
/*
 * Stack requests for blocked threads (jvm/stacks.h), queued with the walks'
 * on the connection's queue (jvm/conn.c), and their answers. An answer comes
 * from the target: its counts are checked against the message, its frames
 * named from the method table like a walk's.
 */
#include <string.h>

#include "jvm/conn_internal.h"
#include "jvm/stacks.h"
#include "jvm/walks.h"
#include "lib/grow.h"
#include "perfjava/agent_proto.h"

bool agent_has_stacks(const struct agent *a)
{
	return a && a->fd >= 0 && (a->hello.flags & PJA_HELLO_STACKS);
}

bool agent_has_copy(const struct agent *a)
{
	return a && a->fd >= 0 && (a->hello.flags & PJA_HELLO_COPY);
}

bool agent_has_chain(const struct agent *a)
{
	return agent_has_copy(a) && (a->hello.flags & PJA_HELLO_CHAIN);
}

int agent_ask_pump(struct agent *a)
{
	struct pja_hdr h = { PJA_PUMP, 0 };

	if (!a || a->fd < 0 || a->out_len >= AGENT_MAX_OUT ||
	    agent_grow(a, &a->out, &a->out_cap, a->out_len + sizeof(h)))
		return -1;
	memcpy(a->out + a->out_len, &h, sizeof(h));
	a->out_len += sizeof(h);
	return 0;
}

int agent_ask_stack(struct agent *a, pid_t tid, uint64_t switch_time,
		    uint64_t cookie)
{
	struct pja_walk_req r = { cookie, switch_time, 0, 0 };
	struct pja_hdr h = { PJA_STACK, sizeof(r) };
	pid_t ns = agent_target_tid(a, tid);

	if (!agent_has_stacks(a) || ns <= 0 || a->out_len >= AGENT_MAX_OUT ||
	    agent_grow(a, &a->out, &a->out_cap,
		       a->out_len + sizeof(h) + sizeof(r)))
		return -1;
	r.tid = (uint32_t)ns;
	memcpy(a->out + a->out_len, &h, sizeof(h));
	memcpy(a->out + a->out_len + sizeof(h), &r, sizeof(r));
	a->out_len += sizeof(h) + sizeof(r);
	return 0;
}

int agent_ask_copy(struct agent *a, pid_t tid, uint64_t time,
		   const struct stack_copy *c, uint64_t cookie)
{
	bool chain = !c->stack && c->nchain;
	uint32_t nbeyond = c->stack && agent_has_chain(a) ? c->nchain : 0;
	const void *bytes = chain ? (const void *)c->chain : c->stack;
	uint32_t len = chain ? c->nchain * 8u : c->len;
	uint32_t tail = nbeyond ? 8u * (nbeyond + 1) : 0;
	struct pja_copy_req r = { .cookie = cookie,
				  .switch_time = time,
				  .pc = c->pc,
				  .sp = c->sp,
				  .fp = c->fp,
				  .flags = chain    ? PJA_COPY_CHAIN
					   : c->top ? PJA_COPY_TOP
						    : 0,
				  .len = len,
				  .nchain = nbeyond };
	struct pja_hdr h = { PJA_STACK_COPY, sizeof(r) + len + tail };
	pid_t ns = agent_target_tid(a, tid);
	size_t need = sizeof(h) + sizeof(r) + len + tail;
	uint8_t *at;

	if (!agent_has_copy(a) || ns <= 0 || (!c->stack && !chain) ||
	    (chain && !agent_has_chain(a)) || c->nchain > PJA_CHAIN_MAX ||
	    len > PJA_COPY_MAX)
		return -1;
	if (nbeyond)
		r.flags |= PJA_COPY_BEYOND;
	/* copies come by the thousand a second: the queue moves on when
	 * large rather than when full */
	if (a->out_len + need > AGENT_FLUSH_OUT)
		agent_flush(a);
	if (a->out_len + need > AGENT_MAX_COPY_OUT ||
	    agent_grow(a, &a->out, &a->out_cap, a->out_len + need))
		return -1;
	r.tid = (uint32_t)ns;
	at = (uint8_t *)a->out + a->out_len;
	memcpy(at, &h, sizeof(h));
	memcpy(at + sizeof(h), &r, sizeof(r));
	memcpy(at + sizeof(h) + sizeof(r), bytes, len);
	if (nbeyond) {
		memcpy(at + sizeof(h) + sizeof(r) + len, &c->link, 8);
		memcpy(at + sizeof(h) + sizeof(r) + len + 8, c->chain,
		       8u * nbeyond);
	}
	a->out_len += need;
	return 0;
}

void agent_on_stack(struct agent *a, agent_stack_cb cb, void *ctx)
{
	a->stack_cb = cb;
	a->stack_ctx = ctx;
}

static int map_status(int32_t s)
{
	switch (s) {
	case PJA_WALK_OK:
		return AGENT_WALK_OK;
	case PJA_WALK_NOT_JAVA:
		return AGENT_WALK_NOT_JAVA;
	case PJA_WALK_GONE:
		return AGENT_WALK_GONE;
	default:
		return AGENT_WALK_NOT_WALKABLE;
	}
}

void agent_stack_result(struct agent *a, const char *p, uint32_t len)
{
	struct pja_stack_result r;
	struct agent_stack st;
	int n;

	if (len < sizeof(r)) {
		a->stats.dropped++;
		return;
	}
	memcpy(&r, p, sizeof(r));
	n = agent_result_frames(a, p, len, sizeof(r), r.nframes);
	if (n < 0)
		return;
	st.cookie = r.cookie;
	st.switch_time = r.switch_time;
	st.start_time = r.start_time;
	st.walk_time = r.walk_time;
	st.status = map_status(r.status);
	st.state = r.state;
	st.copy = r.flags & PJA_WALK_COPY;
	st.truncated = r.flags & PJA_WALK_TRUNCATED;
	st.frames = a->frames;
	st.n = st.status == AGENT_WALK_OK ? (unsigned int)n : 0;
	if (a->stack_cb)
		a->stack_cb(a->stack_ctx, &st);
}

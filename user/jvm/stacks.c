// SPDX-License-Identifier: GPL-2.0
/*
 * Answers to the stack requests for blocked threads (jvm/stacks.h; the
 * requests are queued in jvm/client.c with the walks'). An answer comes from
 * the target: its counts are checked against the message,
 * its frames named from the method table like a walk's.
 */
#include <string.h>

#include "jvm/client_internal.h"
#include "jvm/stacks.h"
#include "perfjava/agent_proto.h"

bool agent_has_stacks(const struct agent *a)
{
	return a && a->fd >= 0 && (a->hello.flags & PJA_HELLO_STACKS);
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
	st.frames = a->frames;
	st.n = st.status == AGENT_WALK_OK ? (unsigned int)n : 0;
	if (a->stack_cb)
		a->stack_cb(a->stack_ctx, &st);
}

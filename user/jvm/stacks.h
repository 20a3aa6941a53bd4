/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Java stacks of blocked threads (jvm/stacks.c): the reader asks the
 * agent (PJA_STACK) for the stack of a thread it saw switch out; the agent's
 * own thread takes it with JVMTI GetStackTrace, without waking the thread,
 * and answers with the frames and the time of the walk. Or the reader sends
 * a copy of the thread's stack taken at the switch-out (PJA_STACK_COPY), in
 * which the agent walks the Java frames of that very instant.
 */
#ifndef PJ_USER_JVM_STACKS_H
#define PJ_USER_JVM_STACKS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "jvm/types.h"
#include "perfjava/agent_proto.h"

struct agent;

struct agent_stack {
	uint64_t cookie;
	uint64_t switch_time; /* as asked */
	uint64_t start_time, walk_time; /* around GetStackTrace (monotonic) */
	int status; /* enum agent_walk_status */
	uint32_t state; /* the thread's JVMTI state after the walk */
	bool copy; /* walked in the stack copy sent (agent_ask_copy) */
	bool truncated; /* frames beyond the copy or the depth are missing */
	const struct java_frame *frames; /* innermost first; valid in cb */
	unsigned int n;
};
typedef void (*agent_stack_cb)(void *ctx, const struct agent_stack *st);

/* Whether the agent answers stack requests. */
bool agent_has_stacks(const struct agent *a);
/* Whether it answers copy requests (agent_ask_copy). */
bool agent_has_copy(const struct agent *a);
/* Whether it takes a frame-pointer chain for frames beyond the copy. */
bool agent_has_chain(const struct agent *a);
/* Where answers go (from agent_process). */
void agent_on_stack(struct agent *a, agent_stack_cb cb, void *ctx);
/* Asks a's agent to move its walks at the sample now (PJA_PUMP), queued as
 * agent_ask_stack's requests are; -1 when it cannot be. */
int agent_ask_pump(struct agent *a);
/* Queues a request for the stack of tid (the reader's), switched out at
 * switch_time; sent by agent_flush. -1 when it cannot be asked. */
int agent_ask_stack(struct agent *a, pid_t tid, uint64_t switch_time,
		    uint64_t cookie);

/*
 * A copy of a thread's stack from the first frame in the JVM's generated
 * code up: that frame's pc (a return address unless top: where the thread
 * was stopped), stack and frame pointers, and len bytes of the stack from
 * sp (not owned).
 */
struct stack_copy {
	uint64_t pc, sp, fp;
	const uint8_t *stack; /* NULL: none */
	uint32_t len;
	bool top;
	/* with no stack: its Java frames beyond the copy, the frame-pointer
	 * chain from fp on (fp the first link outside the copy) holds these
	 * return addresses, the last one in the JVM's code. With a stack: the
	 * chain's return addresses from link, its first link outside the
	 * copy (PJA_COPY_BEYOND). nchain 0: none */
	uint64_t chain[PJA_CHAIN_MAX];
	uint32_t nchain;
	uint64_t link;
};
/* Queues a request for the Java frames in c (tid's, taken at time); the
 * bytes are copied. -1 when it cannot be asked. */
int agent_ask_copy(struct agent *a, pid_t tid, uint64_t time,
		   const struct stack_copy *c, uint64_t cookie);

/* For jvm/messages.c: a PJA_STACK_RESULT, handed to the agent_on_stack cb. */
void agent_stack_result(struct agent *a, const char *p, uint32_t len);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What jvm/client.c and jvm/messages.c share: the connection's state (struct
 * agent) and the few functions one calls in the other. Not for other parts;
 * they use jvm/client.h.
 */
#ifndef PJ_USER_AGENT_INTERNAL_H
#define PJ_USER_AGENT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "jvm/client.h"
#include "jvm/stacks.h"
#include "jvm/codemap.h"
#include "lib/strpool.h"
#include "lib/u64map.h"
#include "perfjava/agent_proto.h"

/*
 * What one agent may make the reader keep, at most (the agent is the
 * target's, and may be hostile): bytes of method, name and line data, methods,
 * code map entries, named threads alive at once, bytes kept of one name, line
 * table entries of one method, and the size of the HELLO message.
 */
#define AGENT_MAX_BYTES ((size_t)512 << 20)
#define AGENT_MAX_METHODS (1u << 21)
#define AGENT_MAX_CODE (1u << 18)
#define AGENT_MAX_THREADS (1u << 16)
#define AGENT_MAX_NAME 1024u
#define AGENT_MAX_LINES 65536u
#define AGENT_MAX_HELLO 4096u

/* A method the agent described (PJA_METHOD), by jmethodID in agent.methods. */
struct jmethod {
	const char *name; /* "java.util.zip.Deflater.deflate" */
	const char *file;
	uint32_t nlines;
	uint32_t native;
	struct pja_line *lines;
};

struct agent {
	pid_t pid;
	int fd;
	int same_ns;
	int hello_seen;
	struct pja_hello hello;
	char *out;
	size_t out_len, out_cap;
	char *in;
	size_t in_len, in_cap;
	uint64_t *pending; /* cookies of requests sent, in order */
	size_t pend_head, pend_n, pend_cap;
	struct u64map strings; /* hash -> chain of interned strings */
	struct strstore names; /* the interned strings themselves */
	struct u64map methods; /* jmethodID -> struct jmethod */
	struct u64map threads; /* target tid -> name (malloc'd), while alive */
	struct u64map nstid; /* reader tid -> target tid (other namespaces) */
	struct codemap code; /* at most AGENT_MAX_CODE entries */
	struct java_frame *frames;
	struct agent_stats stats;
	size_t spent; /* bytes charged against AGENT_MAX_BYTES */
	struct walk_ring *ring; /* walks at the sample (jvm/walkring.c) */
	/* the JVM's own events (jvm/jevents.c) */
	int ev_asked, ev_answered;
	uint32_t ev_on, ev_failed;
	uint64_t ev_stray, ev_dropped;
	struct u64map classes; /* class id -> interned name */
	struct u64map vthreads; /* virtual thread id -> name (malloc'd) */
	/* answers to stack requests (jvm/stacks.c) */
	void (*stack_cb)(void *ctx, const struct agent_stack *st);
	void *stack_ctx;
};

/* jvm/walks.c: a frame of a walk with its method's name and line. */
void agent_name_frame(const struct agent *a, const struct pja_frame *f,
		      struct java_frame *out);
/* The frames of a walk or stack result: nframes pja_frames after its head
 * of hsize bytes in the len-byte message p, checked against len and cut to
 * the HELLO's depth, named into a->frames. Their number, or -1 (counted as
 * dropped) when the message is too short for its head or its frames. */
int agent_result_frames(struct agent *a, const char *p, uint32_t len,
			size_t hsize, uint32_t nframes);
/* Counts a walk's outcome in a->stats; its enum agent_walk_status. */
int agent_count_walk(struct agent *a, int32_t status, int32_t asgct,
		     uint32_t flags);
/* jvm/stacks.c: a PJA_STACK_RESULT, handed to stack_cb. */
void agent_stack_result(struct agent *a, const char *p, uint32_t len);
/* jvm/jevents.c: EVENTS_READY, CLASS and VTHREAD; their tables freed. */
void agent_events_ready(struct agent *a, const char *p, uint32_t len);
void agent_class(struct agent *a, const char *p, uint32_t len);
void agent_vthread(struct agent *a, const char *p, uint32_t len);
void agent_events_free(struct agent *a);
/* Bytes of requests queued for the agent, at most; walk requests stop
 * at AGENT_MAX_UNSENT (an agent that stops reading has them refused);
 * large requests (stack copies) are sent on before the queue passes
 * AGENT_FLUSH_OUT, and may fill it up to AGENT_MAX_COPY_OUT (an agent busy
 * with its start). */
#define AGENT_MAX_OUT ((size_t)4 << 20)
#define AGENT_MAX_UNSENT ((size_t)256 << 10)
#define AGENT_FLUSH_OUT ((size_t)1 << 20)
#define AGENT_MAX_COPY_OUT ((size_t)16 << 20)
/* jvm/walkring.c: PJA_RING_READY, and the ring's end with the agent. */
void agent_ring_ready(struct agent *a, const char *p, uint32_t len);
void agent_ring_free(struct agent *a);

/* Interns s[0..len) (at most AGENT_MAX_NAME bytes, made terminal-safe);
 * the copy lives until agent_stop(). "" when over the budget. */
const char *agent_intern(struct agent *a, const char *s, size_t len);
/* 0 when h and hello open a stream we speak; -1 another protocol, -2 a
 * depth out of range. */
int agent_check_hello(const struct pja_hdr *h, const struct pja_hello *hello);
/* A connection's state for a checked hello, fd -1; NULL when out of memory. */
struct agent *agent_alloc(pid_t pid, const struct pja_hello *hello);
/* Takes in the complete messages of buf[0..len): the bytes used, or -1
 * when the stream is broken (nothing after can be trusted). */
long agent_consume(struct agent *a, const char *buf, size_t len,
		   agent_walk_cb cb, void *ctx);
/* Reports every pending walk as AGENT_WALK_LOST. */
void agent_lose_pending(struct agent *a, agent_walk_cb cb, void *ctx);
/* Frees a's state (not its fd). */
void agent_free(struct agent *a);
#endif

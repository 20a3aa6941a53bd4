/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One agent connection's state (struct agent), what the files of jvm/ share
 * under jvm/client.h: the caps on what an agent makes the reader keep, the
 * method table, the outgoing queue and the interned names (jvm/conn.c). Not
 * for other parts; they use jvm/client.h.
 */
#ifndef PJ_USER_JVM_CONN_INTERNAL_H
#define PJ_USER_JVM_CONN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "jvm/codemap.h"
#include "jvm/conn.h"
#include "jvm/types.h"
#include "lib/strpool.h"
#include "lib/u64map.h"
#include "perfjava/agent_proto.h"

struct agent_stack;
struct walk_ring;

/*
 * The reader's memory for what the agents send (the agent is the target's,
 * and may be hostile): one budget for all agents together, and a share of
 * it per uid (the JVM's real uid), so that whatever the number of JVMs (or
 * processes that speak as agents) a user starts, they hold at most that
 * share and the other users' JVMs keep theirs. Charged (agent_charge):
 * each agent's state when it comes, its buffers as they grow, its walk
 * ring, method, name, line and thread data, code map entries. Beyond it,
 * what an agent sends is dropped and counted (agent_stats.over_budget); an
 * agent whose uid has no room for its state is refused.
 */
#define AGENTS_MAX_BYTES ((size_t)192 << 20)
#define AGENTS_UID_BYTES ((size_t)96 << 20)
#define AGENTS_UIDS 256 /* uids with an agent at once, at most */
/*
 * What one agent may make the reader keep besides, at most: methods, code
 * map entries, named threads alive at once, bytes kept of one name, line
 * table entries of one method, and the size of the HELLO message.
 */
#define AGENT_MAX_METHODS (1u << 21)
#define AGENT_MAX_CODE (1u << 18)
#define AGENT_MAX_THREADS (1u << 16)
#define AGENT_MAX_NAME 1024u
#define AGENT_MAX_LINES 65536u
#define AGENT_MAX_HELLO 4096u

/* Bytes of requests queued for the agent, at most; walk requests stop
 * at AGENT_MAX_UNSENT (an agent that stops reading has them refused);
 * large requests (stack copies) are sent on before the queue passes
 * AGENT_FLUSH_OUT, and may fill it up to AGENT_MAX_COPY_OUT (an agent busy
 * with its start). */
#define AGENT_MAX_OUT ((size_t)4 << 20)
#define AGENT_MAX_UNSENT ((size_t)256 << 10)
#define AGENT_FLUSH_OUT ((size_t)1 << 20)
#define AGENT_MAX_COPY_OUT ((size_t)16 << 20)

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
	uint64_t out_stuck_ns; /* since when none of out was taken; 0: it was */
	char *in;
	size_t in_len, in_cap;
	uint64_t *pending; /* cookies of requests sent, in order */
	size_t pend_head, pend_n, pend_cap;
	struct u64map strings; /* hash -> chain of interned strings */
	struct strstore names; /* the interned strings themselves */
	struct u64map methods; /* jmethodID -> struct jmethod */
	struct u64map threads; /* target tid -> name (malloc'd), while alive */
	bool thread_started; /* one it had not named: agent_thread_started */
	struct u64map nstid; /* reader tid -> target tid (other namespaces) */
	struct codemap code; /* at most AGENT_MAX_CODE entries */
	struct java_frame *frames;
	struct agent_stats stats;
	/* bytes charged to the budget, and its uid's place there (-1: none) */
	size_t spent;
	int share;
	size_t code_charged; /* code map entries charged for */
	/* its socket closed by the reader: no room to read it (its user's
	 * share spent by its other agents, or no memory) */
	bool dropped;
	struct walk_ring *ring; /* walks at the sample (jvm/walkring.c) */
	int copies; /* agent libraries the JVM maps (jvm/rendezvous.h) */
	/* the JVM's own events (jvm/jevents.c) */
	int ev_asked, ev_answered;
	uint32_t ev_on, ev_failed;
	uint64_t ev_stray, ev_dropped;
	struct pja_park park; /* its Unsafe.park hook (PJA_PARK), zero: none */
	struct u64map classes; /* class id -> interned name */
	struct u64map vthreads; /* virtual thread id -> name (malloc'd) */
	const char *vm_name, *vm_version; /* PJA_VM_INFO, interned */
	/* answers to stack requests (jvm/stacks.c) */
	void (*stack_cb)(void *ctx, const struct agent_stack *st);
	void *stack_ctx;
};

/* a joins the budget as uid's, its state charged; 0, or -1 (errno EDQUOT:
 * no room for it). */
int agent_budget_join(struct agent *a, uid_t uid);
/* a leaves it: all it was charged is given back. */
void agent_budget_leave(struct agent *a);
/* Charges n bytes to a's uid's share and the budget; -1 (counted in
 * over_budget: what needs them is dropped) when there is no room. */
int agent_charge(struct agent *a, size_t n);
/* Gives back n bytes charged to a (what they held was freed). */
void agent_refund(struct agent *a, size_t n);
/* What a name kept by the agent's own malloc costs it (thread names). */
size_t agent_name_cost(const char *s);
/* Grows *buf (capacity *cap bytes) to hold need bytes, by doubling, the
 * growth charged; 0, or -1 (out of memory or over the budget: unchanged). */
int agent_grow(struct agent *a, char **buf, size_t *cap, size_t need);
/* Interns s[0..len) (at most AGENT_MAX_NAME bytes, made terminal-safe);
 * the copy lives until agent_stop(). "" when over the budget. */
const char *agent_intern(struct agent *a, const char *s, size_t len);

#endif

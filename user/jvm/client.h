/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reader's side of the agent: start it in a JVM (socket + HotSpot attach),
 * send walk requests, receive Java stacks, method names, the JIT code map and
 * thread names. Wire format: include/perfjava/agent_proto.h.
 */
#ifndef PJ_USER_AGENT_H
#define PJ_USER_AGENT_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>

#include "perfjava/walk_ring.h"

struct agent;
struct codemap;

enum agent_walk_status {
	AGENT_WALK_OK = 0,
	AGENT_WALK_NOT_JAVA, /* thread has no Java frames / not a Java thread */
	AGENT_WALK_NOT_WALKABLE, /* AsyncGetCallTrace could not walk (GC, ...) */
	AGENT_WALK_TIMEOUT, /* the thread did not answer in time */
	AGENT_WALK_FAULT, /* a fault during the walk was caught */
	AGENT_WALK_GONE, /* the thread exited */
	AGENT_WALK_LOST, /* the agent went away before answering */
};

struct java_frame {
	uint8_t
	    type; /* PJ_FRAME_JIT, _INLINED, _INTERPRETED, _C1, _JAVA_NATIVE */
	/* "java.util.zip.Deflater.deflateBytes([BIII)I": the JVM signature
	 * follows when the agent sent it */
	const char *name;
	const char *file; /* "Deflater.java" or NULL */
	uint32_t line; /* 0 = unknown */
};

/*
 * Whether Java method names a and b are the same method, a signature on
 * one side only aside (the code map's names may come without: an agent of
 * an older build).
 */
bool java_same_method(const char *a, const char *b);

/* frames[0] is the innermost Java frame. */
typedef void (*agent_walk_cb)(void *ctx, uint64_t cookie, int status,
			      const struct java_frame *frames, unsigned int n,
			      uint64_t walk_time_ns);

/*
 * Attaches the agent at agent_path to JVM pid and waits (bounded) for it to
 * connect back. 0 on success; -1 with a one-line reason in err (attach
 * disabled, not HotSpot, agent failed to load, ...).
 */
int agent_start(pid_t pid, const char *agent_path, struct agent **out,
		char *err, size_t errlen);
/*
 * Takes the connection of the agent in JVM pid on the listening socket lfd
 * (waiting at most timeout_ms) and checks its HELLO: what agent_start() does
 * after the attach, and the reader's side of an agent loaded with
 * -agentpath at the JVM's start (record/launch.c). 0, or -1 with err.
 */
int agent_accept(pid_t pid, int lfd, int timeout_ms, struct agent **out,
		 char *err, size_t errlen);
/* The socket to poll for POLLIN. */
int agent_fd(const struct agent *a);
/* Queues a walk request for tid, sampled at sample_time (CLOCK_MONOTONIC). */
int agent_request(struct agent *a, pid_t tid, uint64_t sample_time,
		  uint64_t cookie);
/* Sends queued requests without waiting: 0 when all are sent, 1 when the
 * agent is not reading (they stay queued), -1 when it is gone. */
int agent_flush(struct agent *a);
/* Reads what is available and calls cb for each finished walk. Returns 0, or
 * -1 when the agent has gone (then every pending walk is reported LOST). */
int agent_process(struct agent *a, agent_walk_cb cb, void *ctx);
/*
 * The code the JVM generated (compiled methods, stubs, the interpreter), by
 * address; NULL for no agent. Valid until agent_stop(); agent_process() may
 * change it.
 */
const struct codemap *agent_codemap(const struct agent *a);
/* Thread name from the JVM, or NULL. */
const char *agent_thread_name(const struct agent *a, pid_t tid);
/* Counters, for the recorder's summary. */
struct agent_stats {
	uint64_t requests; /* walk requests queued */
	uint64_t results[AGENT_WALK_LOST + 1]; /* answers by agent_walk_status */
	uint64_t truncated; /* walks cut at the depth limit */
	/* walks AsyncGetCallTrace refused at first, by its code (-code), and
	 * the ones recovered, by enum pja_walk_how */
	uint64_t asgct[16];
	uint64_t recovered[8];
	uint64_t code_loads; /* code map entries received */
	uint64_t code_entries; /* live code map entries now */
	uint64_t methods; /* method definitions received */
	uint64_t bytes_in;
	uint64_t dropped; /* messages refused: malformed or over a cap */
	uint64_t unsent; /* walks not asked: the agent stopped reading */
	/* where walk latency goes, summed over answered walks: sample time to
	 * the agent reading the request, and from there to the walk */
	uint64_t to_agent_ns, to_walk_ns, timed;
};
void agent_get_stats(const struct agent *a, struct agent_stats *st);
/* tid (the reader's) as the target sees it; <= 0 when unknown. */
pid_t agent_target_tid(struct agent *a, pid_t tid);

/* Agents started from now on are told that a walk ring will be offered (or
 * declined) at once: they wait for it (bounded) before their replay of code
 * and threads, so that walks at the sample start with the recording. */
void agent_offer_rings(int on);

/*
 * Walks taken at the sample (jvm/walkring.c, perfjava/walk_ring.h): the
 * agent's signal handler walks the thread the kernel signalled for a sample
 * and leaves the walk in memory shared with the reader.
 */
/* An event of the JVM's own that came with a ring walk (struct pjw_event,
 * perfjava/walk_ring.h), its class named. */
struct ring_event {
	uint32_t kind; /* enum pjw_event_kind */
	uint32_t flags; /* PJW_EVF_* */
	uint64_t value;
	const char *cls; /* the class's name, or NULL */
	uint64_t vthread; /* the virtual thread's id, 0: none */
};

struct ring_walk {
	const struct ring_event *ev; /* NULL: a plain walk at a sample */
	pid_t tid; /* the target's namespace */
	int fd; /* the reader's perf event fd that signalled */
	uint64_t time; /* when the handler ran (CLOCK_MONOTONIC) */
	int status; /* enum agent_walk_status */
	const struct java_frame *frames; /* innermost first */
	unsigned int n;
};
typedef void (*agent_ring_cb)(void *ctx, const struct ring_walk *w);
/* Offers the agent a ring of size bytes (a power of two), when it takes
 * one; nothing may be queued (agent_flush first). 0 when offered;
 * agent_ring_signal() then says when it is ready. */
int agent_ring_offer(struct agent *a, uint64_t size);
/* Tells an agent told so at its start that no ring comes (agent_flush
 * first). */
void agent_ring_decline(struct agent *a);
/* The agent's signal for walks at the sample once it confirmed the ring;
 * 0 while waiting, -1 when refused, not offered or gone. */
int agent_ring_signal(const struct agent *a);
/* Whether the agent's SIGTRAP handler is installed (PJA_HELLO_SIGTRAP): a
 * perf event of a JVM thread may then be opened with attr.sigtrap and
 * sig_data PJA_TRAP_DATA(a key of its own), its walks at the sample in the
 * ring like those of the real-time signal. */
bool agent_ring_traps(const struct agent *a);
/* Calls cb for each walk in the ring; returns how many. */
unsigned int agent_ring_drain(struct agent *a, agent_ring_cb cb, void *ctx);
struct agent_ring_stats {
	uint64_t walks; /* walks read */
	uint64_t bad; /* records refused (broken or out of bounds) */
	uint64_t full; /* walks the agent dropped: a ring was full */
	uint64_t busy; /* signals the agent could not walk */
	/* the agent's own cost, as it says (perfjava/walk_ring.h) */
	uint64_t timed; /* walks its handler timed */
	uint64_t own; /* of them, walked by itself (not AsyncGetCallTrace) */
	uint64_t part_ns[PJW_PARTS]; /* their time by part */
	uint64_t part_med_ns[PJW_PARTS]; /* the median walk's */
	uint64_t pumped, pump_ns; /* walks its session thread moved, time */
	uint64_t checked, check_same; /* tests: its walks against ASGCT's */
};
void agent_ring_get_stats(const struct agent *a, struct agent_ring_stats *st);

/*
 * The JVM's own events (jvm/jevents.c): asks the agent for them (PJA_EV_*
 * flags; the interval of sampled allocations in bytes, the shortest lock
 * wait in ns) once per session; agent_flush sends it. -1 when this agent
 * does not take them.
 */
int agent_events_ask(struct agent *a, uint64_t alloc_interval, uint64_t lock_ns,
		     uint32_t flags);
/* What the agent turned on (PJA_EV_*) and, in *failed, what it could not;
 * in *stray the events the JVM posted while none was asked for; -1 while
 * it has not answered. */
int agent_events_on(const struct agent *a, uint32_t *failed, uint64_t *stray);
/* The events the agent dropped so far (over its rate bound, or busy). */
uint64_t agent_events_dropped(const struct agent *a);
/* The name of a class an event names, or of a named virtual thread; NULL
 * when unknown (a virtual thread without a name: its id). */
const char *agent_class_name(const struct agent *a, uint64_t id);
const char *agent_vthread_name(const struct agent *a, uint64_t id);

/* Tells the agent to stop its work and closes the connection. */
void agent_stop(struct agent *a);
/* Path of the agent library next to the perfjava binary. */
const char *agent_default_path(void);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The values the reader's side of the agent hands out (jvm/client.h): a
 * walk's outcome, a Java frame named, the callback that takes a walk, the
 * connection's counters. Types only: every file of jvm/ that takes a
 * message in uses them.
 */
#ifndef PJ_USER_JVM_TYPES_H
#define PJ_USER_JVM_TYPES_H

#include <stdint.h>

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

/* frames[0] is the innermost Java frame. */
typedef void (*agent_walk_cb)(void *ctx, uint64_t cookie, int status,
			      const struct java_frame *frames, unsigned int n,
			      uint64_t walk_time_ns);

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
	/* the longest probe into the method table (lib/u64map.h): ids the
	 * target chose to collide stay short with the run's seed */
	uint64_t methods_probe_max;
	uint64_t bytes_in;
	uint64_t dropped; /* messages refused: malformed or over a cap */
	uint64_t unsent; /* walks not asked: the agent stopped reading */
	/* what it sent that the agents' memory budget had no room for
	 * (jvm/conn_internal.h): messages dropped, buffers not grown */
	uint64_t over_budget;
	/* where walk latency goes, summed over answered walks: sample time to
	 * the agent reading the request, and from there to the walk */
	uint64_t to_agent_ns, to_walk_ns, timed;
};

#endif

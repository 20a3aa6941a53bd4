/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One sample's stack from its parts, leaf first: kernel frames, the native
 * frames above the first JVM-generated code, that code itself when it is no
 * Java method's (a stub, an adapter, the interpreter: where the CPU was) or
 * a compiled method a walk at the sample left out (sampled in its entry),
 * the agent's Java frames, then (on request) the thread's native base.
 *
 * The native frames go under the Java frames only when they belong to them:
 * the innermost Java frame is a native method (the JNI function and what it
 * called), or the kernel's chain reaches JVM code that agrees with the walk
 * (a stub, the interpreter, or the walk's own compiled method). Otherwise, and
 * when the walk failed, the sample keeps everything the kernel gave (native
 * frames, JVM code named from the code map) and a marker frame on the root
 * side says why its Java stack is missing, so that the leaf keeps its time.
 *
 * One base per thread: a walked stack ends at the thread's outermost Java
 * frame (Thread.run, Main.main), as async-profiler's do, whatever the chain
 * reached below it. On request (record --native-base) it ends instead with
 * the native frames below that frame (start_thread ... JavaCalls::
 * call_helper): the same for every walked stack of the thread, the longest
 * complete one (all named, down to a thread entry) seen for it, since the
 * chain through JIT code often stops short of them.
 *
 * A pure function of its inputs: frames are named through a sink, which the
 * recorder backs with its symbolizer and the unit test with a table.
 */
#ifndef PJ_USER_MERGE_H
#define PJ_USER_MERGE_H

#include <stdbool.h>
#include <stdint.h>

#include "jvm/client.h"
#include "jvm/codemap.h"

struct symbolizer;

#define MERGE_MAX_FRAMES 4096

/* Walk status for samples with no walk requested. */
#define MERGE_NO_WALK (-1)
/* Marker reason beyond enum agent_walk_status: the walk's Java frames do
 * not belong with the sample's native frames (taken at another moment). */
#define MERGE_MOVED_ON (AGENT_WALK_LOST + 1)
#define MERGE_NREASONS (MERGE_MOVED_ON + 1)

struct merge_sink {
	void *ctx;
	/* Frame id of a native address; *known false when nothing names it. */
	uint32_t (*native)(void *ctx, uint64_t ip, bool leaf, bool *known);
	/* Frame id of a named frame (Java, JVM code, marker). */
	uint32_t (*frame)(void *ctx, int type, const char *name,
			  const char *file, uint32_t line);
	/* Whether the native function at ip is a JNI entry (Java_*, JVM_*),
	 * reached only through a Java native method. NULL: never. */
	bool (*jni_entry)(void *ctx, uint64_t ip, bool leaf);
	/* Records frame id's address (JIT code's start). NULL: none. */
	void (*frame_addr)(void *ctx, uint32_t id, uint64_t addr);
	/* Whether the return address ip is in a thread's first function
	 * (start_thread, clone3, _start). NULL: any is. */
	bool (*thread_entry)(void *ctx, uint64_t ip);
	/* Whether ip lies in anonymous memory (a JVM's JIT code, or data).
	 * NULL: never. */
	bool (*anon)(void *ctx, uint64_t ip);
};

#define MERGE_MAX_BASE 64

/* A thread's native base: frame ids, innermost first, thread entry last. */
struct merge_base {
	uint32_t ids[MERGE_MAX_BASE];
	unsigned int n;
};

struct merge_in {
	const uint32_t *kframes; /* kernel frame ids, leaf first */
	unsigned int nk;
	const uint64_t *uips; /* user addresses, leaf first */
	unsigned int nu;
	const struct codemap *code; /* NULL for a native process */
	int walk_status; /* enum agent_walk_status, or MERGE_NO_WALK */
	const struct java_frame *jf; /* innermost first */
	unsigned int nj;
	const char *root; /* a marker frame at the root, or NULL */
	/* the walk was taken while the thread was still blocked where the
	 * kernel's chain was taken (off-CPU, pipeline/offjava.c): the native
	 * frames belong under the Java frames wherever the chain ends */
	bool held;
	/* the walk was taken in the sampled thread's signal at the sample,
	 * its user state the chain's: native frames whose chain stops short
	 * of Java code belong under it unless a JNI entry says the native
	 * method had returned (a walk matched to another sample) */
	bool at_sample;
	/* the agent library's code in the target, and the part of it that
	 * passes a call on (pipeline/self.h): a stack whose innermost frame
	 * there is elsewhere was taken in the agent's own work (its signal
	 * handler, a JVMTI callback) and is labelled as ours */
	uint64_t self_lo, self_hi, pass_lo, pass_hi;
	/* the thread's native base, kept across its samples (see above);
	 * NULL leaves it out */
	struct merge_base *base;
};

#define MERGE_SELF_MARKER "[perfjava: agent code]"

/*
 * Writes the merged frame ids to out (at most max); returns how many. *marker
 * (if not NULL) is the marker's reason (an agent_walk_status or
 * MERGE_MOVED_ON), or MERGE_NO_WALK when the stack has no marker.
 */
unsigned int merge_stack(const struct merge_sink *k, const struct merge_in *in,
			 uint32_t *out, unsigned int max, int *marker);
/* The marker frame's name for a reason. */
const char *merge_marker_name(int reason);
/* A sink naming frames with the recorder's symbolizer and writer. */
void merge_sink_symbolizer(struct merge_sink *k, struct symbolizer *s);

#endif

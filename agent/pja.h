/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every file of libperfjava-agent.so shares: AsyncGetCallTrace's
 * frames, the agent's state (set up once, the session part restarted per
 * attach) and the walk buffers' shape. Each file's own interface is in its
 * header (ksig.h for ksig.c...); the wire protocol is
 * include/perfjava/agent_proto.h.
 */
#ifndef PJ_AGENT_PJA_H
#define PJ_AGENT_PJA_H

#include <jvmti.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "perfjava/agent_proto.h"
#include "perfjava/walk_ring.h"

/* What AsyncGetCallTrace fills in. */
struct asgct_frame {
	jint lineno; /* bci, or -3 for a native method */
	jmethodID method;
};

struct asgct_trace {
	JNIEnv *env;
	jint num_frames;
	struct asgct_frame *frames;
};

/* AsyncGetCallTrace's num_frames when it gives no frames (HotSpot's
 * forte.cpp); lineno of a native method's frame is ASGCT_NATIVE_BCI. */
enum asgct_error {
	ASGCT_NO_JAVA_FRAME = 0,
	ASGCT_NO_CLASS_LOAD = -1,
	ASGCT_GC_ACTIVE = -2,
	ASGCT_UNKNOWN_NOT_JAVA = -3,
	ASGCT_NOT_WALKABLE_NOT_JAVA = -4,
	ASGCT_UNKNOWN_JAVA = -5,
	ASGCT_NOT_WALKABLE_JAVA = -6,
	ASGCT_UNKNOWN_STATE = -7,
	ASGCT_THREAD_EXIT = -8,
	ASGCT_DEOPT = -9,
	ASGCT_SAFEPOINT = -10,
};
#define ASGCT_NATIVE_BCI (-3)

/* Global state: set up once at load (agent.c, events.c), the session part
 * restarted per attach by agent.c alone; the others only read it. */
struct pja {
	JavaVM *vm;
	jvmtiEnv *jvmti;
	void (*asgct)(struct asgct_trace *, jint, void *);
	int ready; /* JVMTI and signal handlers set up */
	/* the current session */
	atomic_int active;
	atomic_int sess_tid; /* the session thread's tid, while it runs */
	int fd; /* socket to the reader */
	int wake_fd; /* eventfd: the outgoing queue has data */
	unsigned int depth;
	unsigned int timeout_us;
	jvmtiEventCallbacks callbacks; /* set at load (events.c) */
};

extern struct pja pja;

/* A walk buffer's slots: a raw walk of depth frames may take twice. */
#define PJA_MAX_SLOTS (2 * PJA_MAX_DEPTH)
/* A walk's flags in the private ring (never in the reader's): raw slots;
 * AsyncGetCallTrace's twin of the walk before it (walkcheck.c). */
#define PJA_WALK_RAW (1u << 30)
#define PJA_WALK_CHECK (1u << 29)

#endif

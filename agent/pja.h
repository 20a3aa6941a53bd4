/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interfaces of libperfjava-agent.so. The wire protocol is
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

/* Global state: set up once, the session part restarted per attach. */
struct pja {
	JavaVM *vm;
	jvmtiEnv *jvmti;
	void (*asgct)(struct asgct_trace *, jint, void *);
	int ready; /* JVMTI and signal handlers set up */
	/* the current session */
	atomic_int active;
	int fd; /* socket to the reader */
	int wake_fd; /* eventfd: the outgoing queue has data */
	unsigned int depth;
	unsigned int timeout_us;
	int testfault; /* every Nth walk reads a bad address (tests) */
};

extern struct pja pja;

/* out.c: the outgoing message queue, written by any thread, sent by the
 * session thread. */
int out_init(void);
void out_reset(void);
/* Appends a message made of up to three parts. -1 when the queue is over its
 * limit (the reader is not reading). */
int out_msg(uint32_t type, const void *a, size_t alen, const void *b,
	    size_t blen, const void *c, size_t clen);
/* Writes what is queued to pja.fd. -1 when the socket failed. */
int out_flush(void);

/* events.c: JVMTI */
int events_init(JavaVM *vm);
void events_callbacks(jvmtiEventCallbacks *cb);
int events_start(JNIEnv *env); /* enable events, replay code and threads */
void events_stop(void);
/* Sends PJA_METHOD for m unless sent in this session. */
void method_send(jmethodID m);
void methods_reset(void);
/* "java.util.zip.Deflater.deflate" into buf; 0 on success. */
int method_full_name(jmethodID m, char *buf, size_t len);

/* codemap.c: compiled code with inlining records, stubs, the interpreter. */
void codemap_add(const void *start, size_t size, jmethodID m,
		 const void *records, const char *stub_name);
void codemap_remove(const void *start, jmethodID m);
void codemap_reset(void);
/* Sets pja_frame types for frames[0..n-1] given the top frame's pc. */
void codemap_classify(uint64_t pc, const struct asgct_frame *frames,
		      struct pja_frame *out, unsigned int n);

/* walk.c: directed signals and the protected AsyncGetCallTrace call. */
int walk_init(void);
/* Walks in flight at once, at most (one per thread). */
#define PJA_WALK_SLOTS 16
/*
 * Signals thread tid for a walk and returns at once: a handle for walk_end,
 * or NULL with an enum pja_walk_status in *status. A batch is several
 * walk_begin calls, for distinct threads, then their walk_end calls.
 */
void *walk_begin(pid_t tid, unsigned int depth, int *status);
/* Waits (bounded) for the walk; fills frames, returns its status. */
int walk_end(void *walk, struct asgct_frame *frames, int *num,
	     uint64_t *walk_time, uint64_t *pc);
/* JNIEnv of thread tid (a probe through the same signal); NULL if none. */
JNIEnv *walk_probe_env(pid_t tid);
/* Waits (bounded) until no handler is running in our slots. */
void walk_quiesce(void);

uint64_t pja_now(void);
pid_t pja_gettid(void);

#endif

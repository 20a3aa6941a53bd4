/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interfaces of libperfjava-agent.so. The wire protocol is
 * include/perfjava/agent_proto.h.
 */
#ifndef PJ_AGENT_PJA_H
#define PJ_AGENT_PJA_H

#include <jvmti.h>
#include <signal.h>
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

/* Global state: set up once, the session part restarted per attach. */
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
	int signo; /* our real-time signal (ksig.c), chosen once */
	int traps; /* our SIGTRAP handler is installed (ksig.c) */
	uint64_t restorer; /* the signal frames' return (glibc's restorer) */
	jvmtiEventCallbacks callbacks; /* set at load (jvmti.c) */
};

extern struct pja pja;

/* out.c: the outgoing message queue, written by any thread, sent by the
 * session thread. */
void out_reset(void);
/* Appends a message made of up to three parts. -1 when the queue is over its
 * limit (the reader is not reading). */
int out_msg(uint32_t type, const void *a, size_t alen, const void *b,
	    size_t blen, const void *c, size_t clen);
/* Writes what is queued to pja.fd. -1 when the socket failed. */
int out_flush(void);

/* jvmti.c: JVMTI */
int events_init(JavaVM *vm);
void events_callbacks(jvmtiEventCallbacks *cb);
int events_start(JNIEnv *env); /* enable events, replay code and threads */
void events_stop(void);
/* Tests (testhooks.c), NULL otherwise: after the replay of the code map,
 * and inside the protected read of a compiled method's level. */
struct events_hooks {
	void (*replay)(void);
	void (*level)(void);
};
void events_hook(const struct events_hooks *h);
/* Sends PJA_METHOD for m unless sent in this session. */
void method_send(jmethodID m);
/* A walk's frames as they go on the wire: typed by the code map from the
 * interrupted pc, each method's PJA_METHOD sent first. */
void method_frames(uint64_t pc, struct asgct_frame *raw, struct pja_frame *out,
		   unsigned int n);
/* A walk's length once a compiled top frame it stepped over (how) is named
 * (codemap_top); PJA_WALK_TRUNCATED added to *flags when it fills the
 * session's depth. */
unsigned int walk_top(uint64_t pc, uint32_t how, struct asgct_frame *raw,
		      unsigned int n, uint32_t *flags);
/* A walk's frames as they go on the wire, each method's PJA_METHOD sent
 * first: vmwalk's raw slots (PJA_WALK_RAW in *flags, then cleared) named and
 * typed by codemap_expand, or AsyncGetCallTrace's by walk_top and
 * method_frames; PJA_WALK_TRUNCATED added when the depth cut it. Returns
 * the count in out. On the session thread. */
unsigned int walk_frames(uint64_t pc, uint32_t *flags, struct asgct_frame *raw,
			 unsigned int n, struct pja_frame *out);
/* The methods sent forgotten, at a session's start (env: the session
 * thread's) and its end (NULL). */
void methods_reset(JNIEnv *env);
/* "java.util.zip.Deflater.deflate([BIII)I" into buf (without the
 * signature when it would not fit); 0 on success. */
int method_full_name(jmethodID m, char *buf, size_t len);

/* codemap.c: compiled code with inlining records, stubs, the interpreter. */
void codemap_add(const void *start, size_t size, jmethodID m,
		 const void *records, const char *stub_name, int c1);
void codemap_remove(const void *start, jmethodID m);
void codemap_reset(void);
/* Whether pc lies in the range of the JVM's generated code seen so far;
 * async-signal-safe. */
int codemap_in_range(uint64_t pc);
/* Whether pc lies in the interpreter's code; async-signal-safe. */
int codemap_in_interpreter(uint64_t pc);
/* A walk stepped out of its compiled top frame (frames[0] without a
 * method): that frame named from the code at pc, with the frames it
 * inlined there from the compiled method's inlining record at or after pc
 * (codemap.c, record_at), or the compiled method alone with bci 0 when it
 * has none. The callers move up; the deepest go past cap frames. Returns
 * the walk's new length. */
unsigned int codemap_top(uint64_t pc, struct asgct_frame *frames,
			 unsigned int n, unsigned int cap);
/* A walk AsyncGetCallTrace took at pc: when its top frames are those of the
 * compiled code at pc as named by the record after pc + 1 (its own rule),
 * they are named again from the record codemap_top takes, so that either
 * walker names a sample's code alike. The callers move as in codemap_top.
 * Returns the walk's new length. */
unsigned int codemap_retop(uint64_t pc, struct asgct_frame *frames,
			   unsigned int n, unsigned int cap);
/* vmwalk's raw slots raw[0..n) as frames, named and typed: a compiled frame
 * as the methods it inlined at its pc (its inlining record at or after the
 * interrupted pc for the top frame, at the return address for a caller)
 * down to itself, C1 or JIT, the others inlined; an interpreter frame
 * interpreted; a native method Java-native. Into out and types (PJ_FRAME_*),
 * at most cap; *truncated when cap cut it. Returns the count. */
unsigned int codemap_expand(const struct asgct_frame *raw, unsigned int n,
			    struct asgct_frame *out, uint8_t *types,
			    unsigned int cap, int *truncated);
/* Sets pja_frame types for frames[0..n-1] given the top frame's pc. */
void codemap_classify(uint64_t pc, struct asgct_frame *frames,
		      struct pja_frame *out, unsigned int n);

/* vmstructs.c: HotSpot offsets from gHotSpotVMStructs; -1 when unknown. */
struct pja_vm {
	long env_offset; /* JNIEnv - JavaThread */
	int anchor; /* JavaThread::_anchor */
	int anchor_sp, anchor_pc, anchor_fp; /* JavaFrameAnchor::_last_Java_* */
	int osthread, thread_id; /* (Java)Thread::_osthread, its _thread_id */
};
extern struct pja_vm pja_vm;
/* Method* to jmethodID and bci (frametype.c's own walk): Method's
 * _constMethod, ConstMethod's _constants, _method_idnum, _code_size and
 * size, ConstantPool's _pool_holder, InstanceKlass's _methods_jmethod_ids. */
struct pja_vmm {
	int const_method, constants, idnum, code_size, holder, ids, size;
	int method_size; /* sizeof(Method): a native's entry follows it */
};
extern struct pja_vmm pja_vmm;
/* For the agent's own walk (vmwalk.c): JavaThread's _thread_state,
 * _stack_base and _stack_size, JavaCallWrapper's _anchor, Method's
 * _access_flags, nmethod's _stub_offset (-1 unknown); the thread states
 * (-1 unknown); the call stub's return address (0 unknown); an entry frame's
 * JavaCallWrapper slot from its frame pointer (words; 1 unknown). */
struct pja_vmw {
	int state, stack_base, stack_size, jcw_anchor, access, stub_offset;
	int in_java, in_vm, in_native, blocked;
	int wrapper_slot;
	uint64_t call_stub_ret;
};
extern struct pja_vmw pja_vmw;
/* A code blob, as vmstructs_blob reads it. */
struct pja_blob {
	uint64_t at; /* the blob itself */
	const char *name; /* the JVM's name for it */
	uint64_t code; /* its code's begin */
	uint64_t complete; /* where its frame is complete, 0 never/unknown */
	uint64_t entry; /* an nmethod's verified entry, 0 unknown */
	uint64_t stub; /* an nmethod's stubs (deoptimization, exceptions), 0
			  unknown */
	int words; /* frame size, 0 for frameless or out of bounds */
	int nmethod; /* a compiled Java method's: */
	const void *method; /* its Method* */
};
/* The blob holding pc: 0 and *b, or -1. Only reads: call it inside the
 * walk's fault protection. */
int vmstructs_blob(uint64_t pc, struct pja_blob *b);
/* framecache.c: a caller's frame as the walk steps over it (vmwalk.c), by
 * its return address. */
struct pja_step {
	uint64_t blob; /* the code blob (struct pja_blob's at) */
	uint64_t tag; /* a compiled method's jmethodID; a stub's name */
	unsigned int words; /* its frame's size (PJA_STEP_WORDS at most) */
	unsigned int flags; /* PJA_STEP_NMETHOD, PJA_STEP_NATIVE */
};
#define PJA_STEP_WORDS 0xffffu
#define PJA_STEP_NMETHOD 0x10000u /* a compiled Java method's */
#define PJA_STEP_NATIVE 0x20000u /* a native method's wrapper */
/* 1 and *e when the table holds pc, else 0. */
int framecache_get(uint64_t pc, struct pja_step *e);
/* Remembers *e for pc, unless another writer holds its entry. */
void framecache_put(uint64_t pc, const struct pja_step *e);
/* Whether the blob e names still holds pc, with e's frame size and, for a
 * compiled method, e's method (same rule as vmstructs_blob): not freed and
 * its memory given to another since e was taken. */
int vmstructs_blob_same(const struct pja_step *e, uint64_t pc);
/* Whether Method* method is native (same rule). */
int vmstructs_native(const void *method);
/* A symbol of libjvm's (dlsym), however it was loaded; NULL if none. */
void *vmstructs_sym(const char *name);
/* Quiet attach (quiet.c): sets EnableDynamicAgentLoading's "set on the
 * command line" bit where it is on by default on JDK 21+, so that HotSpot
 * prints no warning for this load. 0 when set; after vmstructs_init. */
int vmstructs_quiet_attach(void);
/* Reads the offsets (once, not in a signal handler). 0 when all found. */
int vmstructs_init(void);
/* What the JVM sets up after Agent_OnLoad (the call stub's return
 * address, which the agent's own walk needs): read again by each session
 * before it starts (with -agentpath the first one starts at VMInit). */
void vmstructs_late(void);
/* Learns env_offset from the calling Java thread (Thread.eetop). */
int vmstructs_thread(JNIEnv *env);
/* curenv.c: finds HotSpot's pthread key of Thread* from the calling
 * thread's own (self), once, not in a handler. */
void curenv_init(const void *self);
/* The calling thread's JNIEnv, NULL when it is no Java thread; safe in a
 * signal handler (GetEnv when the key or the thread's class is unknown). */
JNIEnv *curenv(void);
/* The kernel's id of the Java thread of env (the calling thread's own
 * JNIEnv), from its OSThread: no system call; 0 when unknown. */
pid_t vmstructs_tid(JNIEnv *env);
/* Compile level (1-3 C1, 4 C2) of the nmethod holding code, checked to be
 * an nmethod of m; -1 unknown. */
int vmstructs_comp_level(const void *code, jmethodID m);
/* The frame size in words of the nmethod holding pc, 0 when not an nmethod
 * or unknown; *complete whether its frame is complete at pc (past the
 * prologue). Only reads the JVM's memory: call it inside the walk's fault
 * protection. */
int vmstructs_nmethod_frame(uint64_t pc, int *complete);
/* The frame size in words of the code blob holding pc (0 when none or
 * frameless), and in *method the Method* of an nmethod (NULL for stubs).
 * Only reads, as above. */
int vmstructs_code_frame(uint64_t pc, const void **method);

/* frametype.c: marks in frames[0..n-1] (the walk AsyncGetCallTrace gave
 * from pc, sp, fp) which ran interpreted and which compiled, from the
 * physical frames; the mark rides in a Java frame's lineno (its bci) above
 * PJA_SEEN_SHIFT until the session thread types the frames. Only reads;
 * call it inside the walk's fault protection. */
#define PJA_SEEN_SHIFT 24
#define PJA_SEEN_BCI_MAX (1 << PJA_SEEN_SHIFT)
#define PJA_SEEN_INTERPRETED 1
#define PJA_SEEN_COMPILED 2
void frametype_mark(struct asgct_frame *f, int n, uint64_t pc, uint64_t sp,
		    uint64_t fp);
/* Walks the physical Java frames from pc, sp, fp into f (at most depth),
 * marked as above: interpreter frames with their bci, compiled frames as
 * their own method. Returns the frames walked. Same rules. */
int frametype_walk(struct asgct_frame *f, int depth, uint64_t pc, uint64_t sp,
		   uint64_t fp);
/* The jmethodID of Method* m, checked to point back at m; NULL if none. An
 * interpreter frame's bci from its bcp in m; 0 when it is not in the code.
 * Same rules. */
jmethodID frametype_method_id(const void *m);
jint frametype_bci(const void *m, uint64_t bcp);

/* vmwalk.c: the agent's own walk of the calling thread, from uc (its
 * signal context) and env (its JNIEnv), into f (cap slots) up to depth
 * frames: the number of slots, *truncated when either cut it (a compiled
 * frame takes two: cap should be twice depth); -1 where it is not sure of every
 * frame (AsyncGetCallTrace walks it instead). Slots: an interpreter frame
 * {bci | PJA_SEEN_INTERPRETED mark, method}, a native method's
 * {ASGCT_NATIVE_BCI, method}, a compiled frame {PJA_RAW_CODE, method} then
 * {PJA_RAW_PC, (jmethodID)pc} (the interrupted pc or a return address: both
 * named from the record at or after pc, codemap.c). Same rules as
 * frametype.c. */
#define PJA_RAW_CODE (-100)
#define PJA_RAW_PC (-102)
int vmwalk(JNIEnv *env, void *uc, struct asgct_frame *f, unsigned int cap,
	   unsigned int depth, int *truncated);
/* A walk buffer's slots: a raw walk of depth frames may take twice. */
#define PJA_MAX_SLOTS (2 * PJA_MAX_DEPTH)
/* A walk's flags in the private ring (never in the reader's): raw slots;
 * AsyncGetCallTrace's twin of the walk before it (pja.walkcheck). */
#define PJA_WALK_RAW (1u << 30)
#define PJA_WALK_CHECK (1u << 29)
/* A copy of a stack: len bytes that stood at base. beyond is set when a
 * walk needed a word outside them; with live, such words are read from the
 * live stack instead. */
struct pja_stackview {
	uint64_t base, len;
	const uint8_t *bytes;
	int beyond;
	int live;
};
/* frametype_walk over the stack words of v instead of the live stack (the
 * JVM's structures are still read live), with each frame's pc in pcs[]
 * when not NULL. */
int frametype_walk_view(struct pja_stackview *v, struct asgct_frame *f,
			uint64_t *pcs, int depth, uint64_t pc, uint64_t sp,
			uint64_t fp);

/* stackwalk.c: fn(arg) under the walk's fault protection on the calling
 * thread (for reads of the JVM's structures outside a walk): a SIGSEGV or
 * SIGBUS inside gives -1 instead of ending the JVM; -1 too when every
 * protection entry is taken. */
int pja_protected(int (*fn)(const void *), const void *arg);

/* stackwalk.c: the walk of the calling thread from its signal context. */
struct pja_walk {
	/* in */
	struct asgct_frame *frames; /* slots entries, owned by the caller */
	unsigned int slots; /* at least depth; vmwalk's raw walk may take up
			       to twice depth */
	unsigned int depth;
	/* out */
	int num; /* frames filled (0 unless status is PJA_WALK_OK) */
	int status; /* enum pja_walk_status */
	int asgct; /* AsyncGetCallTrace's num_frames when <= 0, else 0 */
	uint32_t how; /* enum pja_walk_how: how the walk was recovered */
	int raw; /* vmwalk's slots, not AsyncGetCallTrace's frames */
	int asgct_only; /* in: no vmwalk (the check's twin) */
	int truncated; /* vmwalk stopped at the depth */
	uint64_t pc; /* the interrupted pc */
	uint64_t time; /* pja_now() when the walk started */
	pid_t tid; /* the walked (calling) thread */
	/* pja_ticks() at the end of each part (enum pjw_part), 0 for a
	 * part not run */
	uint64_t mark[PJW_PARTS];
};
/* Installs the SIGSEGV/SIGBUS fault protection (once). */
int stackwalk_init(void);
/* Tests (testhooks.c): fn called inside each walk's fault protection, 1
 * when the walk is left to AsyncGetCallTrace (NULL in a user's JVM). */
void stackwalk_hook(int (*fn)(void));
/* Walks the calling thread's Java stack from uc, the ucontext of a signal
 * handler running on that thread. Async-signal-safe; faults are survived. */
void stackwalk_here(void *uc, struct pja_walk *w);
/* Signal plumbing shared by the handlers. */
int pja_install(int sig, void (*fn)(int, siginfo_t *, void *),
		struct sigaction *prev);
/* Passes a signal to the handler installed before ours (SIG_DFL of a
 * profiling signal is not applied). */
void pja_chain(const struct sigaction *prev, int sig, siginfo_t *si, void *uc);
uint64_t pja_context_pc(const void *ucontext);

/* copies.c: the library pinned for the JVM's life (0, or -1 when it
 * cannot be); one session at a time among the copies of the agent in the
 * JVM: copies_lock is 1 when another copy has one, else 0 (held until
 * copies_unlock). */
int copies_pin(void);
int copies_lock(void);
void copies_unlock(void);

/* ksig.c: our real-time signal (pja.signo, chosen by ksig_init) and the
 * walk at the sample, into a private ring. */
struct pjw_rec;
int ksig_init(void);
/* The handler's work for a kernel signal at a sample of the reader's
 * event fd (si_code POLL_IN: si_fd; TRAP_PERF: from sig_data). */
int ksig_on_sample(int fd, void *uc); /* -1: walks are off here */
/* Installs the SIGTRAP handler for perf events' TRAP_PERF (for good). */
int ksig_trap_init(void);
/* Whether the JVM's SIGTRAP handler is ours, so that a perf event's
 * SIGTRAP comes to us first; when not, the library whose handler it is
 * ("default", "ignored") in owner. */
int ksig_trap_first(char *owner, size_t len);
/* Walks at the sample are taken from ksig_start until ksig_stop (which
 * waits, bounded, for handlers in flight and drops what is left). */
void ksig_start(void);
/* Tests and benchmarks (testhooks.c): fn takes the walk at each sample in
 * the handler's place (NULL: the handler's own, in a user's JVM). */
void ksig_hook(void (*fn)(int fd, void *uc, uint64_t start));
/* The handler's walk at a sample into the private ring; twin: when it was
 * the agent's own walk, AsyncGetCallTrace's of the same moment follows it,
 * flagged PJA_WALK_CHECK (walkcheck.c). */
void ksig_walk(int fd, void *uc, uint64_t start, int twin);
void ksig_stop(void);
/* The next record of the private ring: 1 and *r, the handler's time by
 * part (ticks[PJW_PARTS]), its extension (*extlen bytes, at most
 * KSIG_EXT_MAX, into ext) and frames; 0 when none. */
#define KSIG_EXT_MAX 1024u
int ksig_take(struct pjw_rec *r, uint32_t *ticks, void *ext, uint32_t *extlen,
	      struct asgct_frame *frames, unsigned int max);
/* An event's record (jrec.c) into the private ring, while walks are
 * taken: r, then ext (extlen bytes, a multiple of 8, at most
 * KSIG_EXT_MAX), then r->nframes frames. -1 when it is not kept. */
int ksig_put_event(const struct pjw_rec *r, const void *ext, uint32_t extlen,
		   const struct asgct_frame *frames);
/* The bytes taken from the private ring so far (a position that only
 * grows), and the ring's size. */
uint64_t ksig_taken(void);
uint64_t ksig_ring_bytes(void);
/* After a pump: the next handler to find the ring a quarter full wakes the
 * session thread again. */
void ksig_rearm(void);
/* Walks dropped (private ring full) and signals not walked (no buffer). */
void ksig_counts(uint64_t *full, uint64_t *busy);
void ksig_clear_full(uint64_t counted);
/* Signals at a sample this session: taken, come while walks were off,
 * tagged SIGTRAPs passed on to the handler before ours. */
void ksig_signals(uint64_t *taken, uint64_t *off, uint64_t *passed);
/* How long the private ring's oldest record has waited unpublished (a
 * handler stopped between its reservation and its record): 0 normally. */
uint64_t ksig_stuck_ns(void);

/* cost.c: the agent's own cost, for the reader's summary: the handler's
 * parts per walk (their means and medians) and the session thread's CPU
 * time moving walks to the reader. */
void cost_reset(void);
/* ticks[PJW_PARTS] of one walk, own when vmwalk took it */
void cost_walk(const uint32_t *ticks, int own);
void cost_pump(uint64_t cpu_ns, uint64_t walks);
void cost_put(struct pjw_head *hd);

/* walkcheck.c (tests, pja.walkcheck): a walk of vmwalk's kept, then
 * compared with its AsyncGetCallTrace twin (PJA_WALK_CHECK: the same thread
 * and time); counts into the ring's head. On the session thread. */
void walkcheck_reset(void);
void walkcheck_keep(const struct pjw_rec *r, const struct pja_frame *f,
		    unsigned int n);
void walkcheck_twin(const struct pjw_rec *r, const struct pja_frame *f,
		    unsigned int n);
void walkcheck_put(struct pjw_head *hd);

/* wring.c: the reader's shared walk ring, fed by the session thread. */
struct pja_ring;
int wring_attach(int fd, const struct pja_ring *req);
int wring_active(void);
/* Moves taken walks to the shared ring; -1 when the socket failed. */
int wring_pump(void);
/* How long the session thread may wait before the next pump, ms. */
int wring_interval_ms(void);
/* On the session thread while it replays the code map and the threads
 * (long in a JVM with a big code cache, on a loaded machine): moves the
 * walks at the sample when they are due, as its loop would. */
void wring_tick(void);
void wring_detach(void);
/* Tests and benchmarks (testhooks.c), NULL in a user's JVM: take sees each
 * record the pump takes, before it is named (1: it goes no further);
 * interval gives the wait before the next pump from the pump's own. */
struct wring_hooks {
	int (*take)(const struct pjw_rec *r, const struct asgct_frame *raw,
		    struct pjw_head *hd);
	int (*interval)(int ms);
};
void wring_hook(const struct wring_hooks *h);

/* testhooks.c: the benchmark and test switches of a session (bench=, and
 * PERFJAVA_AGENT_* in the JVM's environment) read, each production file's
 * hook set where one is on. Whether PERFJAVA_AGENT_TESTFAULT is. */
void testhooks_session(const char *bench);
int testhooks_testfault(void);

/* walk.c: walks requested by the session thread through directed signals. */
int walk_init(void);
/* Walks in flight at once, at most (one per thread). */
#define PJA_WALK_SLOTS 16
/*
 * Signals thread tid for a walk and returns at once: a handle for walk_end,
 * or NULL with an enum pja_walk_status in *status. A batch is several
 * walk_begin calls, for distinct threads, then their walk_end calls.
 */
void *walk_begin(pid_t tid, unsigned int depth, int *status);
/* Waits (bounded) for the walk; fills *out (its frames into out->frames,
 * PJA_MAX_DEPTH entries) and returns its status. */
int walk_end(void *walk, struct pja_walk *out);
/* JNIEnv of thread tid (a probe through the same signal); NULL if none. */
JNIEnv *walk_probe_env(pid_t tid);
/* Waits (bounded) until no handler is running in our slots. */
void walk_quiesce(void);

/* jthreads.c: the JVM's threads by tid (thread objects for JVMTI calls),
 * kept from ThreadStart and the replay of the threads at attach (jvmti.c). */
void jthreads_start(JNIEnv *env, jthread t, pid_t tid);
void jthreads_end(JNIEnv *env, pid_t tid);
/* The session's start (before ThreadStart is enabled) and its end: threads
 * are kept only in between. */
void jthreads_open(void);
void jthreads_reset(JNIEnv *env);
/* Whether tid was seen starting (ThreadStart): named already. */
int jthreads_known(pid_t tid);
/* A local reference to thread tid, or NULL when it is not known. */
jthread jthreads_ref(JNIEnv *env, pid_t tid);
/* The tids known now, at most max into tids; how many. */
size_t jthreads_tids(pid_t *tids, size_t max);

/* blocked.c: the Java stacks of blocked threads (PJA_STACK), by JVMTI
 * GetStackTrace on the session thread. */
/* Answers the requests of a PJA_STACK message; -1 when the socket failed. */
int blocked_answer(JNIEnv *env, const char *p, uint32_t len);

/* jevents.c: the JVM's own events (allocations, lock waits, virtual
 * threads' parks), each with its stack, into the walk ring. */
struct pja_events;
struct pjw_event;
/* PJA_EVENTS: turns on what it asks for this session; answers
 * PJA_EVENTS_READY. -1 when the socket failed. */
int jevents_start(JNIEnv *env, const char *p, uint32_t len);
/* The session's end: every event off, the JVM's settings put back. */
void jevents_stop(JNIEnv *env);
/* The callbacks of the events (into the agent's one table). */
void jevents_callbacks(jvmtiEventCallbacks *cb);
/* On the session thread: a private record's extension (struct pjw_event
 * and the class name after it) into the shared ring's struct pjw_event,
 * the class's PJA_CLASS (and the virtual thread's PJA_VTHREAD) queued
 * first. -1 when it is broken (the record goes without it). */
int jevents_name(const void *ext, uint32_t extlen, struct pjw_event *out);
/* The session thread: says the events dropped so far (over the rate
 * bound, no free stack buffer) when they changed; -1 when the queue is
 * full. */
int jevents_report(void);

/* jrec.c: one of the JVM's events recorded on its own thread, into the
 * private ring (what every event callback calls). */
/* Whether PJA_EV_* flag is on now; all of them. */
int jrec_on(uint32_t flag);
uint32_t jrec_flags(void);
/* Turns the events of flags on (the counts of this session reset); off,
 * giving what was on. */
void jrec_begin(uint32_t flags);
uint32_t jrec_end(void);
/* When the session's events were turned on: a wait stamped before began
 * while they were off (its stamp left over from an earlier session). */
uint64_t jrec_since(void);
/* The stack buffers, made once; -1 when out of memory. */
int jrec_buffers(void);
/* An event posted while not asked for (counted: tests check none is). */
void jrec_stray(void);
uint64_t jrec_strays(void);
/* The events dropped this session (over the rate bound, no buffer). */
uint64_t jrec_dropped(void);
/*
 * Records ev for the calling thread now, with its stack (JVMTI
 * GetStackTrace of the current thread, skip frames left out), klass's
 * name (NULL: none) and the name of the lock's owner (NULL: none). time:
 * when the event began.
 */
void jrec_record(JNIEnv *env, struct pjw_event *ev, jclass klass, uint64_t time,
		 int skip, const char *owner);
/* Whether a wait of waited ns is recorded, and its weight: every wait of
 * the threshold or longer, as itself; a shorter one with the probability
 * waited / threshold, as the threshold (an unbiased total, bounded count). */
extern uint64_t jrec_threshold_ns;
int jrec_wait_kept(uint64_t waited, uint64_t *weight);
/* Whether a thread parked on an object of class k (its park blocker)
 * waits to acquire a lock: java.util.concurrent's ReentrantLock,
 * ReentrantReadWriteLock, StampedLock and Semaphore (a condition's await,
 * a queue's take, a latch or a future is no lock: off-CPU/wall time). */
int jrec_lock_class(jclass k);

/* JVMTI thread-local storage of a wait (lock.c, vthread.c): its start in
 * ns above TLS_SHIFT, what it is in TLS_KIND. */
#define TLS_SHIFT 8
#define TLS_KIND 3u
#define TLS_MONITOR 1u /* entering a contended monitor */
#define TLS_PARK 2u /* a virtual thread unmounted */
#define TLS_UNMOUNTED 4u /* a monitor wait that unmounted (JDK 24+) */
/* the session (vthread_tag) that has its virtual thread's name: kept
 * through the waits */
#define TLS_TAGS 0x78u

/* alloc.c, lock.c: the callbacks of SampledObjectAlloc, of contended
 * monitors, and the park hook (Unsafe.park rebound). */
void JNICALL alloc_sampled(jvmtiEnv *j, JNIEnv *env, jthread t, jobject o,
			   jclass k, jlong size);
void JNICALL lock_enter(jvmtiEnv *j, JNIEnv *env, jthread t, jobject o);
void JNICALL lock_entered(jvmtiEnv *j, JNIEnv *env, jthread t, jobject o);
/* Rebinds Unsafe.park to the hook (it stays, inert, when no session
 * records locks), again if another agent bound it since. 0 when in place. */
int lock_park_hook(JNIEnv *env);

/* park.c: Unsafe.park bound to a hook of the agent's, beside other agents.
 * park_bind: bound (learning the JDK's park the first time), or again when
 * another agent bound park since; 0 when it is. park_check: the same while
 * a session records locks. park_call: the park the hook wraps, called on
 * (another agent's hook bound before, or the JDK's park; the JDK's when
 * called back from it, park_nested). park_announce: PJA_PARK queued. */
typedef void(JNICALL *park_fn)(JNIEnv *, jobject, jboolean, jlong);
int park_bind(JNIEnv *env, park_fn hook);
void park_check(JNIEnv *env);
void park_call(JNIEnv *env, jobject u, jboolean abs, jlong time);
int park_nested(void);
int park_announce(void);

/* mounted.c: each carrier's mounted virtual thread. */
/* The virtual thread mounted on carrier thread tid, 0 when none (or the
 * table is off); async-signal-safe. */
uint64_t mounted_vthread(pid_t tid);
/* The calling thread mounts virtual thread id (0: unmounts). */
void mounted_set(uint64_t id);
/* Carrier tid runs id unless a mount since said otherwise; -1 when the
 * table is full. */
int mounted_first(pid_t tid, uint64_t id);
/* The table read (on) or not and emptied (off). */
void mounted_on(void);
void mounted_off(void);

/* vthread.c: virtual threads (JDK 21+). */
/* The id of thread t when it is a virtual thread, else 0. */
uint64_t vthread_id(JNIEnv *env, jthread t);
/* Mount and unmount events on (PJA_EV_VTHREADS), and off. 0 when on. */
int vthread_start(JNIEnv *env);
void vthread_stop(void);
/* The name of virtual thread t (when named) queued as PJA_VTHREAD once. */
void vthread_name(JNIEnv *env, jthread t, uint64_t id);
/* The session thread: forgets the names sent. */
void vthread_reset(void);
/* copywalk.c: the Java frames in a copy of a thread's stack
 * (PJA_STACK_COPY). Answers the request in p; -1 when the socket failed. */
int copywalk_answer(const char *p, uint32_t len);

/* clock.c: CLOCK_MONOTONIC in ns, and the calling thread's id; both
 * async-signal-safe. pja_ticks() is the cheapest clock there is (the TSC
 * where there is one), for the handler's timing of its own parts;
 * pja_ticks_ns() converts a count of them, calibrated against pja_now()
 * (not in a signal handler). */
uint64_t pja_now(void);
uint64_t pja_ticks(void);
uint64_t pja_ticks_ns(uint64_t ticks);
pid_t pja_gettid(void);

#endif

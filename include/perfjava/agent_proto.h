/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reader-agent wire protocol, version 1.
 *
 * Transport: one SOCK_STREAM Unix socket per attach. The reader listens (mode
 * 0600, owned by the target's uid, inside the target's mount namespace) and
 * passes the path, as the target sees it, in the agent options
 * ("sock=/tmp/.perfjava-...,depth=2048"); the agent connects back from
 * Agent_OnAttach. Both ends run on the same machine, so every integer is in
 * host byte order.
 *
 * Every message is a struct pja_hdr followed by len bytes of payload.
 * Strings are not NUL-terminated on the wire; their lengths come first.
 * A receiver skips messages of unknown type (len says how far), so new types
 * can be added without a version bump; changing a struct bumps PJA_VERSION.
 *
 * Sequence:
 *   agent  -> reader  HELLO (first message; the reader checks the version),
 *                     VM_INFO (the JVM's name and version)
 *   agent  -> reader  THREAD*, CODE_LOAD* (replay of existing threads, code)
 *   reader -> agent   WALK (batches of requests, sent as samples arrive)
 *   agent  -> reader  METHOD (once per method, before the first WALK_RESULT
 *                     naming it), WALK_RESULT (one per request, in order),
 *                     CODE_LOAD/CODE_UNLOAD/THREAD/THREAD_END as they happen
 *   reader -> agent   RING (when HELLO has PJA_HELLO_RING): shared memory
 *                     for walks taken at the sample (perfjava/walk_ring.h)
 *   agent  -> reader  RING_READY: the agent's signal; from then the reader
 *                     may route its perf events' signals to the threads
 *   reader -> agent   STACK (when HELLO has PJA_HELLO_STACKS): the Java
 *                     stacks of blocked threads; agent -> reader
 *                     STACK_RESULT, one per request, METHODs first
 *   reader -> agent   EVENTS (when HELLO has PJA_HELLO_EVENTS): which of the
 *                     JVM's own events to record (allocations, lock waits,
 *                     virtual threads); agent -> reader EVENTS_READY with
 *                     what it could turn on. The events travel in the walk
 *                     ring (perfjava/walk_ring.h, struct pjw_event), their
 *                     classes named first by CLASS messages
 *   agent  -> reader  PARK: where the agent's Unsafe.park hook passes the
 *                     call on, and whether it sees the parks (at the
 *                     session's start once bound, and when that changes)
 *   reader -> agent   STACK_COPY (when HELLO has PJA_HELLO_COPY): the Java
 *                     frames in a copy of a thread's stack; answered with
 *                     a STACK_RESULT likewise
 *   reader -> agent   STOP, or just closes: the agent disables its events,
 *                     stops signalling and its thread exits. The agent stays
 *                     loaded; a later attach starts it again.
 *
 * Thread ids are the target's own (its pid namespace); the reader maps them.
 * Times are CLOCK_MONOTONIC nanoseconds.
 */
#ifndef PJ_AGENT_PROTO_H
#define PJ_AGENT_PROTO_H

#include <stdint.h>

#define PJA_VERSION 1
#define PJA_MAGIC 0x414a4650u /* "PFJA" */
/* Default and largest walk depth in frames (option depth=N). */
#define PJA_DEFAULT_DEPTH 2048
#define PJA_MAX_DEPTH 8192
/* Upper bound of one message's payload; larger is a protocol error. */
#define PJA_MAX_MSG (1u << 20)
/* make bench's alternations (the agent's bench=alt, the reader's
 * PERFJAVA_BENCH=alt) switch at every multiple of this of CLOCK_MONOTONIC:
 * as shipped in the even periods, without the part measured in the odd. */
#define PJA_BENCH_ALT_NS 400000000ull

enum pja_type {
	/* agent -> reader */
	PJA_HELLO = 1,
	PJA_METHOD = 2,
	PJA_WALK_RESULT = 3,
	PJA_CODE_LOAD = 4,
	PJA_CODE_UNLOAD = 5,
	PJA_THREAD = 6,
	PJA_THREAD_END = 7,
	PJA_RING_READY = 8,
	PJA_BUSY = 9,
	PJA_STACK_RESULT = 10,
	PJA_EVENTS_READY = 11,
	PJA_CLASS = 12,
	PJA_VTHREAD = 13,
	PJA_VM_INFO = 14,
	PJA_PARK = 15,
	/* reader -> agent */
	PJA_WALK = 64,
	PJA_STOP = 65,
	PJA_RING = 66,
	PJA_STACK = 67,
	PJA_EVENTS = 69,
	PJA_STACK_COPY = 68,
	/* no payload: move the walks taken at the sample now, not at the next
	 * pump (the reader's last wait); an agent that predates it ignores
	 * it, as any type it does not know */
	PJA_PUMP = 70,
};

struct pja_hdr {
	uint32_t type; /* enum pja_type */
	uint32_t len; /* payload bytes after this header */
};

struct pja_hello {
	uint32_t magic; /* PJA_MAGIC */
	uint32_t version; /* PJA_VERSION */
	uint32_t pid; /* getpid() in the target's namespace */
	uint32_t depth; /* max frames per walk in effect */
	uint32_t flags; /* PJA_HELLO_* */
	uint32_t jvmti_version;
};
#define PJA_HELLO_TESTFAULT 1u /* fault injection is on (tests only) */
#define PJA_HELLO_RING 2u /* takes a walk ring (PJA_RING) */
#define PJA_HELLO_STACKS 8u /* answers PJA_STACK */
/* Its handler for SIGTRAP is installed, for good: a perf event opened with
 * attr.sigtrap and sig_data PJA_TRAP_DATA(key) may signal a thread of the
 * JVM at each sample, which walks itself (once the ring is READY) and
 * writes the walk with key in its fd field, as the real-time signal's walk
 * has its si_fd: the reader's name for the event. */
#define PJA_HELLO_SIGTRAP 16u
#define PJA_TRAP_TAG 0x504a5452u /* "PJTR": sig_data's high word */
#define PJA_TRAP_DATA(key) ((uint64_t)PJA_TRAP_TAG << 32 | (uint32_t)(key))
#define PJA_HELLO_EVENTS 32u /* takes PJA_EVENTS */
#define PJA_HELLO_COPY 64u /* answers PJA_STACK_COPY */
#define PJA_HELLO_CHAIN 128u /* and its PJA_COPY_CHAIN */

/*
 * PJA_VM_INFO: struct pja_vm_info, then name_len bytes of the system
 * property java.vm.name ("OpenJDK 64-Bit Server VM") and version_len of
 * java.vm.version ("17.0.15+6-Debian-1deb12u1"), each at most
 * PJA_VM_INFO_MAX; sent once, after HELLO.
 */
struct pja_vm_info {
	uint32_t name_len, version_len;
};
#define PJA_VM_INFO_MAX 256

/*
 * PJA_RING: the walk ring's memfd travels as SCM_RIGHTS with the first byte
 * of this message; it is PJW_HEAD_BYTES + size bytes, sealed.
 */
struct pja_ring {
	uint64_t size; /* data bytes, a power of two */
};

/*
 * PJA_RING_READY: the agent mapped the ring and its handler for signo is
 * installed: a perf event fd may now signal signo (F_SETSIG) to a thread of
 * the JVM (F_SETOWN_EX), which then walks itself and writes the ring.
 * signo 0: the ring was refused; walks stay on request.
 */
struct pja_ring_ready {
	int32_t signo;
	uint32_t flags;
};

/* Another reader has this agent: a PJA_BUSY follows, then the agent closes
 * the connection and the other reader's session goes on untouched. */
#define PJA_HELLO_BUSY 4u

/* PJA_BUSY: who has the agent. */
struct pja_busy {
	uint32_t reader_pid; /* the other reader, in the JVM's pid namespace;
				0 when it is not visible there */
	uint32_t pad;
};

/*
 * PJA_METHOD: struct pja_method, then class_len bytes of class name in Java
 * form ("java.util.zip.Deflater"), name_len bytes of method name, sig_len bytes
 * of JVM signature ("([BII)I"), file_len bytes of source file name (0 when
 * unknown), then nlines struct pja_line sorted by start_bci.
 */
struct pja_method {
	uint64_t id; /* the jmethodID, as a number */
	uint32_t class_len, name_len, sig_len, file_len;
	uint32_t nlines;
	uint32_t flags; /* PJA_METHOD_* */
};
#define PJA_METHOD_NATIVE 1u /* declared native */

struct pja_line {
	uint32_t start_bci; /* this line starts at this bci */
	uint32_t line;
};

/* PJA_WALK: n = len / sizeof(struct pja_walk_req) requests. */
struct pja_walk_req {
	uint64_t cookie; /* echoed back */
	uint64_t sample_time; /* when the kernel took the sample */
	uint32_t tid; /* target-namespace tid */
	uint32_t pad;
};

enum pja_walk_status {
	PJA_WALK_OK = 0,
	PJA_WALK_NOT_JAVA = 1, /* no Java frames / not a Java thread */
	PJA_WALK_NOT_WALKABLE = 2, /* AsyncGetCallTrace refused (GC, ...) */
	PJA_WALK_TIMEOUT = 3, /* the thread did not answer in time */
	PJA_WALK_FAULT = 4, /* a fault during the walk was caught */
	PJA_WALK_GONE = 5, /* the thread does not exist */
};

/* PJA_WALK_RESULT: struct pja_walk_result, then nframes struct pja_frame,
 * innermost first. */
struct pja_walk_result {
	uint64_t cookie;
	uint64_t sample_time; /* as requested */
	uint64_t walk_time; /* when the handler ran (0 if it did not) */
	uint64_t recv_time; /* when the agent read the request */
	int32_t status; /* enum pja_walk_status */
	int32_t asgct; /* AsyncGetCallTrace's num_frames when <= 0 (also
			  when recovered), else 0 */
	uint32_t nframes;
	uint32_t flags; /* PJA_WALK_TRUNCATED, PJA_WALK_HOW() */
};
#define PJA_WALK_TRUNCATED 1u /* the stack was deeper than depth */
/* Bits 8..15 of flags: how a walk AsyncGetCallTrace refused at first was
 * recovered (enum pja_walk_how); 0 when it needed no recovery. */
#define PJA_WALK_HOW_SHIFT 8
#define PJA_WALK_HOW(flags) (((flags) >> PJA_WALK_HOW_SHIFT) & 0xffu)

enum pja_walk_how {
	PJA_HOW_DIRECT = 0, /* AsyncGetCallTrace from the signal context */
	PJA_HOW_STUB_RET = 1, /* stepped out of a frameless stub (vtable,
				 itable, adapter) or method entry to its return
				 address */
	PJA_HOW_EPILOGUE = 2, /* stepped over a saved frame pointer and a
				 return address (a method's epilogue) */
	PJA_HOW_ANCHOR = 3, /* no longer sent (it wrote the JVM's frame
			       anchor): kept so the numbers stay */
	PJA_HOW_FRAME = 4, /* stepped out of a stub's own frame through its
			      frame pointer */
	PJA_HOW_COMPILED = 5, /* stepped out of a compiled method's frame by
				 its frame size (the JVM's code blob); the
				 method and what it inlined at the pc come
				 from the code map */
	PJA_HOW_VM = 6, /* in the VM with a last Java frame the JVM has not
			   marked walkable: the agent's own walk of the
			   physical frames (compiled frames without what they
			   inlined) */
	PJA_HOW_MAX
};

struct pja_frame {
	uint64_t method; /* jmethodID (a PJA_METHOD was sent for it) */
	int32_t bci; /* bytecode index; < 0 when unknown / native */
	uint8_t type; /* PJ_FRAME_JIT, _INLINED, _INTERPRETED, _JAVA_NATIVE */
	uint8_t pad[3];
};

/*
 * PJA_STACK: n = len / sizeof(struct pja_walk_req) requests for the Java
 * stack of a thread blocked in the kernel (sample_time: its switch-out).
 * The agent's own thread takes it with JVMTI GetStackTrace, which HotSpot
 * does for a blocked thread without waking it (a handshake the caller
 * runs), and answers each with a PJA_STACK_RESULT: struct
 * pja_stack_result, then nframes struct pja_frame, innermost first. Their
 * types are guessed as for the outer frames of a walk (no pc pins them).
 */
struct pja_stack_result {
	uint64_t cookie; /* echoed back */
	uint64_t switch_time; /* the request's sample_time */
	uint64_t start_time; /* just before GetStackTrace */
	uint64_t walk_time; /* just after it returned */
	int32_t status; /* enum pja_walk_status */
	uint32_t state; /* JVMTI GetThreadState after the walk
			   (PJA_TSTATE_*: JVMTI's own bits) */
	uint32_t nframes;
	uint32_t flags; /* PJA_WALK_TRUNCATED */
};

/*
 * PJA_EVENTS: what to record besides the walks, for the rest of the
 * session (sent once, after RING). alloc_interval: the mean bytes between
 * sampled allocations (JVMTI SetHeapSamplingInterval); lock_ns: waits for
 * a lock shorter than this are not sent. The agent answers with
 * PJA_EVENTS_READY.
 */
struct pja_events {
	uint64_t alloc_interval;
	uint64_t lock_ns;
	uint32_t flags; /* PJA_EV_* */
	uint32_t pad;
};
#define PJA_EV_ALLOC 1u /* sampled allocations (JVMTI SampledObjectAlloc) */
#define PJA_EV_LOCK 2u /* contended monitors, parks on a lock */
#define PJA_EV_VTHREADS \
	4u /* virtual threads: which one runs on a carrier,
			      and their parks (unmount to mount) */
#define PJA_EV_WALL \
	8u /* every park of a virtual thread, not only on a
			  lock (for --wall) */
/* In EVENTS_READY's failed: what failed is held by another agent (HotSpot
 * gives sampled allocations to one JVMTI agent at a time) */
#define PJA_EV_HELD 16u

/* PJA_EVENTS_READY: the PJA_EV_* turned on, and those that failed;
 * stray: events the JVM posted while none was asked for, since the agent
 * was loaded (0 unless a session left one on). Sent again when dropped
 * changes: the events not sent this session (over the agent's rate bound,
 * or no free stack buffer). */
struct pja_events_ready {
	uint32_t on;
	uint32_t failed;
	uint64_t stray;
	uint64_t dropped;
};

/*
 * PJA_PARK: the agent's hook on Unsafe.park (lock.c), bound for the JVM's
 * life once a session recorded locks. pass_lo..pass_hi is the agent's
 * code that only passes the call on to the park it wraps: a thread's frame
 * there (the innermost of the agent's in its stack) is the application's
 * park, not the agent's work. state: PJA_PARK_*; rebound: how many times
 * this session another agent bound Unsafe.park to its own hook and the
 * agent bound its own again (calling that one).
 */
struct pja_park {
	uint64_t pass_lo, pass_hi;
	uint32_t state;
	uint32_t rebound;
};
#define PJA_PARK_BOUND 1u /* the hook is bound: it sees the parks */
#define PJA_PARK_FAILED 2u /* it could not be bound (monitors only) */
#define PJA_PARK_CHAINED 4u /* another agent's hook was bound: ours calls it */
#define PJA_PARK_LOST \
	8u /* another agent bound its hook over ours and ours
			    could not be bound again: parks since unseen */
#define PJA_PARK_UNCHECKED \
	16u /* the bound entry cannot be read (HotSpot's Method
			 size unknown): another agent's binding after ours
			 would go unseen */

/*
 * PJA_CLASS: struct pja_class, then name_len bytes: the class a pjw_event
 * names by id ("long[]", "java.lang.String"), or the lock owner's thread
 * name, sent before the first record naming it.
 */
struct pja_class {
	uint64_t id; /* never 0 */
	uint32_t name_len;
	uint32_t pad;
};
#define PJA_CLASS_MAX_NAME 512u

/*
 * PJA_VTHREAD: struct pja_vthread, then name_len bytes: the name of a
 * virtual thread (java.lang.Thread.threadId() id), sent once before the
 * first record naming it. Unnamed virtual threads are not sent.
 */
struct pja_vthread {
	uint64_t id;
	uint32_t name_len;
	uint32_t pad;
};
/* A STACK_RESULT's flags: PJA_WALK_TRUNCATED, and */
#define PJA_WALK_COPY 2u /* the answer to a STACK_COPY: walked in the copy */

/*
 * PJA_STACK_COPY: struct pja_copy_req, then len bytes: a copy of a thread's
 * stack from sp up, taken at switch_time (the kernel's copy at its
 * switch-out, PERF_SAMPLE_STACK_USER, or the reader's own of a blocked
 * thread). pc, sp and fp are those of the first frame in the JVM's
 * generated code (found by the reader's unwinder); pc is a return address
 * unless flags has PJA_COPY_TOP (the thread was stopped at pc itself). The
 * agent walks the Java frames in these bytes, not in the thread, and
 * answers with a PJA_STACK_RESULT with PJA_WALK_COPY, PJA_WALK_TRUNCATED
 * when the frames go on beyond the copy.
 *
 * With PJA_COPY_CHAIN the Java frames lay deeper than the copy (a thread
 * switched out in the JVM's own deep frames): the len bytes are the return
 * addresses (uint64_t, at most PJA_CHAIN_MAX) the kernel's frame-pointer
 * chain read at the switch-out from fp on, the last one in the JVM's code.
 * The agent follows that chain in the live stack; when every link still
 * holds what it held at the switch-out, before and after the walk, the
 * thread is taken to be still inside that call, so that the Java frames
 * beyond it are the switch-out's: it walks them there (pc the last return
 * address, sp just above its link). Otherwise PJA_WALK_NOT_WALKABLE. (A
 * thread that returned out of the call and has not called as deep since
 * leaves the links as they were: its Java frames are those it returned
 * to, or deeper ones.)
 */
struct pja_copy_req {
	uint64_t cookie; /* echoed back */
	uint64_t switch_time;
	uint64_t pc, sp, fp;
	uint32_t tid; /* target-namespace tid */
	uint32_t flags; /* PJA_COPY_TOP, _CHAIN, _BEYOND */
	uint32_t len; /* bytes of stack after this struct */
	uint32_t nchain; /* PJA_COPY_BEYOND: return addresses after them */
};
#define PJA_COPY_TOP 1u
#define PJA_COPY_CHAIN 2u
/* With PJA_COPY_BEYOND a copy's len bytes are followed by the first link
 * of the kernel's frame-pointer chain outside the copy (uint64_t) and
 * nchain return addresses the chain read from there. A walk stopped by the
 * copy's end goes on in the live stack when those links and the copy's
 * last bytes are unchanged before and after it (the thread is still inside
 * the frames that straddle the copy's end). Agents with PJA_HELLO_CHAIN. */
#define PJA_COPY_BEYOND 4u
#define PJA_CHAIN_MAX 24u
#define PJA_COPY_MAX 65536u /* bytes of stack in a request, at most */

#define PJA_TSTATE_SLEEPING 0x0040u /* Thread.sleep */
#define PJA_TSTATE_MONITOR 0x0400u /* blocked entering a monitor */
#define PJA_TSTATE_IN_NATIVE 0x400000u

/*
 * PJA_CODE_LOAD: struct pja_code, then name_len bytes of name: a compiled
 * method is "java.util.zip.Deflater.deflate([BIII)I" (older agents: no
 * signature), a stub or the interpreter its JVM name ("Interpreter",
 * "StubRoutines (1)", ...).
 */
struct pja_code {
	uint64_t start;
	uint64_t size;
	uint64_t method; /* jmethodID for compiled methods, 0 for stubs */
	uint8_t type; /* PJ_FRAME_JIT (C2 or unknown) or PJ_FRAME_C1 for
			 compiled methods, PJ_FRAME_VM */
	uint8_t pad[3];
	uint32_t name_len;
};

/* PJA_CODE_UNLOAD */
struct pja_code_unload {
	uint64_t start;
	uint64_t method;
};

/* The agent's own thread's name; it announces itself with PJA_THREAD, so that
 * the reader can keep it apart from the application's threads. */
#define PJA_AGENT_THREAD "perfjava-agent"

/* PJA_THREAD: struct pja_thread, then name_len bytes. PJA_THREAD_END: the
 * struct alone (name_len 0). */
struct pja_thread {
	uint32_t tid; /* target-namespace tid */
	uint32_t name_len;
};

#endif

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PJ_AGENT_VMSTRUCTS_H
#define PJ_AGENT_VMSTRUCTS_H

#include "pja.h"
#include "framecache.h"

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

#endif

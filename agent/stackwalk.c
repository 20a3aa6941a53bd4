// SPDX-License-Identifier: GPL-2.0
/*
 * The walk itself: the Java stack of the calling thread, taken from its own
 * signal context with AsyncGetCallTrace. It runs inside a signal handler on
 * the thread being walked, whoever sent the signal (the agent's request path
 * in walk.c, or the kernel on a sample), so it allocates nothing, takes no
 * lock and calls nothing that is not async-signal-safe.
 *
 * Fault protection: a walk claims an entry of a fixed table (the thread's tid
 * and a sigjmp_buf; no thread-local storage, whose first use in a dlopened
 * library may allocate) between sigsetjmp and the end of the walk. A SIGSEGV
 * or SIGBUS on that thread inside the window jumps back and the walk reports
 * FAULT. Every other SIGSEGV/SIGBUS (the JVM's implicit null checks, safepoint
 * polls, stack banging) goes straight to the JVM's handler with the same
 * arguments. The handlers are installed once and never removed: a late signal
 * must always find them.
 *
 * Recovery: when AsyncGetCallTrace refuses the thread's state, the walk is
 * retried from a frame it can walk (recover_compiled, recover_java), or in
 * the VM walked from the physical frames (walk_vm), and tagged with how
 * (enum pja_walk_how), inside the same fault-protected window. Recovery
 * only reads the JVM's memory, never writes it.
 */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <ucontext.h>

#include "pja.h"
#include "clock.h"
#include "codemap.h"
#include "curenv.h"
#include "frametype.h"
#include "stackwalk.h"
#include "vmstructs.h"
#include "vmwalk.h"

/* Walks protected at once; a walk that finds no free entry is refused. */
#define NPROT 64

static struct {
	atomic_int tid; /* 0 when free */
	uint32_t seq; /* claims' order: the innermost of a thread's is last */
	sigjmp_buf jb;
} prot[NPROT];
static atomic_int nprotected;
static atomic_uint nclaims;
static struct sigaction prev_segv, prev_bus;
/* Tests (testhooks.c): NULL in a user's JVM. */
static int (*walk_hook)(void);

void stackwalk_hook(int (*fn)(void))
{
	walk_hook = fn;
}

uint64_t pja_context_pc(const void *ucontext)
{
	const ucontext_t *uc = ucontext;

#if defined(__x86_64__)
	return uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
	return uc->uc_mcontext.pc;
#else
	(void)uc;
	return 0;
#endif
}

void pja_chain(const struct sigaction *prev, int sig, siginfo_t *si, void *uc)
{
	if (prev->sa_flags & SA_SIGINFO) {
		if (prev->sa_sigaction)
			prev->sa_sigaction(sig, si, uc);
		return;
	}
	if (prev->sa_handler == SIG_IGN)
		return;
	if (prev->sa_handler == SIG_DFL) {
		if (sig == SIGTRAP) {
			/* a breakpoint nobody handles: the default way */
			signal(sig, SIG_DFL);
			raise(sig);
			return;
		}
		if (sig != SIGSEGV && sig != SIGBUS)
			return; /* a stray profiling signal must not end the JVM */
		/* a real crash: let it happen the default way */
		signal(sig, SIG_DFL);
		return;
	}
	prev->sa_handler(sig);
}

/*
 * A fault inside a protected window jumps back to its start. The window's
 * sigsetjmp saved no signal mask (a system call per walk): the mask the
 * thread had when it faulted, which the walk ran with, is put back here.
 *
 * A thread may be in two windows at once: a walk at the sample taken in a
 * handler that interrupted the thread inside another window (the service
 * thread reading a compile level, the session thread walking a stack
 * copy, a walk on request under a walk at the sample). The fault is the
 * innermost window's, the thread's latest claim: a jump to an outer one
 * would leave the handler between them without its return, the thread's
 * mask with the handler's signals blocked for good, and the inner window's
 * entry claimed with a stale jump buffer.
 */
static void on_fault(int sig, siginfo_t *si, void *uc)
{
	if (atomic_load(&nprotected) > 0) {
		int me = pja_gettid(), in = -1;
		unsigned int i;

		for (i = 0; i < NPROT; i++)
			if (atomic_load(&prot[i].tid) == me &&
			    (in < 0 ||
			     (int32_t)(prot[i].seq - prot[in].seq) > 0))
				in = (int)i;
		if (in >= 0) {
			pthread_sigmask(SIG_SETMASK,
					&((ucontext_t *)uc)->uc_sigmask, NULL);
			siglongjmp(prot[in].jb, 1);
		}
	}
	pja_chain(sig == SIGBUS ? &prev_bus : &prev_segv, sig, si, uc);
}

int pja_install(int sig, void (*fn)(int, siginfo_t *, void *),
		struct sigaction *prev)
{
	struct sigaction sa;

	if (sigaction(sig, NULL, prev))
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fn;
	sa.sa_mask = prev->sa_mask;
	sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
	if (sig == SIGSEGV || sig == SIGBUS)
		sa.sa_flags |= prev->sa_flags & SA_NODEFER;
	return sigaction(sig, &sa, prev);
}

int stackwalk_init(void)
{
	if (pja_install(SIGSEGV, on_fault, &prev_segv) ||
	    pja_install(SIGBUS, on_fault, &prev_bus))
		return -1;
	return 0;
}

__attribute__((noinline)) static int claim(int me)
{
	unsigned int i;

	for (i = 0; i < NPROT; i++) {
		int free_tid = 0;

		if (atomic_compare_exchange_strong(&prot[i].tid, &free_tid,
						   me)) {
			prot[i].seq = atomic_fetch_add(&nclaims, 1);
			return (int)i;
		}
	}
	return -1;
}

int pja_protected(int (*fn)(const void *), const void *arg)
{
	int slot = claim(pja_gettid()), r;

	if (slot < 0)
		return -1;
	atomic_fetch_add(&nprotected, 1);
	/* no mask saved (a system call per compiled method loaded): on_fault
	 * puts back the one the fault happened under, fn's caller's */
	if (sigsetjmp(prot[slot].jb, 0)) {
		atomic_fetch_sub(&nprotected, 1);
		atomic_store(&prot[slot].tid, 0);
		return -1;
	}
	r = fn(arg);
	atomic_fetch_sub(&nprotected, 1);
	atomic_store(&prot[slot].tid, 0);
	return r;
}

/* Where the walk AsyncGetCallTrace gave started: for typing its frames. */
struct walk_from {
	uint64_t pc, sp, fp;
};

#if defined(__x86_64__)
/* AsyncGetCallTrace from a copy of the context with pc, sp and fp changed
 * (kept in *from). */
static int asgct_from(struct asgct_trace *t, unsigned int depth, void *uc,
		      uint64_t pc, uint64_t sp, uint64_t fp,
		      struct walk_from *from)
{
	ucontext_t c;

	from->pc = pc;
	from->sp = sp;
	from->fp = fp;
	memcpy(&c, uc, sizeof(c));
	c.uc_mcontext.gregs[REG_RIP] = (greg_t)pc;
	c.uc_mcontext.gregs[REG_RSP] = (greg_t)sp;
	c.uc_mcontext.gregs[REG_RBP] = (greg_t)fp;
	t->num_frames = 0;
	pja.asgct(t, (jint)depth, &c);
	return t->num_frames;
}

/*
 * In Java code AsyncGetCallTrace refused the top frame: a stub without a
 * frame of its own (vtable/itable stubs, adapters), a method's entry before
 * its frame is built, or its epilogue. Step out to the caller the way the
 * return would, and walk from there: the return address on top of the stack,
 * or one slot below a saved frame pointer. Only into generated code.
 */
static uint32_t recover_java(struct asgct_trace *t, unsigned int depth,
			     void *uc, struct walk_from *from)
{
	const ucontext_t *u = uc;
	uint64_t sp = u->uc_mcontext.gregs[REG_RSP];
	uint64_t fp = u->uc_mcontext.gregs[REG_RBP];
	const uint64_t *s = (const uint64_t *)sp;

	if (!sp || sp & 7)
		return 0;
	if (codemap_in_range(s[0]) &&
	    asgct_from(t, depth, uc, s[0], sp + 8, fp, from) > 0)
		return PJA_HOW_STUB_RET;
	if (codemap_in_range(s[1]) &&
	    asgct_from(t, depth, uc, s[1], sp + 16, s[0], from) > 0)
		return PJA_HOW_EPILOGUE;
	/* a stub with a frame of its own (C1's runtime stubs save the
	 * registers behind push rbp; mov rbp, rsp): its frame pointer */
	if (fp >= sp && fp - sp < (1u << 16) && !(fp & 7)) {
		const uint64_t *f = (const uint64_t *)fp;

		if (codemap_in_range(f[1]) &&
		    asgct_from(t, depth, uc, f[1], fp + 16, f[0], from) > 0)
			return PJA_HOW_FRAME;
	}
	return 0;
}

/*
 * In a compiled method whose frame AsyncGetCallTrace would not take as the
 * top (it finds the caller by the frame's size from the stack pointer, which
 * C2 code moves for a while around an intrinsic): step over that frame by
 * the size the JVM's code blob gives, the return address in its last word,
 * the caller's frame pointer below it, and walk from the caller. The frame
 * itself is named by the session thread from the code map at the pc
 * (frames[0] gets no method here, codemap_top).
 */
static uint32_t recover_compiled(struct asgct_trace *t, unsigned int depth,
				 void *uc, int size, struct walk_from *from)
{
	const ucontext_t *u = uc;
	uint64_t sp = u->uc_mcontext.gregs[REG_RSP];
	const uint64_t *caller;
	struct asgct_frame *top = t->frames;

	if (depth < 2 || !sp || sp & 7 || !size)
		return 0;
	/* C2's intrinsics may push a word or two for a while (the string
	 * compare keeps a count there): the return address is then above */
	caller = (const uint64_t *)sp + size;
	for (int push = 0; !codemap_in_range(caller[-1]); push++, caller++)
		if (push == 2)
			return 0;
	t->frames = top + 1;
	if (asgct_from(t, depth - 1, uc, caller[-1], (uint64_t)caller,
		       caller[-2], from) <= 0) {
		t->frames = top;
		return 0;
	}
	t->frames = top;
	top->method = NULL;
	top->lineno = 0;
	t->num_frames++;
	return PJA_HOW_COMPILED;
}
#else
static uint32_t recover_compiled(struct asgct_trace *t, unsigned int depth,
				 void *uc, int size, struct walk_from *from)
{
	(void)t;
	(void)depth;
	(void)uc;
	(void)size;
	(void)from;
	return 0;
}

static uint32_t recover_java(struct asgct_trace *t, unsigned int depth,
			     void *uc, struct walk_from *from)
{
	(void)t;
	(void)depth;
	(void)uc;
	(void)from;
	return 0;
}
#endif

/* The thread's frame anchor (last Java sp, pc, fp; fp 0 where its offset
 * is unknown): 0, or -1 when the anchor cannot be found from env. */
static int read_anchor(JNIEnv *env, struct walk_from *a)
{
	const char *p;

	if (pja_vm.env_offset < 0 || pja_vm.anchor < 0)
		return -1;
	p = (const char *)env - pja_vm.env_offset + pja_vm.anchor;
	a->sp = *(const volatile uint64_t *)(p + pja_vm.anchor_sp);
	a->pc = *(const volatile uint64_t *)(p + pja_vm.anchor_pc);
	a->fp = pja_vm.anchor_fp < 0
		    ? 0
		    : *(const volatile uint64_t *)(p + pja_vm.anchor_fp);
	return 0;
}

/*
 * When neither AsyncGetCallTrace nor walk_vm walked a thread in the VM,
 * whether it has Java frames at all (a last Java sp) tells a lost walk from
 * a thread without Java frames.
 */
static int has_last_java_frame(JNIEnv *env)
{
	struct walk_from a;

	return !read_anchor(env, &a) && a.sp;
}

/* Where AsyncGetCallTrace started a walk it gave from the context: the
 * thread's last Java frame when that is walkable, else the context. */
static void direct_from(JNIEnv *env, const void *uc, struct walk_from *from)
{
	if (pja_vm.anchor_fp >= 0 && !read_anchor(env, from) && from->sp &&
	    from->pc)
		return;
#if defined(__x86_64__)
	from->pc = ((const ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
	from->sp = ((const ucontext_t *)uc)->uc_mcontext.gregs[REG_RSP];
	from->fp = ((const ucontext_t *)uc)->uc_mcontext.gregs[REG_RBP];
#else
	(void)uc;
	from->pc = 0;
#endif
}

/*
 * In the VM with a last Java frame AsyncGetCallTrace would not walk (a call
 * from the interpreter leaves its pc unset until the JVM marks it walkable):
 * walk its physical frames from the anchor, the pc from the slot below its
 * sp as the JVM's own make_walkable() would take it, without writing it.
 */
static uint32_t walk_vm(struct asgct_trace *t, unsigned int depth, JNIEnv *env)
{
	struct walk_from a;

	if (pja_vm.anchor_fp < 0 || read_anchor(env, &a) || !a.sp || a.sp & 7)
		return 0;
	if (!a.pc)
		a.pc = ((const uint64_t *)a.sp)[-1];
	t->num_frames = frametype_walk(t->frames, (int)depth, a.pc, a.sp, a.fp);
	return t->num_frames > 0 ? PJA_HOW_VM : 0;
}

void stackwalk_here(void *uc, struct pja_walk *w)
{
	struct walk_from from = { 0, 0, 0 };
	struct asgct_trace trace;
	JNIEnv *env = NULL;
	volatile int slot;
	volatile int java_below = 0; /* set after sigsetjmp */
	int first, asgct_only;

	w->pc = pja_context_pc(uc);
	w->time = pja_now();
	w->num = 0;
	w->asgct = 0;
	w->how = 0;
	w->raw = 0;
	w->truncated = 0;
	memset(w->mark, 0, sizeof(w->mark));
	env = curenv();
	if (!env) {
		w->tid = pja_gettid();
		w->status = PJA_WALK_NOT_JAVA;
		return;
	}
	w->tid = vmstructs_tid(env) ?: pja_gettid();
	slot = claim(w->tid);
	if (slot < 0) {
		w->status = PJA_WALK_NOT_WALKABLE;
		return;
	}
	trace.env = env;
	trace.num_frames = 0;
	trace.frames = w->frames;
	atomic_fetch_add(&nprotected, 1);
	if (sigsetjmp(prot[slot].jb, 0)) {
		atomic_fetch_sub(&nprotected, 1);
		atomic_store(&prot[slot].tid, 0);
		w->status = PJA_WALK_FAULT;
		w->num = 0;
		w->how = 0;
		return;
	}
	/* tests only: a fault inside the walk, or no walk of our own */
	asgct_only = (walk_hook && walk_hook()) || w->asgct_only;
	w->mark[PJW_PART_ENTRY] = pja_ticks();
	first = asgct_only ? -1
			   : vmwalk(env, uc, w->frames, w->slots, w->depth,
				    &w->truncated);
	if (first > 0) { /* its own walk: nothing to recover or type */
		w->mark[PJW_PART_WALK] = pja_ticks();
		atomic_fetch_sub(&nprotected, 1);
		atomic_store(&prot[slot].tid, 0);
		w->raw = 1;
		w->num = first;
		w->status = PJA_WALK_OK;
		return;
	}
	pja.asgct(&trace, (jint)w->depth, uc);
	w->mark[PJW_PART_WALK] = pja_ticks();
	first = trace.num_frames;
	/* recovery reads the stack and the thread: still inside the window */
	if (first == ASGCT_UNKNOWN_JAVA || first == ASGCT_NOT_WALKABLE_JAVA) {
		int complete, size = vmstructs_nmethod_frame(w->pc, &complete);

		/* past its prologue, a compiled method's frame has its size;
		 * in it, the return address is where the prologue left it */
		if (complete)
			w->how =
			    recover_compiled(&trace, w->depth, uc, size, &from);
		if (!w->how)
			w->how = recover_java(&trace, w->depth, uc, &from);
		if (!w->how && !complete)
			w->how =
			    recover_compiled(&trace, w->depth, uc, size, &from);
	} else if (first == ASGCT_UNKNOWN_NOT_JAVA ||
		   first == ASGCT_NOT_WALKABLE_NOT_JAVA ||
		   first == ASGCT_GC_ACTIVE) {
		/* with a collection under way the thread waits for its end
		 * with a last Java frame, which the walk reads as it was */
		w->how = walk_vm(&trace, w->depth, env);
		if (!w->how && first == ASGCT_UNKNOWN_NOT_JAVA)
			java_below = has_last_java_frame(env);
	}
	if (!w->how)
		trace.num_frames = first;
	w->mark[PJW_PART_RECOVER] = pja_ticks();
	/* which frames ran interpreted, from the stack itself */
	if (!w->how && trace.num_frames > 0)
		direct_from(env, uc, &from);
	if (w->how == PJA_HOW_COMPILED)
		frametype_mark(w->frames + 1, trace.num_frames - 1, from.pc,
			       from.sp, from.fp);
	else if (trace.num_frames > 0 && w->how != PJA_HOW_VM)
		frametype_mark(w->frames, trace.num_frames, from.pc, from.sp,
			       from.fp);
	w->mark[PJW_PART_TYPE] = pja_ticks();
	atomic_fetch_sub(&nprotected, 1);
	atomic_store(&prot[slot].tid, 0);
	if (trace.num_frames > 0) {
		w->num = trace.num_frames;
		w->asgct = w->how ? first : 0;
		w->status = PJA_WALK_OK;
		return;
	}
	w->asgct = trace.num_frames;
	switch (trace.num_frames) {
	case ASGCT_UNKNOWN_NOT_JAVA:
		w->status = java_below ? PJA_WALK_NOT_WALKABLE
				       : PJA_WALK_NOT_JAVA;
		break;
	case ASGCT_NO_JAVA_FRAME:
		w->status = PJA_WALK_NOT_JAVA;
		break;
	/* ASGCT_NOT_WALKABLE_NOT_JAVA: a Java thread in VM or native code
	 * with a last Java frame it could not walk: not walkable, marked */
	case ASGCT_THREAD_EXIT:
		w->status = PJA_WALK_GONE;
		break;
	default:
		w->status = PJA_WALK_NOT_WALKABLE;
	}
}

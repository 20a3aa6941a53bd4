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
 * retried from a frame it can walk (recover_java, recover_anchor) and tagged
 * with how (enum pja_walk_how), inside the same fault-protected window.
 */
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <ucontext.h>

#include "pja.h"

/* Walks protected at once; a walk that finds no free entry is refused. */
#define NPROT 64

static struct {
	atomic_int tid; /* 0 when free */
	sigjmp_buf jb;
} prot[NPROT];
static atomic_int nprotected;
static atomic_uint fault_count;
/* tests only: an address the walk reads to prove a fault is survived */
static volatile uintptr_t bad_addr = 16;
static struct sigaction prev_segv, prev_bus;

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
		if (sig != SIGSEGV && sig != SIGBUS)
			return; /* a stray profiling signal must not end the JVM */
		/* a real crash: let it happen the default way */
		signal(sig, SIG_DFL);
		return;
	}
	prev->sa_handler(sig);
}

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	if (atomic_load(&nprotected) > 0) {
		int me = pja_gettid();
		unsigned int i;

		for (i = 0; i < NPROT; i++)
			if (atomic_load(&prot[i].tid) == me)
				siglongjmp(prot[i].jb, 1);
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

static int claim(int me)
{
	unsigned int i;

	for (i = 0; i < NPROT; i++) {
		int free_tid = 0;

		if (atomic_compare_exchange_strong(&prot[i].tid, &free_tid, me))
			return (int)i;
	}
	return -1;
}

#if defined(__x86_64__)
/* AsyncGetCallTrace from a copy of the context with pc, sp and fp changed. */
static int asgct_from(struct asgct_trace *t, unsigned int depth, void *uc,
		      uint64_t pc, uint64_t sp, uint64_t fp)
{
	ucontext_t c;

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
			     void *uc)
{
	const ucontext_t *u = uc;
	uint64_t sp = u->uc_mcontext.gregs[REG_RSP];
	uint64_t fp = u->uc_mcontext.gregs[REG_RBP];
	const uint64_t *s = (const uint64_t *)sp;

	if (!sp || sp & 7)
		return 0;
	if (codemap_in_range(s[0]) &&
	    asgct_from(t, depth, uc, s[0], sp + 8, fp) > 0)
		return PJA_HOW_STUB_RET;
	if (codemap_in_range(s[1]) &&
	    asgct_from(t, depth, uc, s[1], sp + 16, s[0]) > 0)
		return PJA_HOW_EPILOGUE;
	/* a stub with a frame of its own (C1's runtime stubs save the
	 * registers behind push rbp; mov rbp, rsp): its frame pointer */
	if (fp >= sp && fp - sp < (1u << 16) && !(fp & 7)) {
		const uint64_t *f = (const uint64_t *)fp;

		if (codemap_in_range(f[1]) &&
		    asgct_from(t, depth, uc, f[1], fp + 16, f[0]) > 0)
			return PJA_HOW_FRAME;
	}
	return 0;
}
#else
static uint32_t recover_java(struct asgct_trace *t, unsigned int depth,
			     void *uc)
{
	(void)t;
	(void)depth;
	(void)uc;
	return 0;
}
#endif

/*
 * In native or VM code whose last Java frame is not marked walkable (the
 * anchor has its sp but no pc, as after a call from the interpreter into the
 * VM): set the pc the way the JVM's own make_walkable() does, from the slot
 * below the last Java sp, and walk again.
 */
static uint32_t recover_anchor(struct asgct_trace *t, unsigned int depth,
			       void *uc, JNIEnv *env)
{
	char *a;
	uint64_t sp, pc;

	if (pja_vm.env_offset < 0 || pja_vm.anchor < 0)
		return 0;
	a = (char *)env - pja_vm.env_offset + pja_vm.anchor;
	sp = *(volatile uint64_t *)(a + pja_vm.anchor_sp);
	pc = *(volatile uint64_t *)(a + pja_vm.anchor_pc);
	if (!sp || pc || sp & 7)
		return 0;
	pc = ((const uint64_t *)sp)[-1];
	if (!codemap_in_range(pc))
		return 0;
	*(volatile uint64_t *)(a + pja_vm.anchor_pc) = pc;
	t->num_frames = 0;
	pja.asgct(t, (jint)depth, uc);
	return t->num_frames > 0 ? PJA_HOW_ANCHOR : 0;
}

void stackwalk_here(void *uc, struct pja_walk *w)
{
	struct asgct_trace trace;
	JNIEnv *env = NULL;
	int me = pja_gettid();
	volatile int slot;
	int first;

	w->pc = pja_context_pc(uc);
	w->time = pja_now();
	w->num = 0;
	w->asgct = 0;
	w->how = 0;
	if ((*pja.vm)->GetEnv(pja.vm, (void **)&env, JNI_VERSION_1_6) !=
	    JNI_OK) {
		w->status = PJA_WALK_NOT_JAVA;
		return;
	}
	slot = claim(me);
	if (slot < 0) {
		w->status = PJA_WALK_NOT_WALKABLE;
		return;
	}
	trace.env = env;
	trace.num_frames = 0;
	trace.frames = w->frames;
	atomic_fetch_add(&nprotected, 1);
	if (sigsetjmp(prot[slot].jb, 1)) {
		atomic_fetch_sub(&nprotected, 1);
		atomic_store(&prot[slot].tid, 0);
		w->status = PJA_WALK_FAULT;
		w->num = 0;
		w->how = 0;
		return;
	}
	if (pja.testfault &&
	    atomic_fetch_add(&fault_count, 1) % pja.testfault == 0) {
		/* tests only: read an unmapped address inside the walk */
		w->num = (int)*(volatile long *)bad_addr;
	}
	pja.asgct(&trace, (jint)w->depth, uc);
	first = trace.num_frames;
	/* recovery reads the stack and the thread: still inside the window */
	if (first == ASGCT_UNKNOWN_JAVA || first == ASGCT_NOT_WALKABLE_JAVA)
		w->how = recover_java(&trace, w->depth, uc);
	else if (first == ASGCT_UNKNOWN_NOT_JAVA)
		w->how = recover_anchor(&trace, w->depth, uc, env);
	if (!w->how)
		trace.num_frames = first;
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
	case ASGCT_NO_JAVA_FRAME:
	case ASGCT_UNKNOWN_NOT_JAVA:
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

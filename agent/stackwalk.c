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

void stackwalk_here(void *uc, struct pja_walk *w)
{
	struct asgct_trace trace;
	JNIEnv *env = NULL;
	int me = pja_gettid();
	volatile int slot;

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
		return;
	}
	if (pja.testfault &&
	    atomic_fetch_add(&fault_count, 1) % pja.testfault == 0) {
		/* tests only: read an unmapped address inside the walk */
		w->num = (int)*(volatile long *)bad_addr;
	}
	pja.asgct(&trace, (jint)w->depth, uc);
	atomic_fetch_sub(&nprotected, 1);
	atomic_store(&prot[slot].tid, 0);
	if (trace.num_frames > 0) {
		w->num = trace.num_frames;
		w->status = PJA_WALK_OK;
		return;
	}
	w->asgct = trace.num_frames;
	switch (trace.num_frames) {
	case ASGCT_NO_JAVA_FRAME:
	case ASGCT_UNKNOWN_NOT_JAVA:
	case ASGCT_NOT_WALKABLE_NOT_JAVA:
		w->status = PJA_WALK_NOT_JAVA;
		break;
	case ASGCT_THREAD_EXIT:
		w->status = PJA_WALK_GONE;
		break;
	default:
		w->status = PJA_WALK_NOT_WALKABLE;
	}
}

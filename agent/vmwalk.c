// SPDX-License-Identifier: GPL-2.0
/*
 * The agent's own walk of a Java stack, from the thread's registers and the
 * JVM's structures (gHotSpotVMStructs), for the common case: a thread in
 * compiled Java code past its prologue, in the interpreter, or in native or
 * VM code below a frame anchor. AsyncGetCallTrace does the same work through
 * far more of the JVM's code and data, which a signal handler finds cold each
 * time; it still walks whatever this walk is not sure of (stackwalk.c).
 *
 * The walk keeps each frame raw: an interpreter frame as its method and bci,
 * a compiled frame as its method and pc (two slots, PJA_RAW_*), a native
 * method as its method (bci -3). The session thread names a compiled frame's
 * inlined methods later, from the code map's inlining records at that pc
 * (codemap_expand), which are AsyncGetCallTrace's own debug information: the
 * record at or after the interrupted pc for the top frame (codemap.c,
 * record_at), the one at the return address for a caller.
 *
 * Frames: an interpreter frame holds its Method* at fp[-3], its bcp at
 * fp[-8], its caller's sp at fp[-1], fp at fp[0], pc at fp[1]; a compiled
 * frame or a stub spans the frame size its code blob gives, the return
 * address in its last word and the caller's fp below it; an entry frame
 * (the call stub's return address) holds the JavaCallWrapper whose anchor
 * is the caller's last Java frame, or none at the thread's first Java call.
 *
 * It gives up (-1) at anything else, and at any frame it cannot prove: a
 * walk ends at a thread's first entry frame or at the depth, every step moves
 * up the thread's own stack, every pc lies in the code cache. In a signal
 * handler, inside the walk's fault protection: only reads, no locks.
 */
#include <string.h>
#include <ucontext.h>

#include "pja.h"
#include "codemap.h"
#include "framecache.h"
#include "frametype.h"
#include "vmstructs.h"
#include "vmwalk.h"

#define VW_MAX_FRAME (1u << 20) /* bytes between a frame's sp and fp */

struct vw {
	struct asgct_frame *f;
	unsigned int n, cap; /* slots filled, and there are */
	unsigned int frames, depth; /* frames put, and the most wanted */
	uint64_t lo, hi; /* the thread's stack */
	int full; /* the depth was reached */
};

/* the signal frames' return (glibc's restorer), 0 unknown */
static uint64_t restorer;

void vmwalk_restorer(uint64_t pc)
{
	restorer = pc;
}

static int on_stack(const struct vw *v, uint64_t a)
{
	return a >= v->lo && a < v->hi && !(a & 7);
}

static int put(struct vw *v, jint lineno, jmethodID m)
{
	if (v->n >= v->cap || v->frames >= v->depth) {
		v->full = 1;
		return 0;
	}
	v->f[v->n].lineno = lineno;
	v->f[v->n].method = m;
	v->n++;
	v->frames++;
	return 1;
}

/* A compiled frame of method id: its method and pc, or a native method's
 * frame. */
static int put_id(struct vw *v, jmethodID id, int native, uint64_t pc)
{
	if (native)
		return put(v, ASGCT_NATIVE_BCI, id);
	if (v->n + 2 > v->cap || v->frames >= v->depth) {
		v->full = 1;
		return 0;
	}
	v->f[v->n].lineno = PJA_RAW_CODE;
	v->f[v->n].method = id;
	v->f[v->n + 1].lineno = PJA_RAW_PC;
	v->f[v->n + 1].method = (jmethodID)(uintptr_t)pc;
	v->n += 2;
	v->frames++;
	return 1;
}

/* A compiled frame of Method* method: 1 put, 0 full, -1 no id. */
static int put_code(struct vw *v, const void *method, uint64_t pc)
{
	jmethodID id = frametype_method_id(method);

	return id ? put_id(v, id, vmstructs_native(method), pc) : -1;
}

/*
 * A caller in compiled code or in a stub, at return address pc: its
 * frame's size in words, and its method put; -1 to give up. From the frame
 * cache when the blob there is still the one it names (framecache.c).
 */
static int step_over(struct vw *v, uint64_t pc)
{
	struct pja_step e;
	struct pja_blob b;

	if (!framecache_get(pc, &e) || !vmstructs_blob_same(&e, pc)) {
		if (vmstructs_blob(pc, &b) || !b.words)
			return -1;
		e.blob = b.at;
		e.words = (unsigned int)b.words;
		e.tag = (uintptr_t)b.name;
		e.flags = 0;
		if (b.nmethod) {
			jmethodID id;

			/* a return into its stubs: being deoptimized */
			if (!b.stub || pc >= b.stub || pc < b.code)
				return -1;
			id = frametype_method_id(b.method);
			if (!id)
				return -1;
			e.tag = (uintptr_t)id;
			e.flags = PJA_STEP_NMETHOD;
			if (vmstructs_native(b.method))
				e.flags |= PJA_STEP_NATIVE;
		}
		framecache_put(pc, &e);
	}
	if (e.flags & PJA_STEP_NMETHOD &&
	    put_id(v, (jmethodID)(uintptr_t)e.tag,
		   !!(e.flags & PJA_STEP_NATIVE), pc) < 0)
		return -1;
	return (int)e.words;
}

/* An interpreter frame at fp: 1 and its method put, 0 when full, -1 when
 * it is not one. */
static int put_interpreted(struct vw *v, uint64_t sp, uint64_t fp)
{
	const uint64_t *f = (const uint64_t *)fp;
	const void *m;
	jmethodID id;

	if (!on_stack(v, fp) || fp <= sp || fp - sp > VW_MAX_FRAME)
		return -1;
	m = (const void *)f[-3];
	id = m ? frametype_method_id(m) : NULL;
	if (!id)
		return -1;
	if (vmstructs_native(m))
		return put(v, ASGCT_NATIVE_BCI, id);
	return put(
	    v, frametype_bci(m, f[-8]) | PJA_SEEN_INTERPRETED << PJA_SEEN_SHIFT,
	    id);
}

#if defined(__x86_64__)
/*
 * Whether the instruction at pc, in a compiled method's epilogue, runs
 * after its frame is gone (the return address then on top of the stack):
 * ret, or the return's safepoint poll behind pop rbp (JDK 17+: cmp rsp,
 * [r15+d]; ja; JDK 11: mov r10, [r15+d]; test [r10], eax).
 */
static int popped(const unsigned char *ip)
{
	if (ip[0] == 0xc3)
		return 1;
	if (ip[0] == 0x49 && ip[1] == 0x3b && (ip[2] == 0xa7 || ip[2] == 0x67))
		return ip[-1] == 0x5d;
	if (ip[0] == 0x0f && ip[1] == 0x87)
		return ip[6] == 0xc3;
	if (ip[0] == 0x4d && ip[1] == 0x8b && ip[2] == 0x97)
		return ip[-1] == 0x5d;
	return ip[0] == 0x41 && ip[1] == 0x85 && ip[2] == 0x02 && ip[3] == 0xc3;
}

/*
 * A thread in Java code whose pc is outside the code cache: compiled code
 * called a leaf function of the JVM or a library without a frame anchor
 * (System.nanoTime, some math). Up its frame pointers (the JVM keeps them;
 * a leaf without one leaves the caller's in place) to the return address
 * into the code cache: its caller, whose sp is above it.
 */
static int leaf_call(struct vw *v, uint64_t *pc, uint64_t *sp, uint64_t *fp)
{
	uint64_t f = *fp, below = *sp;

	for (int i = 0; i < 4; i++) {
		const uint64_t *p = (const uint64_t *)f;

		if (!on_stack(v, f) || f < below)
			return -1;
		if (codemap_in_range(p[1])) {
			*pc = p[1];
			*fp = p[0];
			*sp = f + 16;
			return 1;
		}
		below = f + 16;
		f = p[0];
	}
	return -1;
}

/*
 * The context of a signal whose handler is running on the thread: the
 * kernel pushed its frame (the restorer's address, then the ucontext) on
 * the interrupted stack, above the handler's frames. Searched up from sp
 * for the restorer (glibc's, restorer) over a bounded stretch, and
 * taken only when its saved stack pointer lies above it and its saved
 * floating-point state inside it, as the kernel lays it out.
 */
#define VW_SIGFRAME_SEARCH 4096 /* words */
static const ucontext_t *signal_frame(const struct vw *v, const ucontext_t *uc)
{
	uint64_t a = uc->uc_mcontext.gregs[REG_RSP], end;

	if (!restorer || !on_stack(v, a))
		return NULL;
	end = a + 8 * VW_SIGFRAME_SEARCH;
	if (end > v->hi - sizeof(ucontext_t))
		end = v->hi - sizeof(ucontext_t);
	for (; a < end; a += 8) {
		const ucontext_t *in = (const ucontext_t *)(a + 8);
		uint64_t isp, fpregs;

		if (*(const uint64_t *)a != restorer)
			continue;
		isp = in->uc_mcontext.gregs[REG_RSP];
		fpregs = (uintptr_t)in->uc_mcontext.fpregs;
		if (on_stack(v, isp) && isp > a + sizeof(*in) && fpregs > a &&
		    fpregs < isp)
			return in;
	}
	return NULL;
}

/*
 * A thread in a stub of the JVM's (no Java method): its caller, where the
 * stub has not built a frame (its first instruction, a frameless dispatch
 * stub) or where the frame pointer it set holds the caller's return
 * (push rbp; mov rbp, rsp at its start).
 */
static int top_stub(struct vw *v, const struct pja_blob *b, uint64_t *pc,
		    uint64_t *sp, uint64_t *fp)
{
	const unsigned char *c = (const unsigned char *)b->code;
	const uint64_t *s = (const uint64_t *)*sp;
	int framed =
	    c[0] == 0x55 && c[1] == 0x48 &&
	    ((c[2] == 0x89 && c[3] == 0xe5) || (c[2] == 0x8b && c[3] == 0xec));

	if (*pc == b->code || (b->name && (!strncmp(b->name, "vtable", 6) ||
					   !strncmp(b->name, "itable", 6)))) {
		*pc = s[0];
		*sp += 8;
		return 1;
	}
	if (!framed)
		return -1;
	if (*pc == b->code + 1) { /* after push rbp */
		*fp = s[0];
		*pc = s[1];
		*sp += 16;
		return 1;
	}
	if (!on_stack(v, *fp) || *fp < *sp)
		return -1;
	s = (const uint64_t *)*fp;
	*pc = s[1];
	*sp = *fp + 16;
	*fp = s[0];
	return 1;
}

/*
 * A compiled method's prologue (before its frame is complete), as C1 and C2
 * build it from the verified entry: stack bang, push rbp, sub rsp; or the
 * inline cache check before the entry. How much of the frame is there:
 * 0 nothing (the return address on top), 1 the saved rbp, 2 all of it;
 * -1 when the code does not read as one.
 */
static int prologue(const struct pja_blob *b, uint64_t pc)
{
	const unsigned char *ip = (const unsigned char *)pc;
	const unsigned char *entry = (const unsigned char *)b->entry;

	if (!entry)
		return -1;
	if (ip <= entry || *ip == 0x55) /* before push rbp */
		return 0;
	if (ip <= entry + 15 && ip[-1] == 0x55)
		return 1;
	if (ip > entry + 31)
		return -1;
	for (const unsigned char *p = ip - 4; p >= entry; p--)
		if (p[0] == 0x48 && (p[1] & 0xfd) == 0x81 && p[2] == 0xec)
			return 2; /* sub rsp, imm */
	return -1;
}

/* The top frame from the registers of a thread in Java code: 1 with the
 * caller in *pc, *sp, *fp and the frame put; -1 to give up. */
static int top_frame(struct vw *v, const ucontext_t *uc, uint64_t *pc,
		     uint64_t *sp, uint64_t *fp, int nested)
{
	const uint64_t *s;
	struct pja_blob b;
	int built;

	*pc = uc->uc_mcontext.gregs[REG_RIP];
	*sp = uc->uc_mcontext.gregs[REG_RSP];
	*fp = uc->uc_mcontext.gregs[REG_RBP];
	if (!on_stack(v, *sp))
		return -1;
	s = (const uint64_t *)*sp;
	if (codemap_in_interpreter(*pc)) {
		if (put_interpreted(v, *sp, *fp) < 0)
			return -1;
		s = (const uint64_t *)*fp;
		*pc = s[1];
		*sp = s[-1];
		*fp = s[0];
		return 1;
	}
	if (!codemap_in_range(*pc)) {
		const ucontext_t *inner;

		if (leaf_call(v, pc, sp, fp) > 0)
			return 1;
		/* another handler (a profiler's) interrupted the thread's
		 * Java code, and we it: walk from its signal's context */
		inner = nested ? NULL : signal_frame(v, uc);
		return inner ? top_frame(v, inner, pc, sp, fp, 1) : -1;
	}
	if (vmstructs_blob(*pc, &b))
		return -1;
	if (!b.nmethod)
		return top_stub(v, &b, pc, sp, fp);
	if (!b.stub || !b.words || *pc < b.code)
		return -1;
	if (*pc >= b.stub) {
		/* a call stub of its own, called from its code (static calls
		 * to the interpreter); not a handler (deoptimization,
		 * exceptions), which runs in the method's frame */
		if (s[0] < b.code || s[0] >= b.stub)
			return -1;
		*pc = s[0];
		*sp += 8;
		return 1;
	}
	built = b.complete && *pc >= b.complete ? 2 : prologue(&b, *pc);
	if (built < 0 || put_code(v, b.method, *pc) < 0)
		return -1;
	if (built == 0) {
		*pc = s[0];
		*sp += 8;
	} else if (built == 1) {
		*fp = s[0];
		*pc = s[1];
		*sp += 16;
	} else if (popped((const unsigned char *)*pc)) {
		*pc = s[0];
		*sp += 8;
	} else if (*(const unsigned char *)*pc == 0x5d) { /* pop rbp */
		*fp = s[0];
		*pc = s[1];
		*sp += 16;
	} else {
		/* C2's intrinsics may push a word or two for a while (the
		 * string compare keeps a count there): the return address
		 * is then above */
		s += b.words;
		for (int push = 0; !codemap_in_range(s[-1]); push++, s++)
			if (push == 2)
				return -1;
		*pc = s[-1];
		*fp = s[-2];
		*sp = (uint64_t)s;
	}
	return 1;
}
#else
static int top_frame(struct vw *v, const void *uc, uint64_t *pc, uint64_t *sp,
		     uint64_t *fp)
{
	return -1;
}
#endif

/* The last Java frame of an anchor (a thread's, or a call wrapper's): 1 and
 * it in *pc, *sp, *fp; 0 when it has none. */
static int anchored(const char *anchor, uint64_t *pc, uint64_t *sp,
		    uint64_t *fp)
{
	*sp = *(const uint64_t *)(anchor + pja_vm.anchor_sp);
	if (!*sp)
		return 0;
	*pc = *(const uint64_t *)(anchor + pja_vm.anchor_pc);
	*fp = *(const uint64_t *)(anchor + pja_vm.anchor_fp);
	if (!*pc && !(*sp & 7)) /* set when the JVM makes it walkable */
		*pc = ((const uint64_t *)*sp)[-1];
	return 1;
}

int vmwalk(JNIEnv *env, void *uc, struct asgct_frame *f, unsigned int cap,
	   unsigned int depth, int *truncated)
{
	const char *t = (const char *)env - pja_vm.env_offset;
	struct vw v = { .f = f, .cap = cap, .depth = depth };
	uint64_t pc, sp, fp, prev;
	unsigned int steps;
	int state, r;

	if (pja_vm.env_offset < 0 || pja_vm.anchor_fp < 0 ||
	    pja_vmw.state < 0 || pja_vmw.stack_base < 0 ||
	    pja_vmw.stack_size < 0 || pja_vmw.jcw_anchor < 0 ||
	    pja_vmw.wrapper_slot > 0 || !pja_vmw.call_stub_ret)
		return -1;
	v.hi = *(const uint64_t *)(t + pja_vmw.stack_base);
	v.lo = v.hi - *(const uint64_t *)(t + pja_vmw.stack_size);
	state = *(const int *)(t + pja_vmw.state);
	if (state == pja_vmw.in_java) {
		if (top_frame(&v, uc, &pc, &sp, &fp, 0) < 0)
			return -1;
	} else if (state == pja_vmw.in_native || state == pja_vmw.in_vm ||
		   state == pja_vmw.blocked) {
		if (!anchored(t + pja_vm.anchor, &pc, &sp, &fp))
			return -1; /* no Java frame: AsyncGetCallTrace says so */
	} else {
		return -1; /* between states */
	}
	prev = sp - 8;
	for (steps = 0; steps < 2 * depth + 16 && !v.full; steps++) {
		const uint64_t *s;
		int words;

		if (!on_stack(&v, sp) || sp <= prev)
			return -1;
		prev = sp;
		if (pc == pja_vmw.call_stub_ret) { /* an entry frame */
			const char *jcw;

			if (!on_stack(&v, fp))
				return -1;
			jcw = *(const char *const *)((const uint64_t *)fp +
						     pja_vmw.wrapper_slot);
			if (!jcw)
				return -1;
			if (!anchored(jcw + pja_vmw.jcw_anchor, &pc, &sp, &fp))
				break; /* the thread's first Java call */
			continue;
		}
		if (codemap_in_interpreter(pc)) {
			r = put_interpreted(&v, sp, fp);
			if (r < 0)
				return -1;
			s = (const uint64_t *)fp;
			pc = s[1];
			sp = s[-1];
			fp = s[0];
			continue;
		}
		if (!codemap_in_range(pc) || (words = step_over(&v, pc)) < 0)
			return -1;
		s = (const uint64_t *)sp + words;
		pc = s[-1];
		fp = s[-2];
		sp = (uint64_t)s;
	}
	if (!v.full && pc != pja_vmw.call_stub_ret)
		return -1; /* out of steps */
	*truncated = v.full;
	return (int)v.n;
}

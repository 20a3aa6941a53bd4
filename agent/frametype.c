// SPDX-License-Identifier: GPL-2.0
/*
 * The physical frames of a Java stack, read from the stack and the JVM's
 * structures: which frames of a walk ran interpreted and which compiled, and
 * a walk of its own where AsyncGetCallTrace cannot walk at all.
 *
 * An interpreter frame (pc in the interpreter's code) holds its Method* at
 * fp[-3], its bcp at fp[-8], its caller's sp at fp[-1] and its return
 * address at fp[1]; a compiled frame or a stub has the size its code blob
 * gives (gHotSpotVMStructs), an nmethod its Method*. The walk stops at the
 * first frame it cannot read (a call stub, a native frame, a frameless
 * blob).
 *
 * Typing (frametype_mark): AsyncGetCallTrace gives methods and bcis, not
 * frames. Each physical Java frame is matched to the walk's frames by
 * Method* (a jmethodID points at its Method*): an interpreter frame to
 * exactly the next one, an nmethod to the next one of its method after at
 * most FT_MAX_INLINE frames it inlined; frames below a mismatch keep the code
 * map's typing. So a method compiled while an old activation of it still
 * runs in the interpreter is interpreted in that frame.
 *
 * Walking (frametype_walk): a thread in the VM, called from the interpreter,
 * has a last Java frame that AsyncGetCallTrace will not walk until the JVM
 * marks it walkable itself (the agent never writes the JVM's memory). Its
 * frames are read here instead: an interpreter frame exactly (method, bci),
 * a compiled frame as its own method (bci 0, without what it inlined).
 * The same walk reads a copy of a stack instead of the live one
 * (frametype_walk_view, for copywalk.c): its stack words from the copy, the
 * JVM's structures still live.
 *
 * Runs in the signal handler inside the walk's fault protection: only reads,
 * no locks, no allocation.
 */
#include <string.h>

#include "pja.h"
#include "codemap.h"
#include "frametype.h"
#include "vmstructs.h"

#define FT_MAX_INLINE 16
#define FT_MAX_FRAME (1u << 20) /* bytes between a frame's sp and fp */
#define FT_BCP (-8) /* an interpreter frame's bcp, JDK 11+ */

struct pframe {
	uint64_t pc, sp, fp;
	const void *method; /* the frame's Method*, NULL for a stub */
	int kind; /* PJA_SEEN_INTERPRETED or _COMPILED */
	uint64_t bcp; /* an interpreter frame's */
	/* where its stack words are read: NULL, the thread's own stack */
	struct pja_stackview *view;
};

/* The stack word at addr: from the view (0 when outside it, which the view
 * remembers), else from memory. */
static int word(struct pframe *p, uint64_t addr, uint64_t *w)
{
	struct pja_stackview *v = p->view;

	if (!v) {
		*w = *(const uint64_t *)addr;
		return 1;
	}
	if (addr < v->base || addr - v->base > v->len - 8 || v->len < 8) {
		v->beyond = 1;
		if (!v->live)
			return 0;
		*w = *(const volatile uint64_t *)addr;
		return 1;
	}
	memcpy(w, v->bytes + (addr - v->base), 8);
	return 1;
}

/* The frame at p->pc/sp/fp: 1 and p->method, kind, bcp set (the next call
 * steps to its caller); 0 when it cannot be read. */
static int pframe_read(struct pframe *p)
{
	uint64_t m;

	if (!p->pc || !p->sp || p->sp & 7)
		return 0;
	if (codemap_in_interpreter(p->pc)) {
		if (p->fp <= p->sp || p->fp - p->sp > FT_MAX_FRAME ||
		    p->fp & 7 || !word(p, p->fp - 3 * 8, &m) ||
		    !word(p, p->fp + FT_BCP * 8, &p->bcp))
			return 0;
		p->method = (const void *)m;
		p->kind = PJA_SEEN_INTERPRETED;
		return 1;
	}
	if (!codemap_in_range(p->pc))
		return 0;
	p->kind = PJA_SEEN_COMPILED;
	p->bcp = 0;
	return vmstructs_code_frame(p->pc, &p->method) > 0;
}

/* Steps from the frame pframe_read read to its caller; 0 when its words
 * cannot be read. */
static int pframe_next(struct pframe *p)
{
	uint64_t s, pc, sp, fp;
	const void *m;

	if (p->kind == PJA_SEEN_INTERPRETED && codemap_in_interpreter(p->pc)) {
		s = p->fp;
		sp = 0;
		if (!word(p, s + 8, &pc) || !word(p, s - 8, &sp) ||
		    !word(p, s, &fp))
			return 0;
	} else {
		s = p->sp + 8 * (uint64_t)vmstructs_code_frame(p->pc, &m);
		sp = s;
		if (!word(p, s - 8, &pc) || !word(p, s - 16, &fp))
			return 0;
	}
	p->pc = pc;
	p->sp = sp;
	p->fp = fp;
	return 1;
}

static const void *method_of(const struct asgct_frame *f)
{
	/* a jmethodID is a pointer to its Method* slot */
	return f->method ? *(const void *const *)f->method : NULL;
}

/* Matches frame kind k with method m at or after *i; 0 when it does not. */
static int match(struct asgct_frame *f, int n, int *i, const void *m, int k)
{
	int j, last = k == PJA_SEEN_INTERPRETED ? *i : *i + FT_MAX_INLINE;

	if (!m)
		return 0;
	for (j = *i; j < n && j <= last; j++)
		if (method_of(&f[j]) == m)
			break;
	if (j >= n || j > last)
		return 0;
	if (f[j].lineno >= 0 && f[j].lineno < PJA_SEEN_BCI_MAX)
		f[j].lineno |= k << PJA_SEEN_SHIFT;
	*i = j + 1;
	return 1;
}

void frametype_mark(struct asgct_frame *f, int n, uint64_t pc, uint64_t sp,
		    uint64_t fp)
{
	struct pframe p = { .pc = pc, .sp = sp, .fp = fp };
	int i = 0, steps;

	for (steps = 0; i < n && steps < 2 * n + 8; steps++) {
		if (!pframe_read(&p))
			return;
		if (p.method && !match(f, n, &i, p.method, p.kind))
			return;
		if (!pframe_next(&p))
			return;
	}
}

jmethodID frametype_method_id(const void *m)
{
	const char *cm, *cp, *ik;
	jmethodID const *ids;
	jmethodID id;
	unsigned int idnum;

	if (!m || pja_vmm.const_method < 0 || pja_vmm.constants < 0 ||
	    pja_vmm.idnum < 0 || pja_vmm.holder < 0 || pja_vmm.ids < 0)
		return NULL;
	cm = *(const char *const *)((const char *)m + pja_vmm.const_method);
	if (!cm)
		return NULL;
	cp = *(const char *const *)(cm + pja_vmm.constants);
	ik = cp ? *(const char *const *)(cp + pja_vmm.holder) : NULL;
	ids = ik ? *(jmethodID const *const *)(ik + pja_vmm.ids) : NULL;
	if (!ids)
		return NULL;
	idnum = *(const uint16_t *)(cm + pja_vmm.idnum);
	/* ids[0] is the array's length */
	if ((uintptr_t)ids[0] <= idnum)
		return NULL;
	id = ids[idnum + 1];
	return id && *(const void *const *)id == m ? id : NULL;
}

jint frametype_bci(const void *m, uint64_t bcp)
{
	const char *cm;
	uint64_t code;
	unsigned int size;

	if (pja_vmm.size <= 0 || pja_vmm.code_size < 0)
		return 0;
	cm = *(const char *const *)((const char *)m + pja_vmm.const_method);
	code = (uintptr_t)cm + (unsigned int)pja_vmm.size;
	size = *(const uint16_t *)(cm + pja_vmm.code_size);
	return bcp >= code && bcp < code + size ? (jint)(bcp - code) : 0;
}

int frametype_walk_view(struct pja_stackview *v, struct asgct_frame *f,
			uint64_t *pcs, int depth, uint64_t pc, uint64_t sp,
			uint64_t fp)
{
	struct pframe p = { .pc = pc, .sp = sp, .fp = fp, .view = v };
	int n = 0, steps;

	for (steps = 0; n < depth && steps < 2 * depth + 8; steps++) {
		jmethodID id;

		if (!pframe_read(&p))
			break;
		if (p.method) {
			id = frametype_method_id(p.method);
			if (!id)
				break;
			f[n].method = id;
			f[n].lineno = p.kind == PJA_SEEN_INTERPRETED
					  ? frametype_bci(p.method, p.bcp)
					  : 0;
			f[n].lineno |= p.kind << PJA_SEEN_SHIFT;
			if (pcs)
				pcs[n] = p.pc;
			n++;
		}
		if (!pframe_next(&p))
			break;
	}
	return n;
}

int frametype_walk(struct asgct_frame *f, int depth, uint64_t pc, uint64_t sp,
		   uint64_t fp)
{
	return frametype_walk_view(NULL, f, NULL, depth, pc, sp, fp);
}

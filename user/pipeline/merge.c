// SPDX-License-Identifier: GPL-2.0
/* Merging kernel, native and Java frames; see pipeline/merge.h. */
#include <string.h>

#include "perfjava/profile.h"
#include "pipeline/merge.h"
#include "pipeline/self.h"
#include "profile/io.h"
#include "sym/symbolize.h"

const char *merge_marker_name(int reason)
{
	switch (reason) {
	case AGENT_WALK_NOT_WALKABLE:
		return "[java: not walkable]";
	case AGENT_WALK_TIMEOUT:
		return "[java: thread did not answer]";
	case AGENT_WALK_FAULT:
		return "[java: walk faulted]";
	case AGENT_WALK_GONE:
		return "[java: thread exited]";
	case AGENT_WALK_LOST:
		return "[java: agent gone]";
	case MERGE_MOVED_ON:
		return "[java: stack moved on]";
	default:
		return "[java frames unavailable]";
	}
}

struct out {
	uint32_t *ids;
	unsigned int n, max;
};

static void put(struct out *o, uint32_t id)
{
	if (o->n < o->max)
		o->ids[o->n++] = id;
}

static uint32_t native(const struct merge_sink *k, uint64_t ip, bool leaf,
		       bool *known)
{
	bool dummy;

	return k->native(k->ctx, ip, leaf, known ? known : &dummy);
}

/* Whether every frame of uips[from..nu) names a real function. */
static bool all_named(const struct merge_sink *k, const struct merge_in *in,
		      unsigned int from)
{
	for (unsigned int i = from; i < in->nu; i++) {
		bool known;

		if (codemap_find(in->code, in->uips[i]))
			return false;
		native(k, in->uips[i], false, &known);
		if (!known)
			return false;
	}
	return from < in->nu;
}

/*
 * Whether uips[i] lies in a JVM's anonymous memory: JIT code the code map
 * does not have yet (compiled since it was read), or junk a frame-pointer
 * chain read; either way no native frame.
 */
static bool anon(const struct merge_sink *k, const struct merge_in *in,
		 unsigned int i)
{
	return in->code && k->anon && k->anon(k->ctx, in->uips[i]);
}

/*
 * Whether the native frames uips[0..first_vm) belong under the walk's Java
 * frames: see merge.h.
 */
/* Whether a native frame above first_vm is a JNI entry point. */
static bool jni_in_natives(const struct merge_sink *k,
			   const struct merge_in *in, unsigned int first_vm)
{
	for (unsigned int i = 0; k->jni_entry && i < first_vm; i++)
		if (k->jni_entry(k->ctx, in->uips[i], i == 0))
			return true;
	return false;
}

static bool natives_belong(const struct merge_sink *k,
			   const struct merge_in *in, unsigned int first_vm)
{
	const struct codemap_entry *e;

	if (!first_vm || in->held)
		return true;
	e = first_vm < in->nu ? codemap_find(in->code, in->uips[first_vm])
			      : NULL;
	/* the chain never reaches Java code the map has (it ends, or goes
	 * into anonymous memory: code compiled since, or junk) */
	if (!e)
		return in->jf[0].type == PJ_FRAME_JAVA_NATIVE ||
		       (in->at_sample && !jni_in_natives(k, in, first_vm));
	if (e->type == PJ_FRAME_VM)
		return true; /* a stub or the interpreter called them */
	/* compiled code (a native method's wrapper is compiled code named
	 * after it): the walk's innermost compiled frame, or one of the
	 * frames inlined into it */
	for (unsigned int i = 0; i < in->nj; i++) {
		/* a JNI entry under a method that is not native: the walk
		 * came after the native method returned */
		if (e->name && in->jf[i].name &&
		    java_same_method(e->name, in->jf[i].name))
			return in->jf[0].type == PJ_FRAME_JAVA_NATIVE ||
			       !jni_in_natives(k, in, first_vm);
		/* the native method's own wrapper may be missing from the
		 * chain (sampled before the JNI function pushed its frame) */
		if (in->jf[i].type != PJ_FRAME_INLINED &&
		    !(i == 0 && in->jf[0].type == PJ_FRAME_JAVA_NATIVE))
			break;
	}
	return false;
}

/*
 * A walked compiled frame's address: the start of the code of its method
 * that the kernel's chain holds (both innermost first), as a perf map
 * names JIT code. The frame keeps its first one (profile.h, ADDRS).
 */
static uint32_t walked(const struct merge_sink *k, const struct merge_in *in,
		       unsigned int i, unsigned int *at, unsigned int last_vm)
{
	const struct java_frame *jf = &in->jf[i];
	uint32_t id = k->frame(k->ctx, jf->type, jf->name, jf->file, jf->line);

	if (!k->frame_addr ||
	    (jf->type != PJ_FRAME_JIT && jf->type != PJ_FRAME_C1 &&
	     jf->type != PJ_FRAME_JAVA_NATIVE)) /* its wrapper's code */
		return id;
	for (unsigned int j = *at; j <= last_vm && j < in->nu; j++) {
		const struct codemap_entry *e =
		    codemap_find(in->code, in->uips[j]);

		if (e && e->method && java_same_method(e->name, jf->name)) {
			k->frame_addr(k->ctx, id, e->start);
			*at = j + 1;
			break;
		}
	}
	return id;
}

/*
 * The JVM code the chain reached first, when it is no Java method's own: a
 * stub, an adapter, the interpreter (unless the walk's innermost frame is
 * the interpreted or native frame whose code it runs). NULL otherwise.
 */
static const struct codemap_entry *vm_code_above(const struct merge_in *in,
						 unsigned int first_vm)
{
	const struct codemap_entry *e;
	int top = in->jf[0].type;

	if (first_vm >= in->nu)
		return NULL;
	e = codemap_find(in->code, in->uips[first_vm]);
	if (!e || e->type != PJ_FRAME_VM || !e->name)
		return NULL;
	if (!strcmp(e->name, "Interpreter") &&
	    (top == PJ_FRAME_INTERPRETED || top == PJ_FRAME_JAVA_NATIVE))
		return NULL;
	return e;
}

/*
 * The compiled method the sample was in, when a walk taken at the sample
 * does not show it: its innermost compiled frame is another method (the
 * sample was in the method's entry before its frame was made, where
 * AsyncGetCallTrace reports its caller). NULL otherwise.
 */
static const struct codemap_entry *missed_leaf(const struct merge_in *in,
					       unsigned int first_vm)
{
	const struct codemap_entry *e;
	unsigned int i = 0;

	if (!in->at_sample || first_vm || !in->nu)
		return NULL;
	e = codemap_find(in->code, in->uips[0]);
	if (!e || !e->method || !e->name || e->type == PJ_FRAME_VM)
		return NULL;
	while (i < in->nj && in->jf[i].type == PJ_FRAME_INLINED)
		i++;
	if (i < in->nj && in->jf[i].name &&
	    java_same_method(e->name, in->jf[i].name))
		return NULL;
	return e;
}

/*
 * The thread's native base for this walked stack: the frames below the last
 * JVM code, when they are complete (all named, down to a thread entry) and
 * longer than the one kept, replace it.
 */
static void update_base(const struct merge_sink *k, const struct merge_in *in,
			unsigned int first_vm, unsigned int last_vm,
			bool keep_below)
{
	struct merge_base *b = in->base;
	unsigned int i, n;

	if (first_vm >= in->nu || !keep_below || last_vm + 1 >= in->nu)
		return;
	n = in->nu - last_vm - 1;
	if (n <= b->n || n > MERGE_MAX_BASE ||
	    (k->thread_entry && !k->thread_entry(k->ctx, in->uips[in->nu - 1])))
		return;
	for (i = 0; i < n; i++)
		b->ids[i] = native(k, in->uips[last_vm + 1 + i], false, NULL);
	b->n = n;
}

/* Whether the stack is the agent's own work. */
static bool in_self(const struct merge_in *in)
{
	return self_stack(in->self_lo, in->self_hi, in->pass_lo, in->pass_hi,
			  in->uips, in->nu);
}

unsigned int merge_stack(const struct merge_sink *k, const struct merge_in *in,
			 uint32_t *ids, unsigned int max, int *marker)
{
	struct out o = { ids, 0, max };
	unsigned int i, first_vm = in->nu, last_vm = 0, at;
	int reason = MERGE_NO_WALK;
	bool keep_below;

	for (i = 0; i < in->nk; i++)
		put(&o, in->kframes[i]);
	for (i = 0; i < in->nu; i++) {
		if (codemap_find(in->code, in->uips[i]) || anon(k, in, i)) {
			if (first_vm == in->nu)
				first_vm = i;
			last_vm = i;
		}
	}
	/*
	 * Below the last JVM code, the frame-pointer chain (through JIT code)
	 * is unreliable: keep what follows only when all of it names real
	 * functions (thread entry).
	 */
	keep_below = first_vm == in->nu || all_named(k, in, last_vm + 1);

	if (in->walk_status == AGENT_WALK_OK && in->nj) {
		if (natives_belong(k, in, first_vm)) {
			/* the code the CPU was in, when the walk lacks it */
			const struct codemap_entry *top =
			    vm_code_above(in, first_vm);

			if (!top)
				top = missed_leaf(in, first_vm);

			for (i = 0; i < first_vm; i++)
				put(&o, native(k, in->uips[i], i == 0, NULL));
			if (top) {
				uint32_t id = k->frame(k->ctx, top->type,
						       top->name, NULL, 0);

				if (k->frame_addr)
					k->frame_addr(k->ctx, id, top->start);
				put(&o, id);
			}
			for (i = 0, at = first_vm; i < in->nj; i++)
				put(&o, walked(k, in, i, &at, last_vm));
			if (in->base) {
				update_base(k, in, first_vm, last_vm,
					    keep_below);
				for (i = 0; i < in->base->n; i++)
					put(&o, in->base->ids[i]);
			}
			goto done;
		}
		reason = MERGE_MOVED_ON;
	} else if (in->walk_status != MERGE_NO_WALK &&
		   in->walk_status != AGENT_WALK_NOT_JAVA) {
		reason = in->walk_status;
	}
	/* Everything the kernel gave, JVM code named from the code map. */
	for (i = 0; i < in->nu; i++) {
		const struct codemap_entry *e;

		if (i > last_vm && first_vm < in->nu && !keep_below)
			break;
		e = codemap_find(in->code, in->uips[i]);
		if (e) {
			uint32_t id =
			    k->frame(k->ctx, e->type, e->name, NULL, 0);

			if (k->frame_addr)
				k->frame_addr(k->ctx, id, e->start);
			put(&o, id);
		} else
			put(&o, native(k, in->uips[i], i == 0, NULL));
	}
	if (reason != MERGE_NO_WALK)
		put(&o, k->frame(k->ctx, PJ_FRAME_MARKER,
				 merge_marker_name(reason), NULL, 0));
done:
	if (in->root)
		put(&o, k->frame(k->ctx, PJ_FRAME_MARKER, in->root, NULL, 0));
	else if (in_self(in))
		put(&o, k->frame(k->ctx, PJ_FRAME_MARKER, MERGE_SELF_MARKER,
				 NULL, 0));
	if (marker)
		*marker = reason;
	return o.n;
}

static uint32_t sym_native(void *ctx, uint64_t ip, bool leaf, bool *known)
{
	return symbolize_user(ctx, ip, leaf, known);
}

static uint32_t sym_frame(void *ctx, int type, const char *name,
			  const char *file, uint32_t line)
{
	struct symbolizer *s = ctx;

	return pj_writer_frame(s->w, type, name ? name : "", "", file, line);
}

static bool sym_jni_entry(void *ctx, uint64_t ip, bool leaf)
{
	return sym_user_facts(ctx, ip, leaf).facts & SYM_JNI_ENTRY;
}

static void sym_frame_addr(void *ctx, uint32_t id, uint64_t addr)
{
	pj_writer_frame_addr(((struct symbolizer *)ctx)->w, id, addr);
}

static bool sym_anon(void *ctx, uint64_t ip)
{
	return sym_user_facts(ctx, ip, true).facts & SYM_ANON;
}

static bool sym_thread_entry(void *ctx, uint64_t ip)
{
	return sym_user_facts(ctx, ip, false).facts & SYM_THREAD_ENTRY;
}

void merge_sink_symbolizer(struct merge_sink *k, struct symbolizer *s)
{
	k->ctx = s;
	k->native = sym_native;
	k->frame = sym_frame;
	k->jni_entry = sym_jni_entry;
	k->frame_addr = sym_frame_addr;
	k->thread_entry = sym_thread_entry;
	k->anon = sym_anon;
}

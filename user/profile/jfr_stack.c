// SPDX-License-Identifier: GPL-2.0
/*
 * The stacks of a JFR chunk's samples (profile/jfr.h): a stack trace key
 * of the chunk's pools turned into the profile's frames and stack when a
 * sample first refers to it, and once per pair of stack and class for the
 * samples that name a class (allocations, locks: the class as the leaf,
 * named as Java names it, "byte[]"). Every stack made is counted against
 * the chunk's budget: a file cannot make a few bytes of events cost
 * stacks of thousands of frames each.
 *
 * A Java frame is named "pkg.Cls.method(descriptor)" as perfjava names
 * them. Frames typed Native with async-profiler's placeholder descriptors,
 * or without a class, C++ and Kernel frames are native code named by the
 * method alone, their class (async-profiler's library) as the module. A
 * key that no pool defines gives an "[unknown]" frame or drops the sample.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "profile/jfr.h"

#define MAX_FRAMES 65536 /* of one stack trace */

/* What a method key resolves to. */
struct method {
	uint32_t name, module;
	uint8_t type; /* not Java: the frame type it forces */
	bool java;
};

struct jfr_stacks {
	const struct jfr_meta *m;
	const struct jfr_cp *cp;
	struct jfr_cur *cur; /* the reader's: messages, the budget */
	int frame_cls; /* the class of a stack trace's frames, -1 none */
	int want[3]; /* its fields: method, lineNumber, type */
	struct u64map stack_ids; /* (key + 1) -> stack id + 1 (no leaf) */
	uint32_t *direct; /* the same for small keys: stack id + 1 by key */
	uint64_t ndirect;
	struct u64map leaf_ids; /* class key + 1 -> its frame + 1 */
	struct u64map leaf_stacks; /* (stack + 1) << 32 | frame -> id + 1 */
	struct u64map method_ids; /* key + 1 -> index + 1 into methods */
	struct method *methods;
	uint32_t nmethods;
	size_t cap_methods;
	uint32_t *frames; /* scratch: one stack's frames, and a leaf */
	size_t cap_frames;
	uint8_t ftype[256]; /* frame type + 1 by FrameType key */
	char name[JFR_NAME_MAX];
};

/* The class of the frames of jdk.types.StackTrace's "frames", or -1. */
static int frame_class(const struct jfr_meta *m)
{
	int k = jfr_meta_find(m, "jdk.types.StackTrace"), f;
	const struct jfr_field *ff;

	if (k < 0 || (f = jfr_field_of(m, (uint32_t)k, "frames")) < 0)
		return -1;
	ff = &m->fields[m->classes[k].first + (uint32_t)f];
	if (!ff->array || ff->cpool || m->classes[ff->cls].kind != JK_COMPOSITE)
		return -1;
	return (int)ff->cls;
}

struct jfr_stacks *jfr_stacks_new(const struct jfr_meta *m,
				  const struct jfr_cp *cp, struct jfr_cur *c)
{
	struct jfr_stacks *st = calloc(1, sizeof(*st));
	static const char *const names[3] = { "method", "lineNumber", "type" };

	if (!st)
		return NULL;
	st->m = m;
	st->cp = cp;
	st->cur = c;
	st->frame_cls = frame_class(m);
	for (int i = 0; i < 3; i++)
		st->want[i] =
		    st->frame_cls < 0
			? -1
			: jfr_field_of(m, (uint32_t)st->frame_cls, names[i]);
	return st;
}

void jfr_stacks_free(struct jfr_stacks *st)
{
	if (!st)
		return;
	u64map_free(&st->stack_ids);
	free(st->direct);
	u64map_free(&st->leaf_ids);
	u64map_free(&st->leaf_stacks);
	u64map_free(&st->method_ids);
	free(st->methods);
	free(st->frames);
	free(st);
}

/* A class's name as Java writes it: "[[I" is "int[][]",
 * "[Ljava.lang.Object;" "java.lang.Object[]"; anything else as it is. */
static size_t java_class_name(const struct jfr_cp *cp, uint64_t key, char *buf,
			      size_t cap)
{
	static const char *const prim[] = {
		"Bbyte", "Cchar", "Ddouble", "Ffloat",
		"Iint",	 "Jlong", "Sshort",  "Zboolean",
	};
	size_t n = jfr_cp_class(cp, key, buf, cap), dims = 0, len;
	const char *elem;
	char tmp[JFR_NAME_MAX];

	while (dims < n && buf[dims] == '[')
		dims++;
	if (!dims || dims == n)
		return n;
	elem = buf + dims;
	len = n - dims;
	if (*elem == 'L' && len > 2 && elem[len - 1] == ';') {
		elem++;
		len -= 2;
	} else if (len == 1) {
		size_t i = 0;

		while (i < sizeof(prim) / sizeof(*prim) && *prim[i] != *elem)
			i++;
		if (i == sizeof(prim) / sizeof(*prim))
			return n;
		elem = prim[i] + 1;
		len = strlen(elem);
	} else {
		return n;
	}
	if (len + 2 * dims >= sizeof(tmp) || len + 2 * dims >= cap)
		return n;
	memcpy(tmp, elem, len);
	for (size_t i = 0; i < dims; i++)
		memcpy(tmp + len + 2 * i, "[]", 2);
	len += 2 * dims;
	memcpy(buf, tmp, len);
	buf[len] = 0;
	return len;
}

/* async-profiler's descriptors for code that is not Java. */
static bool placeholder(const char *desc)
{
	return !strcmp(desc, "()L;") || !strcmp(desc, "(Lk;)L;");
}

/* The frame type a FrameType key's description names (cached by key). */
static uint8_t described_type(struct jfr_stacks *st, uint64_t key)
{
	static const struct {
		const char *name;
		uint8_t type;
	} types[] = {
		{ "Interpreted", PJ_FRAME_INTERPRETED },
		{ "JIT compiled", PJ_FRAME_JIT },
		{ "Inlined", PJ_FRAME_INLINED },
		{ "C1 compiled", PJ_FRAME_C1 },
		{ "Kernel", PJ_FRAME_KERNEL },
		{ "C++", PJ_FRAME_NATIVE },
		{ "Native", PJ_FRAME_JAVA_NATIVE },
	};
	const struct jfr_val *v;
	uint8_t t = PJ_FRAME_JIT; /* a type this reader does not know */
	char buf[64] = "";

	if (key < sizeof(st->ftype) && st->ftype[key])
		return st->ftype[key] - 1;
	v = jfr_cp_get(st->cp, JFR_P_FTYPE, key);
	if (v)
		jfr_cp_val_text(st->cp, v, buf, sizeof(buf));
	for (size_t i = 0; i < sizeof(types) / sizeof(*types); i++)
		if (!strcmp(buf, types[i].name))
			t = types[i].type;
	if (key < sizeof(st->ftype))
		st->ftype[key] = t + 1;
	return t;
}

/* The frame type of a FrameType key, with what the method says: code
 * that is not Java is native, or kernel code. */
static uint8_t frame_type(struct jfr_stacks *st, uint64_t key,
			  const struct method *me)
{
	uint8_t t = described_type(st, key);

	if (!me->java)
		return me->type == PJ_FRAME_NATIVE && t == PJ_FRAME_KERNEL
			   ? PJ_FRAME_KERNEL
			   : me->type;
	return t;
}

/* What method key names, made once per chunk. */
static const struct method *method(struct jfr_stacks *st, struct jfr_build *b,
				   uint64_t key)
{
	const struct jfr_val *v;
	char cls[JFR_NAME_MAX], desc[JFR_NAME_MAX];
	struct method me = { 0 };
	size_t n;
	uint32_t i;

	if (key != UINT64_MAX && u64map_get(&st->method_ids, key + 1, &i))
		return &st->methods[i - 1];
	v = jfr_cp_get(st->cp, JFR_P_METHOD, key);
	if (!v) {
		me.name = jfr_intern(b, "[unknown]", 9);
		me.type = PJ_FRAME_UNKNOWN;
	} else {
		jfr_cp_class(st->cp, v[0].u, cls, sizeof(cls));
		jfr_cp_symbol(st->cp, v[2].u, desc, sizeof(desc));
		jfr_cp_symbol(st->cp, v[1].u, st->name, sizeof(st->name));
		if (!*cls || placeholder(desc)) { /* native code */
			me.type = PJ_FRAME_NATIVE;
			me.name = jfr_intern(b, st->name, strlen(st->name));
			me.module = jfr_intern(b, cls, strlen(cls));
		} else {
			n = strlen(cls);
			/* "()": perfjava's file for a method recorded without
			 * its descriptor; a name too long is cut */
			if (snprintf(cls + n, sizeof(cls) - n, ".%.*s%s", 2048,
				     st->name,
				     strcmp(desc, "()") ? desc : "") < 0)
				cls[n] = 0;
			me.name = jfr_intern(b, cls, strlen(cls));
			me.java = true;
		}
	}
	if (me.name == UINT32_MAX || me.module == UINT32_MAX ||
	    GROW(st->methods, st->cap_methods, (size_t)st->nmethods + 1) ||
	    (key != UINT64_MAX &&
	     u64map_put(&st->method_ids, key + 1, st->nmethods + 1)))
		return NULL;
	st->methods[st->nmethods] = me;
	return &st->methods[st->nmethods++];
}

static int oom(struct jfr_stacks *st)
{
	snprintf(st->cur->err, st->cur->errlen, "out of memory");
	return -1;
}

/* The frames of a stack trace entry into st->frames: their count, or -1
 * with the reason in err. The array was read once when its pool was: its
 * bytes decode again as they did then. */
static int64_t frames(struct jfr_stacks *st, struct jfr_build *b,
		      const struct jfr_val *e)
{
	struct jfr_cur c = *st->cur;
	uint64_t n;
	uint32_t got = 0;

	if (!e->set || !e->p || st->frame_cls < 0)
		return 0; /* a stack trace without its frames */
	c.p = e->p;
	c.end = e->p + e->n;
	if (jfr_get_varint(&c, &n))
		return -1;
	for (uint64_t i = 0; i < n && got < MAX_FRAMES; i++) {
		struct jfr_val v[3];
		const struct method *me;
		uint8_t type;
		uint32_t line, f;

		if (jfr_read_fields(st->m, &c, (uint32_t)st->frame_cls,
				    st->want, v, 3))
			return -1;
		me = method(st, b, v[0].u);
		if (!me)
			return oom(st);
		type = frame_type(st, v[2].u, me);
		line = v[1].u > UINT32_MAX ? 0 : (uint32_t)v[1].u;
		f = jfr_add_frame(b, type, me->name, me->module, line);
		if (f == UINT32_MAX ||
		    GROW(st->frames, st->cap_frames, (size_t)got + 1))
			return oom(st);
		st->frames[got++] = f;
	}
	return got;
}

/* The stack of key without a leaf, made once per chunk (by key). */
static int base_stack(struct jfr_stacks *st, struct jfr_build *b, uint64_t key,
		      uint32_t *id)
{
	const struct jfr_val *e;
	int64_t n;

	if (key < st->ndirect && st->direct[key]) {
		*id = st->direct[key] - 1;
		return 0;
	}
	if (key >= st->ndirect && key != UINT64_MAX &&
	    u64map_get(&st->stack_ids, key + 1, id)) {
		(*id)--;
		return 0;
	}
	e = jfr_cp_get(st->cp, JFR_P_STACK, key);
	if (!e)
		return 1;
	n = frames(st, b, e);
	if (n < 0 || jfr_spend(st->cur, ((uint64_t)n + 1) * JFR_FRAME_STEPS))
		return -1;
	*id = jfr_add_stack(b, st->frames, (uint32_t)n);
	if (*id == UINT32_MAX)
		return oom(st);
	if (!st->direct) { /* keys up to a few times the pool's size */
		uint64_t nd = 4ull * jfr_cp_count(st->cp, JFR_P_STACK) + 1024;

		st->ndirect = nd < (1u << 24) ? nd : (1u << 24);
		st->direct = calloc(st->ndirect, sizeof(*st->direct));
		if (!st->direct)
			st->ndirect = 0;
	}
	if (key < st->ndirect)
		st->direct[key] = *id + 1;
	else if (u64map_put(&st->stack_ids, key + 1, *id + 1))
		return oom(st);
	return 0;
}

/* The frame naming class key, made once per chunk. */
static uint32_t leaf_frame(struct jfr_stacks *st, struct jfr_build *b,
			   uint64_t key)
{
	uint32_t f;
	size_t n;

	if (key != UINT64_MAX && u64map_get(&st->leaf_ids, key + 1, &f))
		return f - 1;
	n = java_class_name(st->cp, key, st->name, sizeof(st->name));
	f = n ? jfr_intern(b, st->name, n) : jfr_intern(b, "[unknown]", 9);
	if (f != UINT32_MAX)
		f = jfr_add_frame(b, PJ_FRAME_CLASS, f, 0, 0);
	if (f == UINT32_MAX ||
	    (key != UINT64_MAX && u64map_put(&st->leaf_ids, key + 1, f + 1)))
		return UINT32_MAX;
	return f;
}

int jfr_stack(struct jfr_stacks *st, struct jfr_build *b, uint64_t key,
	      uint64_t leaf_class, uint32_t *id)
{
	const struct pj_profile *p = &b->d->p;
	uint32_t base, leaf, lo, n;
	uint64_t pair;
	int rc = base_stack(st, b, key, &base);

	if (rc || !leaf_class) {
		*id = base;
		return rc;
	}
	leaf = leaf_frame(st, b, leaf_class);
	if (leaf == UINT32_MAX)
		return oom(st);
	pair = (uint64_t)(base + 1) << 32 | leaf;
	if (u64map_get(&st->leaf_stacks, pair, id)) {
		(*id)--;
		return 0;
	}
	lo = p->stack_start[base];
	n = p->stack_start[base + 1] - lo;
	if (jfr_spend(st->cur, ((uint64_t)n + 2) * JFR_FRAME_STEPS))
		return -1;
	if (GROW(st->frames, st->cap_frames, (size_t)n + 1))
		return oom(st);
	st->frames[0] = leaf;
	if (n) /* an empty stack has no frames: the array may be NULL */
		memcpy(st->frames + 1, p->stack_frames + lo,
		       n * sizeof(*st->frames));
	*id = jfr_add_stack(b, st->frames, n + 1);
	if (*id == UINT32_MAX || u64map_put(&st->leaf_stacks, pair, *id + 1))
		return oom(st);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The constant pools of a JFR chunk (profile/jfr.h): its checkpoint events
 * read into tables by key (strings, symbols, classes, methods, threads,
 * stack traces, frame types, thread states), fields found by name in the
 * chunk's metadata, and stack traces turned into the profile's frames and
 * stacks when a sample first refers to them.
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

enum {
	P_STRING,
	P_SYMBOL,
	P_CLASS,
	P_METHOD,
	P_THREAD,
	P_STACK,
	P_FTYPE,
	P_STATE,
	P_N
};

static const char *const pool_class[P_N] = {
	"java.lang.String",    "jdk.types.Symbol",	"java.lang.Class",
	"jdk.types.Method",    "java.lang.Thread",	"jdk.types.StackTrace",
	"jdk.types.FrameType", "jdk.types.ThreadState",
};

/* The fields each pool keeps, by name (at most 4). */
static const char *const pool_fields[P_N][4] = {
	[P_SYMBOL] = { "string" },
	[P_CLASS] = { "name" },
	[P_METHOD] = { "type", "name", "descriptor" },
	[P_THREAD] = { "osName", "osThreadId", "javaName", "javaThreadId" },
	[P_STACK] = { "frames" },
	[P_FTYPE] = { "description" },
	[P_STATE] = { "name" },
};

/* One value read from a field. */
struct val {
	uint64_t u;
	struct jfr_str s;
	const uint8_t *at; /* arrays: where the value starts */
	bool set;
};

struct entry {
	struct val v[4];
	const uint8_t *end; /* of its checkpoint event (stack traces) */
};

struct pool {
	struct entry *e;
	uint32_t n;
	size_t cap;
	struct u64map by_key; /* key + 1 -> index + 1 */
};

/* What a method key resolves to. */
struct method {
	uint32_t name, module;
	uint8_t type; /* not Java: the frame type it forces */
	bool java;
};

struct jfr_cp {
	const struct jfr_meta *m;
	int cls[P_N]; /* class index of each pool, -1 absent */
	int field[P_N][4];
	struct pool pools[P_N];
	struct u64map stack_ids; /* (key + 1) -> stack id + 1 (no leaf) */
	uint32_t *direct; /* the same for small keys: stack id + 1 by key */
	uint64_t ndirect;
	struct u64map method_ids; /* key + 1 -> index + 1 into methods */
	struct method *methods;
	uint32_t nmethods;
	size_t cap_methods;
	uint32_t *frames; /* scratch: one stack's frames */
	uint8_t ftype[256]; /* frame type + 1 by FrameType key */
	char text[JFR_NAME_MAX], name[JFR_NAME_MAX];
};

struct jfr_cp *jfr_cp_new(const struct jfr_meta *m)
{
	struct jfr_cp *cp = calloc(1, sizeof(*cp));

	if (!cp)
		return NULL;
	cp->m = m;
	cp->frames = malloc((MAX_FRAMES + 1) * sizeof(*cp->frames));
	if (!cp->frames) {
		free(cp);
		return NULL;
	}
	for (int p = 0; p < P_N; p++) {
		cp->cls[p] = jfr_meta_find(m, pool_class[p]);
		for (int i = 0; i < 4; i++)
			cp->field[p][i] =
			    cp->cls[p] >= 0 && pool_fields[p][i]
				? jfr_field_of(m, (uint32_t)cp->cls[p],
					       pool_fields[p][i])
				: -1;
	}
	return cp;
}

void jfr_cp_free(struct jfr_cp *cp)
{
	if (!cp)
		return;
	for (int p = 0; p < P_N; p++) {
		free(cp->pools[p].e);
		u64map_free(&cp->pools[p].by_key);
	}
	u64map_free(&cp->stack_ids);
	free(cp->direct);
	u64map_free(&cp->method_ids);
	free(cp->methods);
	free(cp->frames);
	free(cp);
}

/* One value of class k into v: numbers and keys, strings, where an array
 * starts; anything else is skipped. */
static int read_value(const struct jfr_meta *m, struct jfr_cur *c,
		      const struct jfr_field *f, struct val *v)
{
	const struct jfr_class *cl = &m->classes[f->cls];

	v->set = true;
	v->at = c->p;
	if (f->array)
		return jfr_skip(m, c, f, 1);
	if (f->cpool || cl->kind == JK_VARINT)
		return jfr_get_varint(c, &v->u);
	if (cl->kind == JK_STRING)
		return jfr_get_string(c, &v->s);
	if (cl->kind == JK_BYTE && c->p < c->end) {
		v->u = *c->p++;
		return 0;
	}
	return jfr_skip(m, c, f, 1);
}

/* A value of class k, keeping the fields wanted (field indexes, -1 none). */
static int read_fields(const struct jfr_meta *m, struct jfr_cur *c, uint32_t k,
		       const int *want, struct val *out)
{
	const struct jfr_class *cl = &m->classes[k];

	memset(out, 0, 4 * sizeof(*out));
	if (cl->kind != JK_COMPOSITE) { /* a pool of plain strings */
		struct jfr_field f = { .cls = k };

		return read_value(m, c, &f, &out[0]);
	}
	for (uint32_t i = 0; i < cl->nfields; i++) {
		const struct jfr_field *f = &m->fields[cl->first + i];
		int j = 0;

		while (j < 4 && want[j] != (int)i)
			j++;
		if (j < 4 ? read_value(m, c, f, &out[j]) : jfr_skip(m, c, f, 1))
			return -1;
	}
	return 0;
}

static int read_pool(struct jfr_cp *cp, struct jfr_cur *c, int p, uint32_t k)
{
	static const int all[4] = { 0, -1, -1, -1 };
	struct pool *pl = p >= 0 ? &cp->pools[p] : NULL;
	const uint8_t *at = c->p;
	uint64_t n, key;
	struct entry e;

	if (jfr_get_varint(c, &n))
		return -1;
	if (n > (uint64_t)(c->end - c->p))
		return jfr_damaged(c, at,
				   "constant pool of %llu entries is "
				   "larger than its event",
				   (unsigned long long)n);
	for (uint64_t i = 0; i < n; i++) {
		const uint8_t *before = c->p;
		uint32_t idx;

		if (jfr_get_varint(c, &key))
			return -1;
		if (!pl) {
			if (jfr_skip_class(cp->m, c, k, 1))
				return -1;
			continue;
		}
		if (read_fields(cp->m, c, k,
				cp->m->classes[k].kind == JK_COMPOSITE
				    ? cp->field[p]
				    : all,
				e.v))
			return -1;
		e.end = c->end;
		if (key == UINT64_MAX || c->p == before)
			continue;
		if (u64map_get(&pl->by_key, key + 1, &idx)) {
			pl->e[idx - 1] = e; /* a later definition wins */
			continue;
		}
		if (pl->n == UINT32_MAX - 1 ||
		    GROW(pl->e, pl->cap, (size_t)pl->n + 1) ||
		    u64map_put(&pl->by_key, key + 1, pl->n + 1))
			return jfr_damaged(c, at, "out of memory");
		pl->e[pl->n++] = e;
	}
	return 0;
}

int jfr_cp_read(struct jfr_cp *cp, struct jfr_cur *c)
{
	uint64_t v, npools;
	const uint8_t *at;

	/* start, duration, delta to the previous checkpoint */
	for (int i = 0; i < 3; i++)
		if (jfr_get_varint(c, &v))
			return -1;
	if (c->p >= c->end)
		return jfr_damaged(c, c->p, "checkpoint runs past its event");
	c->p++; /* flush / type flags */
	at = c->p;
	if (jfr_get_varint(c, &npools))
		return -1;
	if (npools > (uint64_t)(c->end - c->p))
		return jfr_damaged(c, at, "%llu constant pools in one event",
				   (unsigned long long)npools);
	for (uint64_t i = 0; i < npools; i++) {
		uint32_t k;
		int p = -1;

		at = c->p;
		if (jfr_get_varint(c, &v))
			return -1;
		if (v == UINT64_MAX || !u64map_get(&cp->m->by_id, v + 1, &k))
			return jfr_damaged(c, at,
					   "constant pool of class %llu, which "
					   "is not defined",
					   (unsigned long long)v);
		for (int q = 0; q < P_N; q++)
			if (cp->cls[q] == (int)(k - 1))
				p = q;
		if (read_pool(cp, c, p, k - 1))
			return -1;
	}
	return 0;
}

static const struct entry *lookup(struct jfr_cp *cp, int p, uint64_t key)
{
	uint32_t i;

	if (key == UINT64_MAX || !u64map_get(&cp->pools[p].by_key, key + 1, &i))
		return NULL;
	return &cp->pools[p].e[i - 1];
}

/* The text of a string value in buf (a pool key looked up once). */
static const char *text(struct jfr_cp *cp, const struct jfr_str *s, char *buf,
			size_t cap)
{
	const struct entry *e;

	if (s->enc == JFR_S_POOL) {
		e = lookup(cp, P_STRING, s->key);
		if (!e || e->v[0].s.enc == JFR_S_POOL)
			return "";
		s = &e->v[0].s;
	}
	jfr_str_utf8(s, buf, cap);
	return buf;
}

const char *jfr_cp_text(struct jfr_cp *cp, const struct jfr_str *s)
{
	return text(cp, s, cp->text, sizeof(cp->text));
}

/* The text of Symbol key into buf. */
static const char *symbol(struct jfr_cp *cp, uint64_t key, char *buf,
			  size_t cap)
{
	const struct entry *e = lookup(cp, P_SYMBOL, key);

	*buf = 0;
	return e ? text(cp, &e->v[0].s, buf, cap) : buf;
}

const char *jfr_cp_state(struct jfr_cp *cp, uint64_t key)
{
	const struct entry *e = lookup(cp, P_STATE, key);

	return e ? text(cp, &e->v[0].s, cp->text, sizeof(cp->text)) : "";
}

bool jfr_cp_thread(struct jfr_cp *cp, uint64_t key, uint32_t *tid,
		   const char **name)
{
	const struct entry *e = lookup(cp, P_THREAD, key);
	const struct jfr_str *java, *os;

	if (!e)
		return false;
	*tid = (uint32_t)(e->v[1].u ? e->v[1].u : e->v[3].u ? e->v[3].u : key);
	java = &e->v[2].s;
	os = &e->v[0].s;
	*name = text(cp, java->enc > JFR_S_EMPTY ? java : os, cp->text,
		     sizeof(cp->text));
	return true;
}

/* A class's name, dotted ("java.lang.String"), into buf. */
static size_t class_name(struct jfr_cp *cp, uint64_t key, char *buf, size_t cap)
{
	const struct entry *e = lookup(cp, P_CLASS, key);
	size_t n;

	*buf = 0;
	if (!e)
		return 0;
	symbol(cp, e->v[0].u, buf, cap);
	n = strlen(buf);
	for (size_t i = 0; i < n; i++)
		if (buf[i] == '/')
			buf[i] = '.';
	return n;
}

/* async-profiler's descriptors for code that is not Java. */
static bool placeholder(const char *desc)
{
	return !strcmp(desc, "()L;") || !strcmp(desc, "(Lk;)L;");
}

/* The frame type a FrameType key's description names (cached by key). */
static uint8_t described_type(struct jfr_cp *cp, uint64_t key)
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
	const struct entry *e;
	uint8_t t = PJ_FRAME_JIT; /* a type this reader does not know */
	char buf[64] = "";

	if (key < sizeof(cp->ftype) && cp->ftype[key])
		return cp->ftype[key] - 1;
	e = lookup(cp, P_FTYPE, key);
	if (e)
		text(cp, &e->v[0].s, buf, sizeof(buf));
	for (size_t i = 0; i < sizeof(types) / sizeof(*types); i++)
		if (!strcmp(buf, types[i].name))
			t = types[i].type;
	if (key < sizeof(cp->ftype))
		cp->ftype[key] = t + 1;
	return t;
}

/* The frame type of a FrameType key, with what the method says: code
 * that is not Java is native, or kernel code. */
static uint8_t frame_type(struct jfr_cp *cp, uint64_t key,
			  const struct method *me)
{
	uint8_t t = described_type(cp, key);

	if (!me->java)
		return me->type == PJ_FRAME_NATIVE && t == PJ_FRAME_KERNEL
			   ? PJ_FRAME_KERNEL
			   : me->type;
	return t;
}

/* What method key names, made once per chunk. */
static const struct method *method(struct jfr_cp *cp, struct jfr_build *b,
				   uint64_t key)
{
	const struct entry *e;
	char cls[JFR_NAME_MAX], desc[JFR_NAME_MAX];
	struct method me = { 0 };
	size_t n;
	uint32_t i;

	if (key != UINT64_MAX && u64map_get(&cp->method_ids, key + 1, &i))
		return &cp->methods[i - 1];
	e = lookup(cp, P_METHOD, key);
	if (!e) {
		me.name = jfr_intern(b, "[unknown]", 9);
		me.type = PJ_FRAME_UNKNOWN;
	} else {
		class_name(cp, e->v[0].u, cls, sizeof(cls));
		symbol(cp, e->v[2].u, desc, sizeof(desc));
		symbol(cp, e->v[1].u, cp->name, sizeof(cp->name));
		if (!*cls || placeholder(desc)) { /* native code */
			me.type = PJ_FRAME_NATIVE;
			me.name = jfr_intern(b, cp->name, strlen(cp->name));
			me.module = jfr_intern(b, cls, strlen(cls));
		} else {
			n = strlen(cls);
			/* "()": perfjava's file for a method recorded without
			 * its descriptor */
			snprintf(cls + n, sizeof(cls) - n, ".%.*s%s", 2048,
				 cp->name, strcmp(desc, "()") ? desc : "");
			me.name = jfr_intern(b, cls, strlen(cls));
			me.java = true;
		}
	}
	if (me.name == UINT32_MAX || me.module == UINT32_MAX ||
	    GROW(cp->methods, cp->cap_methods, (size_t)cp->nmethods + 1) ||
	    (key != UINT64_MAX &&
	     u64map_put(&cp->method_ids, key + 1, cp->nmethods + 1)))
		return NULL;
	cp->methods[cp->nmethods] = me;
	return &cp->methods[cp->nmethods++];
}

/* The frames of a stack trace entry into cp->frames; their count or -1. */
static int64_t frames(struct jfr_cp *cp, struct jfr_build *b,
		      const struct entry *e)
{
	const struct jfr_meta *m = cp->m;
	struct jfr_cur c = { .p = e->v[0].at, .end = e->end };
	const struct jfr_field *ff;
	int want[4] = { -1, -1, -1, -1 };
	uint64_t n;
	uint32_t k, got = 0;

	if (!e->v[0].set || cp->cls[P_STACK] < 0 || cp->field[P_STACK][0] < 0)
		return 0;
	ff = &m->fields[m->classes[cp->cls[P_STACK]].first +
			cp->field[P_STACK][0]];
	if (!ff->array || ff->cpool || m->classes[ff->cls].kind != JK_COMPOSITE)
		return 0;
	k = ff->cls;
	want[0] = jfr_field_of(m, k, "method");
	want[1] = jfr_field_of(m, k, "lineNumber");
	want[2] = jfr_field_of(m, k, "type");
	if (jfr_get_varint(&c, &n))
		return -1;
	for (uint64_t i = 0; i < n && got < MAX_FRAMES; i++) {
		struct val v[4];
		const struct method *me;
		uint8_t type;
		uint32_t line, f;

		if (read_fields(m, &c, k, want, v))
			return -1;
		me = method(cp, b, v[0].u);
		if (!me)
			return -1;
		type = frame_type(cp, v[2].u, me);
		line = v[1].u > UINT32_MAX ? 0 : (uint32_t)v[1].u;
		f = jfr_add_frame(b, type, me->name, me->module, line);
		if (f == UINT32_MAX)
			return -1;
		cp->frames[got++] = f;
	}
	return got;
}

uint32_t jfr_cp_stack(struct jfr_cp *cp, struct jfr_build *b, uint64_t key,
		      uint64_t leaf_class, uint8_t leaf_type)
{
	const struct entry *e;
	uint32_t id, at = 0;
	int64_t n;

	/* the common case: a stack seen before */
	if (!leaf_class && key < cp->ndirect && cp->direct[key])
		return cp->direct[key] - 1;
	if (!leaf_class && key >= cp->ndirect && key != UINT64_MAX &&
	    u64map_get(&cp->stack_ids, key + 1, &id))
		return id - 1;
	e = lookup(cp, P_STACK, key);
	if (!e)
		return UINT32_MAX;
	n = frames(cp, b, e);
	if (n < 0)
		return UINT32_MAX;
	if (leaf_class) { /* the allocated or locked class, as the leaf */
		char name[JFR_NAME_MAX];
		size_t len = class_name(cp, leaf_class, name, sizeof(name));
		uint32_t s = jfr_intern(b, name, len);

		if (s == UINT32_MAX)
			return UINT32_MAX;
		memmove(cp->frames + 1, cp->frames,
			(size_t)n * sizeof(uint32_t));
		cp->frames[0] = jfr_add_frame(b, leaf_type, s, 0, 0);
		if (cp->frames[0] == UINT32_MAX)
			return UINT32_MAX;
		at = 1;
	}
	id = jfr_add_stack(b, cp->frames, (uint32_t)n + at);
	if (!cp->direct) { /* keys up to a few times the pool's size */
		uint64_t n = 4ull * cp->pools[P_STACK].n + 1024;

		cp->ndirect = n < (1u << 24) ? n : (1u << 24);
		cp->direct = calloc(cp->ndirect, sizeof(*cp->direct));
		if (!cp->direct)
			cp->ndirect = 0;
	}
	if (leaf_class || id == UINT32_MAX)
		return id;
	if (key < cp->ndirect)
		cp->direct[key] = id + 1;
	else if (u64map_put(&cp->stack_ids, key + 1, id + 1))
		return UINT32_MAX;
	return id;
}

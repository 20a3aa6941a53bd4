// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target that knows the JFR format's structure: the fuzzer's
 * bytes are a program that builds one to three chunks, each with its
 * metadata (the JDK's types a profile needs, the event types perfjava,
 * the JDK and async-profiler write, and classes of the fuzzer's own:
 * nested, in arrays, in pools, empty, circular), a checkpoint of constant
 * pools, settings and events whose values follow their classes, batches
 * (samples), TLAB sizes, class leaves. Then, where the program says, it
 * mutates within that structure: a count or a size too large, a varint
 * of nine bytes, a byte flipped at a place of the structure, a chunk cut.
 * What is built is read by pj_profile_load and checked as fuzz_jfr.c
 * checks a file (selftests/fuzz/jfr_check.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "jfr_check.h"

#define OUT_MAX (1 << 20)
#define MAX_CLASSES 96
#define MAX_FIELDS 12

/* The fuzzer's bytes, read as a program: 0 when they are spent. */
struct prog {
	const uint8_t *p, *end;
};

static unsigned int u8(struct prog *g)
{
	return g->p < g->end ? *g->p++ : 0;
}

/* A number below n (n > 0). */
static unsigned int pick(struct prog *g, unsigned int n)
{
	return (u8(g) | u8(g) << 8) % n;
}

struct buf {
	uint8_t *b;
	size_t n;
};

/* The buffers things are built in: static, as a run builds one file
 * (large allocations cost a sanitizer's mappings at every run). */
enum { B_OUT, B_STRINGS, B_META, B_TREE, B_POOLS, B_EVENT, B_N };
static uint8_t bufs[B_N][OUT_MAX];

static void put(struct buf *o, const void *p, size_t n)
{
	if (o->n + n > OUT_MAX)
		return;
	memcpy(o->b + o->n, p, n);
	o->n += n;
}

static void byte(struct buf *o, unsigned int v)
{
	uint8_t c = (uint8_t)v;

	put(o, &c, 1);
}

/* A JFR varint; nine bytes when long is set (a valid, wasteful form). */
static void var(struct buf *o, uint64_t v, bool lng)
{
	for (int i = 0; i < 8; i++) {
		if (!lng && v < 0x80) {
			byte(o, (unsigned int)v);
			return;
		}
		byte(o, (unsigned int)(v & 0x7f) | 0x80);
		v >>= 7;
	}
	byte(o, (unsigned int)v);
}

static void utf8(struct buf *o, const char *s)
{
	byte(o, 3);
	var(o, strlen(s), false);
	put(o, s, strlen(s));
}

static const char *const words[] = {
	"Interpreted",
	"JIT compiled",
	"Inlined",
	"C1 compiled",
	"Kernel",
	"C++",
	"Native",
	"[B",
	"[[I",
	"[Ljava/lang/Object;",
	"java/lang/String",
	"main",
	"()V",
	"()L;",
	"(Lk;)L;",
	"period",
	"20 ms",
	"10000000",
	"event",
	"cpu-clock",
	"offcpu",
	"interval",
	"wall",
	"enabled",
	"",
	"STATE_RUNNABLE",
	"STATE_DEFAULT",
	"libjvm.so",
	"a\x1b[31mb",
	"[",
	"[L;",
	"x/y$$Lambda+0x0000000800c03000/1",
	"start_ns",
	"cmdline",
};

/* A string value: null, empty, a pool key, UTF-8, chars, Latin-1. */
static void string(struct prog *g, struct buf *o)
{
	const char *w = words[pick(g, sizeof(words) / sizeof(*words))];
	unsigned int e = u8(g) % 8, n = u8(g) % 12;

	switch (e) {
	case 0:
	case 1:
		byte(o, e);
		break;
	case 2:
		byte(o, 2);
		var(o, pick(g, 8), false);
		break;
	case 4: /* chars: varints */
		byte(o, 4);
		var(o, n, false);
		for (unsigned int i = 0; i < n; i++)
			var(o, u8(g) | (u8(g) & 0x80 ? 0xd800 : 0), false);
		break;
	case 5: /* Latin-1 */
		byte(o, 5);
		var(o, n, false);
		for (unsigned int i = 0; i < n; i++)
			byte(o, u8(g));
		break;
	default:
		utf8(o, w);
	}
}

enum kind { K_LONG, K_INT, K_BYTE, K_FLOAT, K_DOUBLE, K_STRING, K_COMP };

struct field {
	const char *name;
	unsigned int cls;
	bool cpool, array;
};

struct cls {
	char name[48];
	const char *super;
	unsigned int kind, nf;
	struct field f[MAX_FIELDS];
};

struct model {
	struct cls c[MAX_CLASSES];
	unsigned int n;
	unsigned int events[MAX_CLASSES],
	    nev; /* classes that are event types */
	unsigned int pools[32], npools; /* classes with a pool */
};

static unsigned int add(struct model *m, const char *name, const char *super,
			unsigned int kind)
{
	struct cls *c = &m->c[m->n];

	snprintf(c->name, sizeof(c->name), "%s", name);
	c->super = super;
	c->kind = kind;
	c->nf = 0;
	if (super)
		m->events[m->nev++] = m->n;
	return m->n++;
}

static void fld(struct model *m, unsigned int c, const char *name,
		unsigned int cls, bool cpool, bool array)
{
	struct cls *k = &m->c[c];

	if (k->nf < MAX_FIELDS)
		k->f[k->nf++] = (struct field){ name, cls, cpool, array };
}

/* The JDK's types, the event types of the three producers, then the
 * program's own classes (some events, some nested, some circular). */
static void build_model(struct prog *g, struct model *m)
{
	const char *ev = "jdk.jfr.Event";
	unsigned int L, I, B, S, sym, cl, me, ft, fr, st, th, ts, e, extra;
	static const char *const samples[] = {
		"jdk.ExecutionSample",
		"profiler.WallClockSample",
		"jdk.ObjectAllocationInNewTLAB",
		"jdk.ObjectAllocationOutsideTLAB",
		"jdk.ObjectAllocationSample",
		"jdk.JavaMonitorEnter",
		"jdk.ThreadPark",
		"jdk.NativeMethodSample",
		"perfjava.EventSample",
		"jdk.CustomEvent",
	};
	static const char *const extras[] = {
		"samples", "timeSpan", "tlabSize", "allocationSize",
		"weight",  "duration", "cpu",	   "details",
		"event",   "period",   "state",	   "stackTrace",
	};

	m->n = m->nev = m->npools = 0;
	L = add(m, "long", NULL, K_LONG);
	I = add(m, "int", NULL, K_INT);
	B = add(m, "boolean", NULL, K_BYTE);
	add(m, "float", NULL, K_FLOAT);
	add(m, "double", NULL, K_DOUBLE);
	S = add(m, "java.lang.String", NULL, K_STRING);
	sym = add(m, "jdk.types.Symbol", NULL, K_COMP);
	fld(m, sym, "string", S, false, false);
	cl = add(m, "java.lang.Class", NULL, K_COMP);
	fld(m, cl, "name", sym, true, false);
	fld(m, cl, "modifiers", I, false, false);
	ft = add(m, "jdk.types.FrameType", NULL, K_COMP);
	fld(m, ft, "description", S, false, false);
	ts = add(m, "jdk.types.ThreadState", NULL, K_COMP);
	fld(m, ts, "name", S, false, false);
	me = add(m, "jdk.types.Method", NULL, K_COMP);
	fld(m, me, "type", cl, true, false);
	fld(m, me, "name", sym, true, false);
	fld(m, me, "descriptor", sym, true, false);
	fld(m, me, "hidden", B, false, false);
	fr = add(m, "jdk.types.StackFrame", NULL, K_COMP);
	fld(m, fr, "method", me, true, false);
	fld(m, fr, "lineNumber", I, false, false);
	fld(m, fr, "bytecodeIndex", I, false, false);
	fld(m, fr, "type", ft, true, false);
	st = add(m, "jdk.types.StackTrace", NULL, K_COMP);
	fld(m, st, "truncated", B, false, false);
	fld(m, st, "frames", fr, false, true);
	th = add(m, "java.lang.Thread", NULL, K_COMP);
	fld(m, th, "osName", S, false, false);
	fld(m, th, "osThreadId", L, false, false);
	fld(m, th, "javaName", S, false, false);
	fld(m, th, "javaThreadId", L, false, false);
	{
		const unsigned int pools[] = { S, sym, cl, me, ft, ts, st, th };

		for (size_t i = 0; i < sizeof(pools) / sizeof(*pools); i++)
			m->pools[m->npools++] = pools[i];
	}
	e = add(m, "jdk.ActiveSetting", ev, K_COMP);
	fld(m, e, "startTime", L, false, false);
	fld(m, e, "id", L, false, false);
	fld(m, e, "name", S, u8(g) & 1, false);
	fld(m, e, "value", S, u8(g) & 1, false);
	e = add(m, "jdk.ActiveRecording", ev, K_COMP);
	fld(m, e, "startTime", L, false, false);
	e = add(m, "jdk.JVMInformation", ev, K_COMP);
	fld(m, e, "startTime", L, false, false);
	fld(m, e, "jvmArguments", S, false, false);
	fld(m, e, "javaArguments", S, false, false);
	fld(m, e, "pid", L, false, false);
	for (size_t i = 0; i < sizeof(samples) / sizeof(*samples); i++) {
		e = add(m, samples[i], ev, K_COMP);
		fld(m, e, "startTime", L, false, false);
		fld(m, e, u8(g) & 1 ? "sampledThread" : "eventThread", th, true,
		    false);
		fld(m, e, "stackTrace", st, true, false);
		if (i >= 2 && i <= 6)
			fld(m, e, i < 5 ? "objectClass" : "monitorClass", cl,
			    true, false);
		for (unsigned int k = u8(g) % 4; k; k--)
			fld(m, e, extras[pick(g, 12)], L, false, false);
	}
	/* the program's classes: fields of any class so far, or the next
	 * (circular), in pools, in arrays; some of them events */
	extra = u8(g) % 24;
	for (unsigned int i = 0; i < extra && m->n < MAX_CLASSES; i++) {
		char name[32];
		bool event = u8(g) % 4 == 0;
		unsigned int c, nf = u8(g) % MAX_FIELDS;

		snprintf(name, sizeof(name), "fuzz.C%u", i);
		c = add(m, name, event ? ev : NULL, K_COMP);
		if (event)
			fld(m, c, "startTime", L, false, false);
		if (event && u8(g) & 1)
			fld(m, c, "stackTrace", st, true, false);
		for (unsigned int f = 0; f < nf; f++) {
			unsigned int r = u8(g), to = pick(g, m->n + 1);

			fld(m, c, r & 8 ? "duration" : "f", to >= m->n ? c : to,
			    r & 1, (r & 6) == 6);
		}
		if (u8(g) % 3 == 0 && m->npools < 32)
			m->pools[m->npools++] = c;
	}
}

static void event(struct prog *g, struct buf *o, uint64_t type,
		  const struct buf *body);

static void element(struct buf *o, unsigned int name, unsigned int nattr,
		    const unsigned int *attr, unsigned int nkids)
{
	var(o, name, false);
	var(o, nattr, false);
	for (unsigned int i = 0; i < 2 * nattr; i++)
		var(o, attr[i], false);
	var(o, nkids, false);
}

/* The metadata's strings: fixed ones first, then each class's name and
 * id (as text: 100 + its index) and its fields' names. */
enum {
	S_ROOT,
	S_META,
	S_CLASS,
	S_FIELD,
	S_ID,
	S_NAME,
	S_SUPER,
	S_CPOOL,
	S_TRUE,
	S_DIM,
	S_ONE,
	S_EVENT,
	S_FIXED
};

struct strtab {
	struct buf b;
	unsigned int n;
};

static unsigned int str(struct strtab *t, const char *s)
{
	utf8(&t->b, s);
	return t->n++;
}

static void metadata(struct prog *g, struct buf *o, const struct model *m)
{
	static const char *const fixed[S_FIXED] = {
		"root", "metadata",  "class",	  "field",
		"id",	"name",	     "superType", "constantPool",
		"true", "dimension", "1",	  "jdk.jfr.Event",
	};
	unsigned int name[MAX_CLASSES], id[MAX_CLASSES];
	struct strtab t = { { bufs[B_STRINGS], 0 }, 0 };
	struct buf body = { bufs[B_META], 0 }, tree = { bufs[B_TREE], 0 };
	char text[32];
	for (unsigned int i = 0; i < S_FIXED; i++)
		str(&t, fixed[i]);
	for (unsigned int i = 0; i < m->n; i++) {
		snprintf(text, sizeof(text), "%u", 100 + i);
		name[i] = str(&t, m->c[i].name);
		id[i] = str(&t, text);
	}
	element(&tree, S_ROOT, 0, NULL, 1);
	element(&tree, S_META, 0, NULL, m->n);
	for (unsigned int i = 0; i < m->n; i++) {
		const struct cls *c = &m->c[i];
		unsigned int a[6] = { S_ID,    id[i],	S_NAME,
				      name[i], S_SUPER, S_EVENT };

		element(&tree, S_CLASS, c->super ? 3 : 2, a, c->nf);
		for (unsigned int f = 0; f < c->nf; f++) {
			const struct field *fd = &c->f[f];
			unsigned int b[8] = { S_NAME, str(&t, fd->name),
					      S_CLASS, id[fd->cls] },
				     n = 2;

			if (fd->cpool) {
				b[2 * n] = S_CPOOL;
				b[2 * n++ + 1] = S_TRUE;
			}
			if (fd->array) {
				b[2 * n] = S_DIM;
				b[2 * n++ + 1] = S_ONE;
			}
			element(&tree, S_FIELD, n, b, 0);
		}
	}
	var(&body, 0, false); /* start, duration, metadata id */
	var(&body, 0, false);
	var(&body, 1, false);
	var(&body, t.n, false);
	put(&body, t.b.b, t.b.n);
	put(&body, tree.b, tree.n);
	event(g, o, 0, &body);
}

/* A value of class c, as the program says, depth bounded. */
static void value(struct prog *g, struct buf *o, const struct model *m,
		  unsigned int c, unsigned int depth)
{
	const struct cls *k = &m->c[c];

	switch (k->kind) {
	case K_LONG:
	case K_INT: {
		unsigned int r = u8(g);

		var(o, r < 200 ? r : (uint64_t)u8(g) << (r % 57), (r & 7) == 7);
		return;
	}
	case K_BYTE:
		byte(o, u8(g));
		return;
	case K_FLOAT:
		put(o, "\0\0\0\0", 4);
		return;
	case K_DOUBLE:
		put(o, "\0\0\0\0\0\0\0\0", 8);
		return;
	case K_STRING:
		string(g, o);
		return;
	}
	if (depth > 5)
		return; /* cut short: a value that runs on into the next */
	for (unsigned int f = 0; f < k->nf; f++) {
		const struct field *fd = &k->f[f];
		unsigned int n = fd->array ? u8(g) % 6 : 1;

		if (fd->array)
			var(o, n, false);
		for (unsigned int i = 0; i < n; i++) {
			if (fd->cpool)
				var(o, pick(g, 10), false);
			else
				value(g, o, m, fd->cls, depth + 1);
		}
	}
}

/* An event: its size (5 bytes that count themselves), type, body. */
static void event(struct prog *g, struct buf *o, uint64_t type,
		  const struct buf *body)
{
	uint64_t n = body->n + 5 + 1 + (type >= 0x80);
	unsigned int lie = u8(g) % 32 == 31 ? u8(g) : 0;

	n += lie;
	for (int i = 0; i < 4; i++)
		byte(o, (unsigned int)((n >> (7 * i)) & 0x7f) | 0x80);
	byte(o, (unsigned int)(n >> 28) & 0x7f);
	var(o, type, false);
	put(o, body->b, body->n);
}

static void checkpoint(struct prog *g, struct buf *o, const struct model *m)
{
	struct buf b = { bufs[B_POOLS], 0 };
	unsigned int np = 1 + u8(g) % m->npools;

	var(&b, 0, false);
	var(&b, 0, false);
	var(&b, 0, false);
	byte(&b, 1);
	var(&b, np, false);
	for (unsigned int i = 0; i < np; i++) {
		unsigned int c =
		    m->pools[i < m->npools ? i : pick(g, m->npools)];
		unsigned int n = u8(g) % 12;

		var(&b, 100 + c, false);
		var(&b, n + (u8(g) % 64 == 63 ? 1000 : 0), false);
		for (unsigned int k = 0; k < n; k++) {
			var(&b, pick(g, 10), u8(g) % 16 == 15);
			value(g, &b, m, c, 0);
		}
	}
	event(g, o, 1, &b);
}

/* One chunk: header, checkpoint, events, metadata; mutated at the end
 * where the program says. */
static void chunk(struct prog *g, struct buf *o, const struct model *m)
{
	size_t start = o->n, meta, cp;
	struct buf b = { bufs[B_EVENT], 0 };
	unsigned int nev = u8(g);
	uint8_t h[68] = "FLR\0\0\2\0\0";

	put(o, h, sizeof(h));
	cp = o->n - start;
	checkpoint(g, o, m);
	for (unsigned int i = 0; i < nev && o->n < OUT_MAX / 2; i++) {
		unsigned int c = m->events[pick(g, m->nev)];

		b.n = 0;
		if (u8(g) % 16 == 15) {
			checkpoint(g, o, m);
			continue;
		}
		value(g, &b, m, c, 0);
		event(g, o, 100 + c, &b);
	}
	meta = o->n - start;
	metadata(g, o, m);
	/* the header: size, checkpoint and metadata offsets, times */
	{
		uint64_t v[8] = { o->n - start, cp,
				  meta,		1700000000000000000ull,
				  1000000000,	5,
				  1000000000,	1 };
		uint8_t *p = o->b + start + 8;

		for (int i = 0; i < 7; i++)
			for (int k = 0; k < 8; k++)
				p[8 * i + k] = (uint8_t)(v[i] >> (56 - 8 * k));
		p[56] = p[57] = p[58] = 0;
		p[59] = 1; /* compressed integers */
	}
	switch (u8(g) % 16) { /* within the structure (0: as built) */
	case 1: /* a byte of the chunk flipped */
		if (o->n > start)
			o->b[start + pick(g, (unsigned int)(o->n - start))] ^=
			    (uint8_t)(1 + u8(g));
		break;
	case 2: /* cut */
		o->n -= pick(g, (unsigned int)(o->n - start) + 1);
		break;
	case 3: /* a chunk size that lies */
		o->b[start + 15] ^= (uint8_t)(1 + u8(g));
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static struct model m;
	struct prog g = { data, data + size };
	struct buf o = { bufs[B_OUT], 0 };
	unsigned int nchunks;

	if (fd < 0)
		fd = memfd_create("fuzz-jfr-struct", 0);
	build_model(&g, &m);
	nchunks = 1 + u8(&g) % 3;
	for (unsigned int i = 0; i < nchunks; i++)
		chunk(&g, &o, &m);
#ifdef JFR_STRUCT_DUMP /* cc -DJFR_STRUCT_DUMP=\"F.jfr\": the file built */
	FILE *dump = fopen(JFR_STRUCT_DUMP, "wb");

	if (dump) {
		fwrite(o.b, 1, o.n, dump);
		fclose(dump);
	}
#endif
	if (fd >= 0 && !ftruncate(fd, 0) &&
	    pwrite(fd, o.b, o.n, 0) == (ssize_t)o.n)
		jfr_check_file(fd);
	return 0;
}

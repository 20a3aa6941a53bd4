// SPDX-License-Identifier: GPL-2.0
/*
 * The constant pools of a JFR file written from a profile
 * (report/jfr_pools.h). A Java frame's name ("pkg.Cls.method(desc)") is
 * split into its class (binary name, "pkg/Cls"), package, method name and
 * descriptor; any other frame is a method of the empty class named as the
 * report names it, as async-profiler writes native and kernel frames.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "lib/hash.h"
#include "report/jfr_pools.h"
#include "report/jfr_types.h"

#define NAME_LEN 4096

/* The JFR names of the report's states (running, sleep, io, ...). */
static const char *const state_names[REPORT_NSTATES] = {
	"STATE_RUNNABLE",  "STATE_SLEEPING", "STATE_IO",      "STATE_LOCK",
	"STATE_PREEMPTED", "STATE_BLOCKED",  "STATE_WAITING",
};

static const uint8_t frame_types[PJ_FRAME_TYPE_MAX] = {
	[PJ_FRAME_NATIVE] = JFR_FRAME_NATIVE,
	[PJ_FRAME_KERNEL] = JFR_FRAME_KERNEL,
	[PJ_FRAME_JIT] = JFR_FRAME_JIT,
	[PJ_FRAME_INLINED] = JFR_FRAME_INLINED,
	[PJ_FRAME_INTERPRETED] = JFR_FRAME_INTERPRETED,
	[PJ_FRAME_C1] = JFR_FRAME_C1,
	[PJ_FRAME_JAVA_NATIVE] = JFR_FRAME_NATIVE,
	[PJ_FRAME_UNKNOWN] = JFR_FRAME_NATIVE,
	[PJ_FRAME_MARKER] = JFR_FRAME_NATIVE,
	[PJ_FRAME_VM] = JFR_FRAME_CPP,
};

static bool is_java(uint8_t t)
{
	return t == PJ_FRAME_JIT || t == PJ_FRAME_INLINED ||
	       t == PJ_FRAME_INTERPRETED || t == PJ_FRAME_C1 ||
	       t == PJ_FRAME_JAVA_NATIVE;
}

int jfr_pools_init(struct jfr_pools *pl, const struct report *r)
{
	const struct pj_profile *p = r->p;

	memset(pl, 0, sizeof(*pl));
	pl->r = r;
	pl->stack_used = calloc(p->nstacks ? p->nstacks : 1, 1);
	pl->method_of =
	    calloc(p->nframes ? p->nframes : 1, sizeof(*pl->method_of));
	return pl->stack_used && pl->method_of ? 0 : -1;
}

void jfr_pools_free(struct jfr_pools *pl)
{
	free(pl->stack_used);
	free(pl->method_of);
	free(pl->sym.text);
	free(pl->sym.at);
	u64map_free(&pl->sym.by_hash);
	u64map_free(&pl->threads);
	u64map_free(&pl->strings);
	u64map_free(&pl->classes);
	u64map_free(&pl->packages);
	u64map_free(&pl->java_methods);
	u64map_free(&pl->native_methods);
	free(pl->cls);
	free(pl->pkg_sym);
	free(pl->m);
	memset(pl, 0, sizeof(*pl));
}

void jfr_pools_use(struct jfr_pools *pl, const struct pj_sample *s)
{
	if (s->stack < pl->r->p->nstacks)
		pl->stack_used[s->stack] = 1;
	if (u64map_put(&pl->threads, (uint64_t)s->tid + 1, 1))
		pl->oom = true;
}

/* The key of symbol s[0..n), made on first use; 0 when out of memory. */
static uint32_t symbol(struct jfr_pools *pl, const char *s, size_t n)
{
	struct jfr_symbols *y = &pl->sym;
	uint64_t h = hash_bytes(s, n, 0) | 1;
	uint32_t k;

	if (u64map_get(&y->by_hash, h, &k) &&
	    !strncmp(y->text + y->at[k - 1], s, n) &&
	    !y->text[y->at[k - 1] + n])
		return k;
	if (y->len > UINT32_MAX - n - 1 ||
	    GROW(y->text, y->cap, y->len + n + 1) ||
	    GROW(y->at, y->cap_at, (size_t)y->n + 1)) {
		pl->oom = true;
		return 0;
	}
	memcpy(y->text + y->len, s, n);
	y->text[y->len + n] = 0;
	y->at[y->n++] = (uint32_t)y->len;
	y->len += n + 1;
	k = y->n;
	if (u64map_put(&y->by_hash, h, k)) /* a collision keeps the first */
		pl->oom = true;
	return k;
}

static uint32_t package(struct jfr_pools *pl, const char *cls, size_t n)
{
	uint32_t s, k;
	size_t end = 0;

	/* the last '/' not of a hidden class's "/0x..." */
	for (size_t i = 0; i < n; i++)
		if (cls[i] == '/' && !(cls[i + 1] == '0' && cls[i + 2] == 'x'))
			end = i;
	if (!end)
		return 0;
	s = symbol(pl, cls, end);
	if (!s)
		return 0;
	if (u64map_get(&pl->packages, s, &k))
		return k;
	if (GROW(pl->pkg_sym, pl->cap_pkgs, (size_t)pl->npkgs + 1) ||
	    u64map_put(&pl->packages, s, pl->npkgs + 1)) {
		pl->oom = true;
		return 0;
	}
	pl->pkg_sym[pl->npkgs++] = s;
	return pl->npkgs;
}

/* The class key of binary class name cls[0..n) ("" for native frames). */
static uint32_t class_of(struct jfr_pools *pl, const char *cls, size_t n)
{
	uint32_t s = symbol(pl, cls, n), k;

	if (!s)
		return 0;
	if (u64map_get(&pl->classes, s, &k))
		return k;
	if (GROW(pl->cls, pl->cap_classes, (size_t)pl->nclasses + 1) ||
	    u64map_put(&pl->classes, s, pl->nclasses + 1)) {
		pl->oom = true;
		return 0;
	}
	k = pl->nclasses++;
	pl->cls[k].sym = s;
	pl->cls[k].pkg = package(pl, cls, n);
	return k + 1;
}

static uint32_t add_method(struct jfr_pools *pl, struct u64map *map,
			   uint64_t id, uint32_t cls, uint32_t name,
			   uint32_t desc)
{
	uint32_t n = pl->nmethods;

	if (GROW(pl->m, pl->cap_methods, (size_t)n + 1) ||
	    u64map_put(map, id, n + 1)) {
		pl->oom = true;
		return 0;
	}
	pl->m[n] = (struct jfr_out_method){ cls, name, desc, 0 };
	return ++pl->nmethods;
}

/* A JVM method descriptor, or NULL: "(...)R" with no control bytes. */
static const char *descriptor(const char *paren)
{
	const char *close = paren ? strrchr(paren, ')') : NULL;

	if (!close || !close[1])
		return NULL;
	for (const char *c = paren; *c; c++)
		if ((unsigned char)*c < 0x20)
			return NULL;
	return paren;
}

/* "pkg.Cls.method(desc)" as class "pkg/Cls", method and descriptor; a
 * method recorded without its descriptor gets "()" (JFR wants one). */
static uint32_t java_method(struct jfr_pools *pl, uint64_t id, const char *name)
{
	const char *paren = strchr(name, '('), *dot = NULL, *desc;
	size_t end = paren ? (size_t)(paren - name) : strlen(name);
	char cls[NAME_LEN];
	size_t n = 0;

	for (size_t i = 0; i < end; i++)
		if (name[i] == '.')
			dot = name + i;
	if (dot) {
		n = (size_t)(dot - name);
		if (n >= sizeof(cls))
			n = sizeof(cls) - 1;
		for (size_t i = 0; i < n; i++)
			cls[i] = name[i] == '.' ? '/' : name[i];
	}
	desc = descriptor(paren);
	return add_method(pl, &pl->java_methods, id, class_of(pl, cls, n),
			  symbol(pl, dot ? dot + 1 : name,
				 (size_t)(name + end - (dot ? dot + 1 : name))),
			  symbol(pl, desc ? desc : "()",
				 desc ? strlen(desc) : 2));
}

/* Native and kernel frames as async-profiler writes them: the library as
 * the class, placeholder descriptors. */
static uint32_t native_method(struct jfr_pools *pl, uint32_t f)
{
	const struct pj_profile *p = pl->r->p;
	const struct pj_frame *fr = &p->frames[f];
	const char *mod = fr->type == PJ_FRAME_KERNEL ? ""
						      : pj_str(p, fr->module);
	const char *base = strrchr(mod, '/');
	const char *desc = fr->type == PJ_FRAME_KERNEL ? "(Lk;)L;" : "()L;";
	char buf[NAME_LEN];
	uint32_t s, cls, k;

	base = base ? base + 1 : mod;
	report_frame_name(pl->r, f, REPORT_BARE, buf, sizeof(buf));
	s = symbol(pl, buf, strlen(buf));
	cls = class_of(pl, base, strlen(base));
	if (!s || !cls)
		return 0;
	if (u64map_get(&pl->native_methods, (uint64_t)cls << 32 | s, &k))
		return k;
	k = add_method(pl, &pl->native_methods, (uint64_t)cls << 32 | s, cls, s,
		       symbol(pl, desc, strlen(desc)));
	if (k)
		pl->m[k - 1].modifiers = 0x100; /* ACC_NATIVE */
	return k;
}

/* The method key of frame f, made on first use. */
static uint32_t method_of(struct jfr_pools *pl, uint32_t f)
{
	const struct pj_profile *p = pl->r->p;
	const struct pj_frame *fr = &p->frames[f];
	uint64_t id = (uint64_t)fr->name + 1;
	uint32_t k;

	if (pl->method_of[f])
		return pl->method_of[f];
	if (!is_java(fr->type))
		k = native_method(pl, f);
	else if (!u64map_get(&pl->java_methods, id, &k))
		k = java_method(pl, id, pj_str(p, fr->name));
	pl->method_of[f] = k;
	return k;
}

static void pool_begin(struct jfr_buf *b, enum jfr_type_id t, uint64_t n)
{
	jfr_varint(b, t);
	jfr_varint(b, n);
}

static unsigned int write_stacks(struct jfr_pools *pl, struct jfr_buf *b)
{
	const struct pj_profile *p = pl->r->p;
	uint32_t n = 0;

	for (uint32_t st = 0; st < p->nstacks; st++)
		n += pl->stack_used[st];
	if (!n)
		return 0;
	pool_begin(b, JFR_T_STACK_TRACE, n);
	for (uint32_t st = 0; st < p->nstacks; st++) {
		uint32_t lo = p->stack_start[st], hi = p->stack_start[st + 1];

		if (!pl->stack_used[st])
			continue;
		jfr_varint(b, (uint64_t)st + 1);
		jfr_u8(b, 0); /* not truncated */
		jfr_varint(b, hi - lo);
		for (uint32_t j = lo; j < hi; j++) { /* leaf first */
			uint32_t f = p->stack_frames[j];
			const struct pj_frame *fr = &p->frames[f];

			jfr_varint(b, method_of(pl, f));
			jfr_varint(b, fr->line);
			jfr_varint(b, 0); /* bytecode index: not recorded */
			jfr_varint(b, fr->type < PJ_FRAME_TYPE_MAX
					  ? frame_types[fr->type]
					  : JFR_FRAME_NATIVE);
		}
	}
	return 1;
}

static unsigned int write_threads(struct jfr_pools *pl, struct jfr_buf *b)
{
	const struct pj_profile *p = pl->r->p;
	const struct u64map *m = &pl->threads;

	if (!m->n)
		return 0;
	pool_begin(b, JFR_T_THREAD, m->n);
	for (uint32_t i = 0; i < m->cap; i++) {
		uint32_t tid;
		const char *name;

		if (!m->keys[i])
			continue;
		tid = (uint32_t)(m->keys[i] - 1);
		name = pj_profile_thread_name(p, 0, tid);
		jfr_varint(b, m->keys[i]);
		jfr_str(b, name);
		jfr_varint(b, tid);
		/* Java's Thread.getId() is not recorded: the tid stands in */
		jfr_str(b, name);
		jfr_varint(b, tid);
	}
	return 1;
}

static unsigned int write_strings(struct jfr_pools *pl, struct jfr_buf *b)
{
	const struct pj_profile *p = pl->r->p;
	const struct u64map *m = &pl->strings;

	if (!m->n)
		return 0;
	pool_begin(b, JFR_T_STRING, m->n);
	for (uint32_t i = 0; i < m->cap; i++) {
		uint64_t key = m->keys[i] - 1;

		if (!m->keys[i])
			continue;
		jfr_varint(b, key);
		if (key < JFR_EVENT_NAME_KEY) {
			jfr_str(b, pj_str(p, (uint32_t)key));
			continue;
		}
		if (pj_profile_event(p, key - JFR_EVENT_NAME_KEY))
			jfr_str(b, pj_profile_event(p, key - JFR_EVENT_NAME_KEY)
				       ->name);
	}
	return 1;
}

static unsigned int write_enums(struct jfr_pools *pl, struct jfr_buf *b)
{
	unsigned int n = 0;

	pool_begin(b, JFR_T_FRAME_TYPE, JFR_NFRAME_TYPES);
	for (unsigned int i = 0; i < JFR_NFRAME_TYPES; i++) {
		jfr_varint(b, i);
		jfr_str(b, jfr_frame_type_names[i]);
	}
	for (unsigned int i = 0; i < REPORT_NSTATES; i++)
		n += !!(pl->states & (1u << (i + 1)));
	if (!n)
		return 1;
	pool_begin(b, JFR_T_THREAD_STATE, n);
	for (unsigned int i = 0; i < REPORT_NSTATES; i++)
		if (pl->states & (1u << (i + 1))) {
			jfr_varint(b, i + 1);
			jfr_str(b, state_names[i]);
		}
	return 2;
}

/* Methods, classes, packages, symbols: what the stack traces named. */
static unsigned int write_code(struct jfr_pools *pl, struct jfr_buf *b)
{
	unsigned int pools = 0;

	if (pl->nmethods) {
		pools++;
		pool_begin(b, JFR_T_METHOD, pl->nmethods);
		for (uint32_t i = 0; i < pl->nmethods; i++) {
			jfr_varint(b, i + 1);
			jfr_varint(b, pl->m[i].cls);
			jfr_varint(b, pl->m[i].name);
			jfr_varint(b, pl->m[i].desc);
			/* modifiers: not recorded for Java; ACC_NATIVE for
			 * native code, as async-profiler marks it */
			jfr_varint(b, pl->m[i].modifiers);
			jfr_u8(b, 0); /* not hidden */
		}
	}
	if (pl->nclasses) {
		pools++;
		pool_begin(b, JFR_T_CLASS, pl->nclasses);
		for (uint32_t i = 0; i < pl->nclasses; i++) {
			jfr_varint(b, i + 1);
			jfr_varint(b, 0); /* class loader: not recorded */
			jfr_varint(b, pl->cls[i].sym);
			jfr_varint(b, pl->cls[i].pkg);
			jfr_varint(b, 0); /* modifiers */
		}
	}
	if (pl->npkgs) {
		pools++;
		pool_begin(b, JFR_T_PACKAGE, pl->npkgs);
		for (uint32_t i = 0; i < pl->npkgs; i++) {
			jfr_varint(b, i + 1);
			jfr_varint(b, pl->pkg_sym[i]);
		}
	}
	if (pl->sym.n) {
		pools++;
		pool_begin(b, JFR_T_SYMBOL, pl->sym.n);
		for (uint32_t i = 0; i < pl->sym.n; i++) {
			jfr_varint(b, i + 1);
			jfr_str(b, pl->sym.text + pl->sym.at[i]);
		}
	}
	return pools;
}

void jfr_pools_write(struct jfr_pools *pl, struct jfr_buf *b, uint64_t ticks)
{
	struct jfr_buf body = { 0 };
	unsigned int pools;
	size_t at;

	/* the stacks first: they make the methods, classes and symbols */
	pools = write_stacks(pl, &body);
	pools += write_threads(pl, &body);
	pools += write_strings(pl, &body);
	pools += write_enums(pl, &body);
	pools += write_code(pl, &body);
	if (body.oom || pl->oom)
		b->oom = true;
	at = jfr_event_begin(b, JFR_T_CHECKPOINT);
	jfr_varint(b, ticks);
	jfr_varint(b, 0); /* duration */
	jfr_varint(b, 0); /* delta to the next checkpoint: none */
	jfr_u8(b, 1); /* type: flush */
	jfr_varint(b, pools);
	jfr_raw(b, body.d, body.n);
	jfr_event_end(b, at);
	jfr_buf_free(&body);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Methods, classes, packages and symbols of a JFR file written from a
 * profile (report/jfr_names.h): perfjava's frame names split into what
 * the JDK's constant pools hold, each made once.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "lib/hash.h"
#include "report/jfr_names.h"
#include "report/jfr_types.h"

#define NAME_LEN 4096
#define ACC_NATIVE 0x100

static const uint8_t frame_types[PJ_FRAME_TYPE_MAX] = {
	[PJ_FRAME_NATIVE] = JFR_FRAME_NATIVE,
	[PJ_FRAME_KERNEL] = JFR_FRAME_KERNEL,
	[PJ_FRAME_JIT] = JFR_FRAME_JIT,
	[PJ_FRAME_INLINED] = JFR_FRAME_INLINED,
	[PJ_FRAME_INTERPRETED] = JFR_FRAME_INTERPRETED,
	[PJ_FRAME_C1] = JFR_FRAME_C1,
	/* as async-profiler types them (ACC_NATIVE says what they are): its
	 * converter takes a Native frame for C code and names it alone */
	[PJ_FRAME_JAVA_NATIVE] = JFR_FRAME_JIT,
	[PJ_FRAME_UNKNOWN] = JFR_FRAME_NATIVE,
	[PJ_FRAME_MARKER] = JFR_FRAME_NATIVE,
	[PJ_FRAME_VM] = JFR_FRAME_NATIVE,
	[PJ_FRAME_CLASS] = JFR_FRAME_INLINED,
};

static bool is_java(uint8_t t)
{
	return t == PJ_FRAME_JIT || t == PJ_FRAME_INLINED ||
	       t == PJ_FRAME_INTERPRETED || t == PJ_FRAME_C1 ||
	       t == PJ_FRAME_JAVA_NATIVE;
}

int jfr_names_init(struct jfr_names *nm, const struct report *r)
{
	const struct pj_profile *p = r->p;

	memset(nm, 0, sizeof(*nm));
	nm->r = r;
	nm->method_of =
	    calloc(p->nframes ? p->nframes : 1, sizeof(*nm->method_of));
	return nm->method_of ? 0 : -1;
}

void jfr_names_free(struct jfr_names *nm)
{
	free(nm->method_of);
	free(nm->sym.text);
	free(nm->sym.at);
	u64map_free(&nm->sym.by_hash);
	u64map_free(&nm->classes);
	u64map_free(&nm->packages);
	u64map_free(&nm->java_methods);
	u64map_free(&nm->other_methods);
	free(nm->cls);
	free(nm->pkg_sym);
	free(nm->m);
	memset(nm, 0, sizeof(*nm));
}

/* The key of symbol s[0..n), made on first use; 0 when out of memory. */
static uint32_t symbol(struct jfr_names *nm, const char *s, size_t n)
{
	struct jfr_symbols *y = &nm->sym;
	uint64_t h = hash_bytes(s, n, 0) | 1;
	uint32_t k;

	if (u64map_get(&y->by_hash, h, &k) &&
	    !strncmp(y->text + y->at[k - 1], s, n) &&
	    !y->text[y->at[k - 1] + n])
		return k;
	if (y->len > UINT32_MAX - n - 1 ||
	    GROW(y->text, y->cap, y->len + n + 1) ||
	    GROW(y->at, y->cap_at, (size_t)y->n + 1)) {
		nm->oom = true;
		return 0;
	}
	memcpy(y->text + y->len, s, n);
	y->text[y->len + n] = 0;
	y->at[y->n++] = (uint32_t)y->len;
	y->len += n + 1;
	k = y->n;
	if (u64map_put(&y->by_hash, h, k)) /* a collision keeps the first */
		nm->oom = true;
	return k;
}

/* The package of binary class name cls[0..n): what is before its last
 * '/' (not a hidden class's "/0x..."), an array's element class's. */
static uint32_t package(struct jfr_names *nm, const char *cls, size_t n)
{
	uint32_t s, k;
	size_t at = 0, end = 0;

	while (at < n && cls[at] == '[')
		at++;
	if (at && at < n && cls[at] == 'L')
		at++;
	for (size_t i = at; i < n; i++)
		if (cls[i] == '/' &&
		    !(i + 2 < n && cls[i + 1] == '0' && cls[i + 2] == 'x'))
			end = i;
	if (end <= at)
		return 0;
	s = symbol(nm, cls + at, end - at);
	if (!s)
		return 0;
	if (u64map_get(&nm->packages, s, &k))
		return k;
	if (GROW(nm->pkg_sym, nm->cap_pkgs, (size_t)nm->npkgs + 1) ||
	    u64map_put(&nm->packages, s, nm->npkgs + 1)) {
		nm->oom = true;
		return 0;
	}
	nm->pkg_sym[nm->npkgs++] = s;
	return nm->npkgs;
}

/* The class key of binary class name cls[0..n) ("" for no class). */
static uint32_t class_of(struct jfr_names *nm, const char *cls, size_t n)
{
	uint32_t s = symbol(nm, cls, n), k;

	if (!s)
		return 0;
	if (u64map_get(&nm->classes, s, &k))
		return k;
	if (GROW(nm->cls, nm->cap_classes, (size_t)nm->nclasses + 1) ||
	    u64map_put(&nm->classes, s, nm->nclasses + 1)) {
		nm->oom = true;
		return 0;
	}
	k = nm->nclasses++;
	nm->cls[k].sym = s;
	nm->cls[k].pkg = package(nm, cls, n);
	return k + 1;
}

/* A class's Java name ("int[]", "a.B[]", "a.B") as the JVM's binary name
 * ("[I", "[La/B;", "a/B") in buf; its length, 0 when it does not fit. */
static size_t binary_name(const char *java, char *buf, size_t cap)
{
	static const struct {
		const char *name;
		char code;
	} prim[] = {
		{ "boolean", 'Z' }, { "byte", 'B' },   { "char", 'C' },
		{ "short", 'S' },   { "int", 'I' },    { "long", 'J' },
		{ "float", 'F' },   { "double", 'D' },
	};
	size_t n = strlen(java), dims = 0, k, need;
	char code = 0;

	while (n >= 2 && java[n - 2] == '[' && java[n - 1] == ']') {
		n -= 2;
		dims++;
	}
	for (size_t i = 0; dims && i < sizeof(prim) / sizeof(*prim); i++)
		if (strlen(prim[i].name) == n &&
		    !strncmp(java, prim[i].name, n))
			code = prim[i].code;
	need = dims + (code ? 1 : n + (dims ? 2 : 0));
	if (!n || need >= cap)
		return 0;
	memset(buf, '[', dims);
	k = dims;
	if (code) {
		buf[k++] = code;
	} else {
		if (dims)
			buf[k++] = 'L';
		for (size_t i = 0; i < n; i++)
			buf[k++] = java[i] == '.' ? '/' : java[i];
		if (dims)
			buf[k++] = ';';
	}
	buf[k] = 0;
	return k;
}

uint32_t jfr_names_class(struct jfr_names *nm, const char *java_name)
{
	char buf[NAME_LEN];
	size_t n = binary_name(java_name, buf, sizeof(buf));

	return n ? class_of(nm, buf, n) : 0;
}

static uint32_t add_method(struct jfr_names *nm, struct u64map *map,
			   uint64_t id, uint32_t cls, uint32_t name,
			   uint32_t desc, uint32_t modifiers)
{
	uint32_t n = nm->nmethods;

	if (GROW(nm->m, nm->cap_methods, (size_t)n + 1) ||
	    u64map_put(map, id, n + 1)) {
		nm->oom = true;
		return 0;
	}
	nm->m[n] = (struct jfr_method){ cls, name, desc, modifiers };
	return ++nm->nmethods;
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
static uint32_t java_method(struct jfr_names *nm, uint64_t id, const char *name)
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
	return add_method(
	    nm, &nm->java_methods, id, class_of(nm, cls, n),
	    symbol(nm, dot ? dot + 1 : name,
		   (size_t)(name + end - (dot ? dot + 1 : name))),
	    symbol(nm, desc ? desc : "()", desc ? strlen(desc) : 2), 0);
}

/* Where code that is not Java is, as a class name: its library's file
 * name ("[vdso]" as "vdso", as async-profiler strips "[kernel]"), or what
 * kind of code it is. */
static const char *code_class(const struct pj_profile *p,
			      const struct pj_frame *fr, size_t *n)
{
	const char *mod = pj_str(p, fr->module), *base = strrchr(mod, '/');
	const char *c = fr->type == PJ_FRAME_KERNEL   ? "kernel"
			: fr->type == PJ_FRAME_VM     ? "jvm"
			: fr->type == PJ_FRAME_MARKER ? "perfjava"
						      : NULL;

	base = base ? base + 1 : mod;
	*n = strlen(base);
	if (!c && *n > 2 && base[0] == '[' && base[*n - 1] == ']') {
		*n -= 2;
		return base + 1;
	}
	if (!c && *n)
		return base;
	c = c ? c : "unknown";
	*n = strlen(c);
	return c;
}

/* Native, kernel and other code as async-profiler writes it: a native
 * method named as the report names it, of the class code_class() says,
 * with async-profiler's placeholder descriptors. A class in a stack is
 * the class alone, as async-profiler writes one. */
static uint32_t other_method(struct jfr_names *nm, uint32_t f)
{
	const struct pj_profile *p = nm->r->p;
	const struct pj_frame *fr = &p->frames[f];
	const char *desc = fr->type == PJ_FRAME_KERNEL ? "(Lk;)L;" : "()L;";
	const char *c;
	char buf[NAME_LEN];
	uint32_t s, cls, k;
	size_t n;

	if (fr->type == PJ_FRAME_CLASS) {
		cls = jfr_names_class(nm, pj_str(p, fr->name));
		s = symbol(nm, "", 0);
	} else {
		c = code_class(p, fr, &n);
		cls = class_of(nm, c, n);
		report_frame_name(nm->r, f, REPORT_BARE, buf, sizeof(buf));
		s = symbol(nm, buf, strlen(buf));
	}
	if (!s || !cls)
		return 0;
	if (u64map_get(&nm->other_methods, (uint64_t)cls << 32 | s, &k))
		return k;
	return add_method(nm, &nm->other_methods, (uint64_t)cls << 32 | s, cls,
			  s, symbol(nm, desc, strlen(desc)),
			  fr->type == PJ_FRAME_CLASS ? 0 : ACC_NATIVE);
}

uint32_t jfr_names_method(struct jfr_names *nm, uint32_t f)
{
	const struct pj_profile *p = nm->r->p;
	const struct pj_frame *fr = &p->frames[f];
	bool native = fr->type == PJ_FRAME_JAVA_NATIVE;
	/* a name and whether it is native: one name can be both (every
	 * method the agent could not name is "[unknown class].") and
	 * ACC_NATIVE is the method's, so each is a method of its own */
	uint64_t id = ((uint64_t)fr->name + 1) | (uint64_t)native << 32;
	uint32_t k;

	if (nm->method_of[f])
		return nm->method_of[f];
	if (!is_java(fr->type))
		k = other_method(nm, f);
	else if (!u64map_get(&nm->java_methods, id, &k))
		k = java_method(nm, id, pj_str(p, fr->name));
	if (k && native)
		nm->m[k - 1].modifiers |= ACC_NATIVE;
	nm->method_of[f] = k;
	return k;
}

uint8_t jfr_names_frame_type(const struct pj_profile *p, uint32_t f)
{
	const struct pj_frame *fr = &p->frames[f];

	if (fr->type == PJ_FRAME_NATIVE && strstr(pj_str(p, fr->name), "::"))
		return JFR_FRAME_CPP;
	return fr->type < PJ_FRAME_TYPE_MAX ? frame_types[fr->type]
					    : JFR_FRAME_NATIVE;
}

static void pool_begin(struct jfr_buf *b, enum jfr_type_id t, uint64_t n)
{
	jfr_varint(b, t);
	jfr_varint(b, n);
}

unsigned int jfr_names_write(struct jfr_names *nm, struct jfr_buf *b)
{
	unsigned int pools = 0;

	if (nm->nmethods) {
		pools++;
		pool_begin(b, JFR_T_METHOD, nm->nmethods);
		for (uint32_t i = 0; i < nm->nmethods; i++) {
			jfr_varint(b, i + 1);
			jfr_varint(b, nm->m[i].cls);
			jfr_varint(b, nm->m[i].name);
			jfr_varint(b, nm->m[i].desc);
			/* modifiers: ACC_NATIVE for native code and Java's
			 * native methods, as async-profiler marks them; the
			 * others are not recorded */
			jfr_varint(b, nm->m[i].modifiers);
			jfr_u8(b, 0); /* not hidden */
		}
	}
	if (nm->nclasses) {
		pools++;
		pool_begin(b, JFR_T_CLASS, nm->nclasses);
		for (uint32_t i = 0; i < nm->nclasses; i++) {
			jfr_varint(b, i + 1);
			jfr_varint(b, 0); /* class loader: not recorded */
			jfr_varint(b, nm->cls[i].sym);
			jfr_varint(b, nm->cls[i].pkg);
			jfr_varint(b, 0); /* modifiers */
		}
	}
	if (nm->npkgs) {
		pools++;
		pool_begin(b, JFR_T_PACKAGE, nm->npkgs);
		for (uint32_t i = 0; i < nm->npkgs; i++) {
			jfr_varint(b, i + 1);
			jfr_varint(b, nm->pkg_sym[i]);
		}
	}
	if (nm->sym.n) {
		pools++;
		pool_begin(b, JFR_T_SYMBOL, nm->sym.n);
		for (uint32_t i = 0; i < nm->sym.n; i++) {
			jfr_varint(b, i + 1);
			jfr_symbol(b, nm->sym.text + nm->sym.at[i]);
		}
	}
	return pools;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * A JFR chunk's metadata (profile/jfr.h): the string pool and the element
 * tree (root > metadata > class > field) read into classes and fields, and
 * the decoding every value shares: varints (at most 9 bytes, the 9th whole),
 * strings (null, empty, a pool key, UTF-8, chars, Latin-1), and any value
 * skipped by its class, bounded in depth.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "profile/jfr.h"

#define MAX_CLASSES (1u << 20)
#define MAX_FIELDS (1u << 22)

__attribute__((format(printf, 3, 4))) int
jfr_damaged(struct jfr_cur *c, const uint8_t *at, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	n = (size_t)snprintf(c->err, c->errlen, "damaged JFR at offset %zu: ",
			     (size_t)(at - c->base));
	if (n < c->errlen) {
		va_start(ap, fmt);
		vsnprintf(c->err + n, c->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

int jfr_get_varint(struct jfr_cur *c, uint64_t *v)
{
	const uint8_t *p = c->p;
	uint64_t x = 0;

	for (unsigned int i = 0; i < 8; i++) {
		if (p >= c->end)
			return jfr_damaged(c, c->p,
					   "value runs past its event");
		x |= (uint64_t)(*p & 0x7f) << (7 * i);
		if (!(*p++ & 0x80)) {
			c->p = p;
			*v = x;
			return 0;
		}
	}
	if (p >= c->end)
		return jfr_damaged(c, c->p, "value runs past its event");
	*v = x | (uint64_t)*p++ << 56;
	c->p = p;
	return 0;
}

static int get_count(struct jfr_cur *c, uint64_t *n, const char *what)
{
	const uint8_t *at = c->p;

	if (jfr_get_varint(c, n))
		return -1;
	/* each of them takes a byte at least */
	if (*n > (uint64_t)(c->end - c->p))
		return jfr_damaged(c, at,
				   "%s count %llu is larger than its "
				   "event",
				   what, (unsigned long long)*n);
	return 0;
}

int jfr_get_string(struct jfr_cur *c, struct jfr_str *s)
{
	const uint8_t *at = c->p;
	uint64_t n, ch;

	memset(s, 0, sizeof(*s));
	if (c->p >= c->end)
		return jfr_damaged(c, at, "string runs past its event");
	s->enc = *c->p++;
	switch (s->enc) {
	case JFR_S_NULL:
	case JFR_S_EMPTY:
		return 0;
	case JFR_S_POOL:
		return jfr_get_varint(c, &s->key);
	case JFR_S_UTF8:
	case JFR_S_LATIN1:
	case JFR_S_CHARS:
		if (get_count(c, &n, "string length"))
			return -1;
		s->n = (uint32_t)n;
		s->p = c->p;
		if (s->enc != JFR_S_CHARS) {
			c->p += n;
			return 0;
		}
		for (uint64_t i = 0; i < n; i++)
			if (jfr_get_varint(c, &ch))
				return -1;
		return 0;
	default:
		return jfr_damaged(c, at, "unknown string encoding %u", s->enc);
	}
}

static size_t put_utf8(char *out, size_t at, size_t cap, uint32_t cp)
{
	char b[3];
	size_t k;

	if (cp < 0x80) {
		b[0] = (char)cp;
		k = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		b[1] = (char)(0x80 | (cp & 0x3f));
		k = 2;
	} else if (cp >= 0xd800 && cp < 0xe000) {
		b[0] = '?'; /* a surrogate half: not worth pairing here */
		k = 1;
	} else {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		k = 3;
	}
	if (at + k >= cap)
		return at;
	memcpy(out + at, b, k);
	return at + k;
}

size_t jfr_str_utf8(const struct jfr_str *s, char *out, size_t cap)
{
	size_t n = 0;

	if (!cap)
		return 0;
	if (s->enc == JFR_S_UTF8) {
		n = s->n < cap - 1 ? s->n : cap - 1;
		memcpy(out, s->p, n);
	} else if (s->enc == JFR_S_LATIN1) {
		for (uint32_t i = 0; i < s->n; i++)
			n = put_utf8(out, n, cap, s->p[i]);
	} else if (s->enc == JFR_S_CHARS) {
		/* validated by jfr_get_string: n varints, in bounds */
		const uint8_t *q = s->p;

		for (uint32_t i = 0; i < s->n; i++) {
			uint64_t ch = 0;

			for (unsigned int k = 0; k < 9; k++) {
				uint8_t b = *q++;

				ch |= (uint64_t)(k < 8 ? b & 0x7f : b)
				      << (7 * k);
				if (k == 8 || !(b & 0x80))
					break;
			}
			n = put_utf8(out, n, cap, (uint32_t)(ch & 0xffff));
		}
	}
	out[n] = 0;
	return n;
}

static int skip_one(const struct jfr_meta *m, struct jfr_cur *c,
		    const struct jfr_field *f, unsigned int depth)
{
	uint64_t v;

	if (f->cpool)
		return jfr_get_varint(c, &v);
	return jfr_skip_class(m, c, f->cls, depth);
}

int jfr_skip(const struct jfr_meta *m, struct jfr_cur *c,
	     const struct jfr_field *f, unsigned int depth)
{
	uint64_t n;

	if (!f->array)
		return skip_one(m, c, f, depth);
	if (get_count(c, &n, "array"))
		return -1;
	for (uint64_t i = 0; i < n; i++) {
		const uint8_t *before = c->p;

		if (skip_one(m, c, f, depth))
			return -1;
		if (c->p == before) /* values of this class take no bytes */
			break;
	}
	return 0;
}

/* A composite of varints, keys and bytes, skipped without recursion. */
static int skip_flat(const struct jfr_meta *m, struct jfr_cur *c,
		     const struct jfr_class *cl)
{
	const uint8_t *p = c->p;

	for (uint32_t i = 0; i < cl->nfields; i++) {
		const struct jfr_field *f = &m->fields[cl->first + i];
		unsigned int k = 0;

		if (!f->cpool && m->classes[f->cls].kind == JK_BYTE) {
			if (p >= c->end)
				return jfr_damaged(c, p,
						   "value runs past its event");
			p++;
			continue;
		}
		do { /* a varint: up to 9 bytes, the 9th whole */
			if (p >= c->end)
				return jfr_damaged(c, p,
						   "value runs past its event");
		} while ((*p++ & 0x80) && ++k < 9);
	}
	c->p = p;
	return 0;
}

int jfr_skip_class(const struct jfr_meta *m, struct jfr_cur *c, uint32_t k,
		   unsigned int depth)
{
	const struct jfr_class *cl = &m->classes[k];
	struct jfr_str s;
	uint64_t v;

	switch (cl->kind) {
	case JK_VARINT:
		return jfr_get_varint(c, &v);
	case JK_STRING:
		return jfr_get_string(c, &s);
	case JK_BYTE:
	case JK_F4:
	case JK_F8: {
		size_t n = cl->kind == JK_BYTE ? 1 : cl->kind == JK_F4 ? 4 : 8;

		if ((size_t)(c->end - c->p) < n)
			return jfr_damaged(c, c->p,
					   "value runs past its event");
		c->p += n;
		return 0;
	}
	default:
		if (cl->flat) /* the common case: stack frames */
			return skip_flat(m, c, cl);
		if (depth >= JFR_MAX_DEPTH)
			return jfr_damaged(c, c->p,
					   "values nested deeper than %d",
					   JFR_MAX_DEPTH);
		for (uint32_t i = 0; i < cl->nfields; i++)
			if (jfr_skip(m, c, &m->fields[cl->first + i],
				     depth + 1))
				return -1;
		return 0;
	}
}

int jfr_meta_find(const struct jfr_meta *m, const char *name)
{
	for (uint32_t i = 0; i < m->nclasses; i++)
		if (!strcmp(m->classes[i].name, name))
			return (int)i;
	return -1;
}

int jfr_field_of(const struct jfr_meta *m, uint32_t k, const char *name)
{
	const struct jfr_class *cl = &m->classes[k];

	for (uint32_t i = 0; i < cl->nfields; i++)
		if (!strcmp(m->fields[cl->first + i].name, name))
			return (int)i;
	return -1;
}

/* Parsing: fields are found under their class and sorted by it after. */
struct mparse {
	struct jfr_meta *m;
	uint32_t *owner; /* per field, its class */
	uint64_t *type; /* per field, its class id */
	size_t cap_owner, cap_type;
};

static int str_index(struct mparse *mp, struct jfr_cur *c, const char **out)
{
	const uint8_t *at = c->p;
	uint64_t i;

	if (jfr_get_varint(c, &i))
		return -1;
	if (i >= mp->m->nstrings)
		return jfr_damaged(c, at, "metadata string %llu is not defined",
				   (unsigned long long)i);
	*out = mp->m->strings[i];
	return 0;
}

static uint8_t kind_of(const char *name)
{
	static const struct {
		const char *name;
		uint8_t kind;
	} prim[] = {
		{ "boolean", JK_BYTE },
		{ "byte", JK_BYTE },
		{ "char", JK_VARINT },
		{ "short", JK_VARINT },
		{ "int", JK_VARINT },
		{ "long", JK_VARINT },
		{ "float", JK_F4 },
		{ "double", JK_F8 },
		{ "java.lang.String", JK_STRING },
	};

	for (size_t i = 0; i < sizeof(prim) / sizeof(*prim); i++)
		if (!strcmp(name, prim[i].name))
			return prim[i].kind;
	return JK_COMPOSITE;
}

static int element(struct mparse *mp, struct jfr_cur *c, unsigned int depth,
		   int64_t cls)
{
	struct jfr_meta *m = mp->m;
	const char *name, *k, *v, *a_name = "", *a_id = NULL, *a_super = NULL,
				  *a_class = NULL;
	bool cpool = false, array = false;
	const uint8_t *at = c->p;
	uint64_t n;
	int64_t mine = -1;

	if (depth >= JFR_MAX_DEPTH)
		return jfr_damaged(c, at, "metadata nested deeper than %d",
				   JFR_MAX_DEPTH);
	if (str_index(mp, c, &name) || get_count(c, &n, "attribute"))
		return -1;
	for (uint64_t i = 0; i < n; i++) {
		if (str_index(mp, c, &k) || str_index(mp, c, &v))
			return -1;
		if (!strcmp(k, "name"))
			a_name = v;
		else if (!strcmp(k, "id"))
			a_id = v;
		else if (!strcmp(k, "superType"))
			a_super = v;
		else if (!strcmp(k, "class"))
			a_class = v;
		else if (!strcmp(k, "constantPool"))
			cpool = !strcmp(v, "true");
		else if (!strcmp(k, "dimension"))
			array = strcmp(v, "0") != 0;
	}
	if (!strcmp(name, "class") && a_id) {
		struct jfr_class *cl;

		if (m->nclasses == MAX_CLASSES ||
		    GROW(m->classes, m->cap_classes, (size_t)m->nclasses + 1))
			return jfr_damaged(c, at, "too many classes");
		cl = &m->classes[m->nclasses];
		*cl = (struct jfr_class){ .id = strtoull(a_id, NULL, 10),
					  .name = a_name,
					  .super = a_super ? a_super : "",
					  .kind = kind_of(a_name) };
		if (u64map_put(&m->by_id, cl->id + 1, m->nclasses + 1))
			return jfr_damaged(c, at, "out of memory");
		mine = m->nclasses++;
	} else if (!strcmp(name, "field") && cls >= 0 && a_class) {
		uint32_t f = m->nfields;

		if (f == MAX_FIELDS ||
		    GROW(m->fields, m->cap_fields, (size_t)f + 1) ||
		    GROW(mp->owner, mp->cap_owner, (size_t)f + 1) ||
		    GROW(mp->type, mp->cap_type, (size_t)f + 1))
			return jfr_damaged(c, at, "too many fields");
		m->fields[f] = (struct jfr_field){ .name = a_name,
						   .cpool = cpool,
						   .array = array };
		mp->owner[f] = (uint32_t)cls;
		mp->type[f] = strtoull(a_class, NULL, 10);
		m->nfields++;
	}
	if (get_count(c, &n, "element"))
		return -1;
	for (uint64_t i = 0; i < n; i++)
		if (element(mp, c, depth + 1, mine))
			return -1;
	return 0;
}

/* Fields grouped by class in their order, their classes resolved. */
static int finish(struct mparse *mp, struct jfr_cur *c)
{
	struct jfr_meta *m = mp->m;
	struct jfr_field *sorted;
	uint32_t *at;

	sorted = malloc((m->nfields ? m->nfields : 1) * sizeof(*sorted));
	at = calloc(m->nclasses + 1, sizeof(*at));
	if (!sorted || !at) {
		free(sorted);
		free(at);
		return jfr_damaged(c, c->p, "out of memory");
	}
	for (uint32_t f = 0; f < m->nfields; f++) {
		uint32_t k;

		if (!u64map_get(&m->by_id, mp->type[f] + 1, &k)) {
			free(sorted);
			free(at);
			return jfr_damaged(c, c->p,
					   "field %s is of class %llu, which "
					   "is not defined",
					   m->fields[f].name,
					   (unsigned long long)mp->type[f]);
		}
		m->fields[f].cls = k - 1;
		m->classes[mp->owner[f]].nfields++;
	}
	for (uint32_t i = 0; i < m->nclasses; i++) {
		m->classes[i].first = at[i];
		at[i + 1] = at[i] + m->classes[i].nfields;
		m->classes[i].nfields = 0;
	}
	for (uint32_t f = 0; f < m->nfields; f++) {
		struct jfr_class *cl = &m->classes[mp->owner[f]];

		sorted[cl->first + cl->nfields++] = m->fields[f];
	}
	free(m->fields);
	m->fields = sorted;
	free(at);
	for (uint32_t i = 0; i < m->nclasses; i++) {
		struct jfr_class *cl = &m->classes[i];

		cl->flat = cl->kind == JK_COMPOSITE;
		for (uint32_t f = 0; f < cl->nfields && cl->flat; f++) {
			const struct jfr_field *fd = &m->fields[cl->first + f];
			uint8_t k = m->classes[fd->cls].kind;

			cl->flat = !fd->array && (fd->cpool || k == JK_VARINT ||
						  k == JK_BYTE);
		}
	}
	return 0;
}

int jfr_meta_parse(struct jfr_meta *m, struct jfr_cur *c)
{
	struct mparse mp = { .m = m };
	struct jfr_str *refs = NULL;
	size_t total = 0;
	uint64_t n;
	int ret = -1;

	memset(m, 0, sizeof(*m));
	if (get_count(c, &n, "metadata string"))
		return -1;
	if (n > (1u << 24))
		return jfr_damaged(c, c->p, "%llu metadata strings",
				   (unsigned long long)n);
	refs = malloc((n ? n : 1) * sizeof(*refs));
	m->strings = malloc((n ? n : 1) * sizeof(*m->strings));
	if (!refs || !m->strings) {
		jfr_damaged(c, c->p, "out of memory");
		goto out;
	}
	for (uint64_t i = 0; i < n; i++) {
		if (jfr_get_string(c, &refs[i]))
			goto out;
		total += 3 * (size_t)refs[i].n + 1; /* UTF-8 of the worst */
	}
	m->arena = malloc(total ? total : 1);
	if (!m->arena) {
		jfr_damaged(c, c->p, "out of memory");
		goto out;
	}
	total = 0;
	for (uint64_t i = 0; i < n; i++) {
		m->strings[i] = m->arena + total;
		total += jfr_str_utf8(&refs[i], m->arena + total,
				      3 * (size_t)refs[i].n + 1) +
			 1;
	}
	m->nstrings = (uint32_t)n;
	if (element(&mp, c, 0, -1) || finish(&mp, c))
		goto out;
	ret = 0;
out:
	free(refs);
	free(mp.owner);
	free(mp.type);
	return ret;
}

void jfr_meta_free(struct jfr_meta *m)
{
	free(m->strings);
	free(m->classes);
	free(m->fields);
	free(m->arena);
	u64map_free(&m->by_id);
	memset(m, 0, sizeof(*m));
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The decoding every JFR value shares (profile/jfr.h): varints (at most 9
 * bytes, the 9th whole), counts checked against the bytes left, strings
 * (null, empty, a pool key, UTF-8, chars, Latin-1) and their UTF-8, and
 * any value skipped by its class: bounded in depth, values that take no
 * byte never visited, each composite visited counted against the chunk's
 * budget (jfr_spend), whose end is one line saying so.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "profile/jfr.h"

__attribute__((format(printf, 3, 4))) int
jfr_damaged(struct jfr_cur *c, const uint8_t *at, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	n = (size_t)snprintf(
	    c->err, c->errlen, "damaged JFR at offset %llu: ",
	    (unsigned long long)(c->base_off + (uint64_t)(at - c->base)));
	if (n < c->errlen) {
		va_start(ap, fmt);
		vsnprintf(c->err + n, c->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

int jfr_spend(struct jfr_cur *c, uint64_t n)
{
	if (*c->work < n)
		return jfr_damaged(c, c->p,
				   "reading it would take more than %d steps "
				   "a byte; refused (a file made to exhaust "
				   "its reader)",
				   JFR_WORK_PER_BYTE);
	*c->work -= n;
	return 0;
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

int jfr_get_count(struct jfr_cur *c, uint64_t *n, const char *what)
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
		if (jfr_get_count(c, &n, "string length"))
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
		return f->empty ? 0 : skip_one(m, c, f, depth);
	if (jfr_get_count(c, &n, "array"))
		return -1;
	if (!f->cpool && m->classes[f->cls].empty)
		return 0; /* n values of no byte */
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

		if (f->empty)
			continue;
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
		if (cl->empty)
			return 0;
		if (jfr_spend(c, 1 + (uint64_t)cl->nfields))
			return -1;
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

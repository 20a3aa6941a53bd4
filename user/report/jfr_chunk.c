// SPDX-License-Identifier: GPL-2.0
/* Writing a JFR chunk: encodings, event framing, layout (report/jfr_chunk.h). */
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "report/jfr_chunk.h"

#define JFR_MAJOR 2
#define JFR_MINOR 0
#define JFR_FLAG_COMPRESSED_INTS 1
#define JFR_FLAG_FINAL_CHUNK 2

static bool reserve(struct jfr_buf *b, size_t more)
{
	if (b->oom)
		return false;
	if (more > SIZE_MAX - b->n || GROW(b->d, b->cap, b->n + more)) {
		b->oom = true;
		return false;
	}
	return true;
}

void jfr_buf_free(struct jfr_buf *b)
{
	free(b->d);
	memset(b, 0, sizeof(*b));
}

void jfr_u8(struct jfr_buf *b, uint8_t v)
{
	if (reserve(b, 1))
		b->d[b->n++] = v;
}

void jfr_be(struct jfr_buf *b, uint64_t v, unsigned int bytes)
{
	if (!reserve(b, bytes))
		return;
	for (unsigned int i = 0; i < bytes; i++)
		b->d[b->n++] = (uint8_t)(v >> (8 * (bytes - 1 - i)));
}

/* JFR's compressed integer: 7 bits a byte, low first, as LEB128, except
 * that a ninth byte holds the top 8 bits whole (the JDK's readers stop
 * there: a tenth byte would be read as the next field). */
void jfr_varint(struct jfr_buf *b, uint64_t v)
{
	if (!reserve(b, 9))
		return;
	for (unsigned int i = 0; i < 8; i++) {
		if (v < 0x80) {
			b->d[b->n++] = (uint8_t)v;
			return;
		}
		b->d[b->n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	b->d[b->n++] = (uint8_t)v;
}

void jfr_raw(struct jfr_buf *b, const void *p, size_t n)
{
	if (!n || !reserve(b, n))
		return;
	memcpy(b->d + b->n, p, n);
	b->n += n;
}

/* The length of the well-formed UTF-8 sequence at s[0..n), 0 if there is
 * none (a stray byte, overlong, a surrogate, beyond U+10FFFF, cut). */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned int c = s[0], k;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	k = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
	if (!k || c > 0xf4 || n < k)
		return 0;
	cp = c & (0x7f >> k);
	for (unsigned int i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((k == 3 && cp < 0x800) || (k == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return k;
}

/* s[0..n) as UTF-8 (encoding 3): a byte that is not part of a
 * well-formed sequence (text from the target may hold any) becomes
 * U+FFFD, as Java's decoder shows it, so that every reader gets the same
 * string. */
static void utf8(struct jfr_buf *b, const char *s, size_t n)
{
	static const char repl[3] = { (char)0xef, (char)0xbf, (char)0xbd };
	const unsigned char *u = (const unsigned char *)s;
	size_t len = 0, k;

	for (size_t i = 0; i < n; i += k ? k : 1)
		len += (k = utf8_len(u + i, n - i)) ? k : sizeof(repl);
	jfr_u8(b, 3);
	jfr_varint(b, len);
	if (len == n) {
		jfr_raw(b, s, n);
		return;
	}
	for (size_t i = 0; i < n; i += k ? k : 1)
		if ((k = utf8_len(u + i, n - i)))
			jfr_raw(b, s + i, k);
		else
			jfr_raw(b, repl, sizeof(repl));
}

void jfr_strn(struct jfr_buf *b, const char *s, size_t n)
{
	if (!n)
		jfr_u8(b, 1);
	else
		utf8(b, s, n);
}

void jfr_str(struct jfr_buf *b, const char *s)
{
	if (!s)
		jfr_u8(b, 0);
	else
		jfr_strn(b, s, strlen(s));
}

void jfr_symbol(struct jfr_buf *b, const char *s)
{
	utf8(b, s, strlen(s));
}

size_t jfr_event_begin(struct jfr_buf *b, uint64_t type)
{
	size_t at = b->n;

	jfr_u8(b, 0); /* the size, when known */
	jfr_varint(b, type);
	return at;
}

static unsigned int varint_len(uint64_t v)
{
	unsigned int n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

void jfr_event_end(struct jfr_buf *b, size_t at)
{
	size_t body, size;
	unsigned int k = 1;

	if (b->oom)
		return;
	body = b->n - at - 1; /* after the reserved byte */
	while (varint_len(body + k) != k)
		k++;
	size = body + k;
	if (k > 1) {
		if (!reserve(b, k - 1))
			return;
		memmove(b->d + at + k, b->d + at + 1, body);
		b->n += k - 1;
	}
	for (unsigned int i = 0; i < k; i++, size >>= 7)
		b->d[at + i] =
		    (uint8_t)((size & 0x7f) | (i + 1 < k ? 0x80 : 0));
}

static bool put(FILE *out, const struct jfr_buf *b)
{
	return !b->n || fwrite(b->d, 1, b->n, out) == b->n;
}

int jfr_chunk_write(FILE *out, const struct jfr_chunk_times *t,
		    const struct jfr_buf *meta, const struct jfr_buf *events,
		    const struct jfr_buf *cpool)
{
	struct jfr_buf h = { 0 };
	uint64_t meta_at = JFR_HEADER_SIZE;
	uint64_t cp_at = meta_at + meta->n + events->n;
	int ret = -1;

	jfr_be(&h, 0x464c5200u, 4); /* "FLR\0" */
	jfr_be(&h, JFR_MAJOR, 2);
	jfr_be(&h, JFR_MINOR, 2);
	jfr_be(&h, cp_at + cpool->n, 8); /* chunk size */
	jfr_be(&h, cp_at, 8);
	jfr_be(&h, meta_at, 8);
	jfr_be(&h, t->start_nanos, 8);
	jfr_be(&h, t->duration_nanos, 8);
	jfr_be(&h, t->start_ticks, 8);
	jfr_be(&h, t->ticks_per_second, 8);
	/* file state 0 (finished), two spare bytes, the flags */
	jfr_be(&h, JFR_FLAG_COMPRESSED_INTS | JFR_FLAG_FINAL_CHUNK, 4);
	if (!h.oom && !meta->oom && !events->oom && !cpool->oom &&
	    put(out, &h) && put(out, meta) && put(out, events) &&
	    put(out, cpool))
		ret = 0;
	jfr_buf_free(&h);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The JFR writer's encodings (report/jfr_chunk.c), byte for byte: varints
 * as the JDK's readers take them (a ninth byte whole), strings and symbols
 * in UTF-8 (async-profiler's converter takes no other symbol), text that is
 * not well-formed UTF-8 with U+FFFD for each stray byte, event sizes that
 * count themselves.
 */
#include <stdint.h>
#include <string.h>

#include "report/jfr_chunk.h"
#include "tap.h"

/* Whether b holds exactly want[0..n), then empties b. */
static int is(struct jfr_buf *b, const char *want, size_t n)
{
	int r = !b->oom && b->n == n && !memcmp(b->d, want, n);

	jfr_buf_free(b);
	return r;
}

#define IS(b, lit) is(b, lit, sizeof(lit) - 1)

int main(void)
{
	struct jfr_buf b = { 0 };
	size_t at;

	jfr_varint(&b, 0);
	jfr_varint(&b, 127);
	jfr_varint(&b, 128);
	ok(IS(&b, "\x00\x7f\x80\x01"), "varints 0, 127, 128");
	jfr_varint(&b, (1ull << 56) - 1);
	ok(IS(&b, "\xff\xff\xff\xff\xff\xff\xff\x7f"),
	   "2^56 - 1: eight bytes, as LEB128");
	jfr_varint(&b, 1ull << 56);
	ok(IS(&b, "\x80\x80\x80\x80\x80\x80\x80\x80\x01"),
	   "2^56: a ninth byte holds the top 8 bits");
	jfr_varint(&b, UINT64_MAX);
	ok(IS(&b, "\xff\xff\xff\xff\xff\xff\xff\xff\xff"),
	   "2^64 - 1 (a long's -1): nine bytes, never ten");
	jfr_varint(&b, (uint64_t)INT64_MIN);
	ok(IS(&b, "\x80\x80\x80\x80\x80\x80\x80\x80\x80"),
	   "Long.MIN_VALUE in nine bytes");

	jfr_str(&b, NULL);
	jfr_str(&b, "");
	jfr_str(&b, "ab");
	ok(IS(&b, "\x00\x01\x03\x02"
		  "ab"),
	   "strings: null, empty, UTF-8 with its length");
	jfr_str(&b, "caf\xc3\xa9 \xf0\x9f\x98\x80");
	ok(IS(&b, "\x03\x0a"
		  "caf\xc3\xa9 \xf0\x9f\x98\x80"),
	   "well-formed UTF-8 (2 and 4 bytes) kept as it is");
	jfr_str(&b, "a\xff"
		    "b");
	ok(IS(&b, "\x03\x05"
		  "a\xef\xbf\xbd"
		  "b"),
	   "a stray byte becomes U+FFFD");
	jfr_str(&b, "\xc0\x80\xed\xa0\x80\xe2\x82");
	ok(IS(&b, "\x03\x15\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
		  "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"),
	   "overlong, surrogate and cut sequences: U+FFFD for each byte");
	jfr_symbol(&b, "");
	jfr_symbol(&b, "java/lang/Object");
	ok(IS(&b, "\x03\x00\x03\x10"
		  "java/lang/Object"),
	   "symbols always UTF-8, the empty one too");

	for (size_t body = 120; body < 135; body++) {
		char big[200] = { 0 };
		size_t k;

		at = jfr_event_begin(&b, 7);
		jfr_raw(&b, big, body);
		jfr_event_end(&b, at);
		k = b.n - body - 1; /* the size's bytes */
		if (!ok(!b.oom && b.n == body + 1 + k &&
			    (k == 1 ? b.d[0] == b.n
				    : (b.d[0] & 0x7f) + ((size_t)b.d[1] << 7) ==
					  b.n) &&
			    b.d[k] == 7,
			"an event of %zu bytes of fields counts its size "
			"(%zu bytes) in it",
			body, b.n))
			break;
		jfr_buf_free(&b);
	}
	jfr_buf_free(&b);
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}

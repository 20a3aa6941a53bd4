/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LEB128 varints and zigzag signed varints, the primitives of the profile
 * file's payloads (include/perfjava/profile.h).
 */
#ifndef PJ_USER_VARINT_H
#define PJ_USER_VARINT_H

#include <stddef.h>
#include <stdint.h>

#define PJ_VARINT_MAX 10

/* Encodes v at p (room for PJ_VARINT_MAX bytes); returns the bytes used. */
static inline size_t pj_put_uv(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

static inline uint64_t pj_zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ -((uint64_t)v >> 63);
}

static inline int64_t pj_unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static inline size_t pj_put_sv(uint8_t *p, int64_t v)
{
	return pj_put_uv(p, pj_zigzag(v));
}

/*
 * Decodes a varint from [*p, end). Advances *p and returns 0, or returns -1
 * when the varint runs past end or is longer than 10 bytes / overflows 64
 * bits (*p is left at the offending varint).
 */
static inline int pj_get_uv(const uint8_t **p, const uint8_t *end,
			    uint64_t *out)
{
	const uint8_t *q = *p;
	uint64_t v = 0;
	unsigned int shift = 0;

	for (;;) {
		uint8_t b;

		if (q >= end || shift >= 64)
			return -1;
		b = *q++;
		if (shift == 63 && (b & 0x7e))
			return -1; /* more than 64 bits */
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			break;
		shift += 7;
	}
	*p = q;
	*out = v;
	return 0;
}

static inline int pj_get_sv(const uint8_t **p, const uint8_t *end, int64_t *out)
{
	uint64_t v;

	if (pj_get_uv(p, end, &v))
		return -1;
	*out = pj_unzigzag(v);
	return 0;
}

#endif

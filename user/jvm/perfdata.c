// SPDX-License-Identifier: GPL-2.0
/* String counters of a HotSpot perf-data image (jvm/perfdata.h). */
#include <stdint.h>
#include <string.h>

#include "jvm/perfdata.h"

/* perfMemory.hpp: PerfDataPrologue and PerfDataEntry */
struct prologue {
	uint8_t magic[4]; /* ca fe c0 c0 */
	uint8_t byte_order; /* 0 big endian, 1 little endian */
	uint8_t major, minor, accessible;
	int32_t used, overflow;
	int64_t mod_time_stamp;
	int32_t entry_offset, num_entries;
};

struct entry {
	int32_t entry_length, name_offset, vector_length;
	uint8_t data_type, flags, data_units, data_variability;
	int32_t data_offset;
};

#define MAX_ENTRIES 65536

int perfdata_string(const void *img, size_t len, const char *name, char *out,
		    size_t outlen)
{
	static const uint8_t magic[4] = { 0xca, 0xfe, 0xc0, 0xc0 };
	const char *b = img;
	struct prologue p;
	size_t off, nlen = strlen(name);
	int32_t i;

	if (len < sizeof(p) || !outlen)
		return -1;
	memcpy(&p, b, sizeof(p));
	/* only images of our own byte order (the JVM runs here) */
	if (memcmp(p.magic, magic, 4) || p.byte_order != 1 ||
	    p.entry_offset < (int32_t)sizeof(p) || p.num_entries < 0 ||
	    p.num_entries > MAX_ENTRIES)
		return -1;
	if (p.used > 0 && (size_t)p.used < len)
		len = p.used;
	off = p.entry_offset;
	for (i = 0; i < p.num_entries; i++) {
		struct entry e;
		size_t n, vlen;
		const char *s;

		if (off > len || len - off < sizeof(e))
			return -1;
		memcpy(&e, b + off, sizeof(e));
		if (e.entry_length < (int32_t)sizeof(e) ||
		    (size_t)e.entry_length > len - off || e.name_offset < 0 ||
		    e.data_offset < 0 || e.vector_length < 0 ||
		    (size_t)e.name_offset >= (size_t)e.entry_length ||
		    (size_t)e.data_offset > (size_t)e.entry_length)
			return -1;
		s = b + off + e.name_offset;
		n = strnlen(s, e.entry_length - e.name_offset);
		vlen = e.vector_length;
		if (n == nlen && !memcmp(s, name, n) && e.data_type == 'B' &&
		    vlen && vlen <= (size_t)e.entry_length - e.data_offset) {
			s = b + off + e.data_offset;
			n = strnlen(s, vlen);
			if (n >= outlen)
				n = outlen - 1;
			memcpy(out, s, n);
			out[n] = 0;
			return 0;
		}
		off += e.entry_length;
	}
	return -1;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The agent's side of the wire protocol, as a pure function of a byte buffer
 * (so that it can be fuzzed apart from the JVM): the reader's messages are
 * framed and bounded here, and each walk request is handed to a callback.
 */
#include <string.h>

#include "input.h"

long pja_parse_input(const char *buf, size_t len,
		     int (*on_req)(void *ctx, const struct pja_walk_req *r),
		     int (*on_msg)(void *ctx, uint32_t type, const char *p,
				   uint32_t plen),
		     void *ctx)
{
	size_t off = 0;

	while (len - off >= sizeof(struct pja_hdr)) {
		struct pja_hdr h;
		size_t i;

		memcpy(&h, buf + off, sizeof(h));
		if (h.len > PJA_MAX_MSG)
			return -1;
		if (len - off - sizeof(h) < h.len)
			break;
		if (h.type == PJA_STOP)
			return -1;
		if (h.type != PJA_WALK && on_msg &&
		    on_msg(ctx, h.type, buf + off + sizeof(h), h.len))
			return -1;
		for (i = 0; h.type == PJA_WALK &&
			    i + sizeof(struct pja_walk_req) <= h.len;
		     i += sizeof(struct pja_walk_req)) {
			struct pja_walk_req r;

			memcpy(&r, buf + off + sizeof(h) + i, sizeof(r));
			if (on_req(ctx, &r))
				return -1;
		}
		off += sizeof(h) + h.len;
	}
	return (long)off;
}

int pja_valid_tid(uint32_t tid)
{
	return tid > 0 && tid <= 0x3fffffffu; /* PID_MAX_LIMIT is 2^22 */
}

// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: the agent's side of the protocol (agent/input.c) on
 * bytes as the other end of its socket could send them. */
#include <stdint.h>
#include <stddef.h>
#include <string.h>

#include "input.h"

static int on_req(void *ctx, const struct pja_walk_req *r)
{
	unsigned long *n = ctx;

	*n += pja_valid_tid(r->tid);
	return r->cookie == 0xdeadull; /* a request that ends the session */
}

/* Other messages; PJA_STACK's requests taken as agent/blocked.c does. */
static int on_msg(void *ctx, uint32_t type, const char *p, uint32_t len)
{
	struct pja_walk_req r;

	for (uint32_t i = 0; type == PJA_STACK && i + sizeof(r) <= len;
	     i += sizeof(r)) {
		memcpy(&r, p + i, sizeof(r));
		if (on_req(ctx, &r))
			return -1;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned long n = 0;
	long used =
	    pja_parse_input((const char *)data, size, on_req, on_msg, &n);

	return used > (long)size;
}

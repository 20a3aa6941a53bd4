// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: the agent's side of the protocol (agent/input.c) on
 * bytes as the other end of its socket could send them. */
#include <stdint.h>
#include <stddef.h>

#include "input.h"

static int on_req(void *ctx, const struct pja_walk_req *r)
{
	unsigned long *n = ctx;

	*n += pja_valid_tid(r->tid);
	return r->cookie == 0xdeadull; /* a request that ends the session */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned long n = 0;
	long used = pja_parse_input((const char *)data, size, on_req, NULL, &n);

	return used > (long)size;
}

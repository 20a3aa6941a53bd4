// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the reader's side of the agent protocol (jvm/messages.c,
 * jvm/codemap.c, jvm/stacks.c) on bytes as a hostile agent would send them: a header and a
 * HELLO first, then any messages, fed in two parts as reads would split them.
 */
#include <stdint.h>
#include <string.h>

#include "jvm/conn_internal.h"
#include "jvm/messages.h"
#include "jvm/stacks.h"

static void on_walk(void *ctx, uint64_t cookie, int status,
		    const struct java_frame *f, unsigned int n, uint64_t t)
{
	unsigned int i;
	size_t *sum = ctx;

	for (i = 0; i < n; i++)
		*sum += strlen(f[i].name) + (f[i].file ? strlen(f[i].file) : 0);
}

/* PJA_STACK_RESULT: a blocked thread's stack, named like a walk's */
static void on_stack(void *ctx, const struct agent_stack *st)
{
	on_walk(ctx, st->cookie, st->status, st->frames, st->n, st->walk_time);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pja_hdr h;
	struct pja_hello hello;
	struct agent *a;
	const char *name;
	size_t sum = 0, split, i;
	uint64_t start, len;
	long used;

	if (size < sizeof(h) + sizeof(hello))
		return 0;
	memcpy(&h, data, sizeof(h));
	memcpy(&hello, data + sizeof(h), sizeof(hello));
	if (agent_check_hello(&h, &hello))
		return 0;
	a = agent_alloc(1, &hello);
	if (!a)
		return 0;
	a->same_ns = 1;
	agent_on_stack(a, on_stack, &sum);
	data += sizeof(h) + sizeof(hello);
	size -= sizeof(h) + sizeof(hello);
	split = size ? data[0] % (size + 1) : 0;
	used = agent_consume(a, (const char *)data, split, on_walk, &sum);
	if (used >= 0)
		agent_consume(a, (const char *)data + used, size - used,
			      on_walk, &sum);
	for (i = 0; i < a->code.n; i++) {
		start = a->code.e[i].start;
		len = a->code.e[i].end - start;
		sum += strlen(a->code.e[i].name) + len +
		       !!codemap_type_at(&a->code, start, &name);
	}
	agent_free(a);
	return sum == (size_t)-1;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What jvm/client.c and jvm/codemap.c share: the connection's state (struct
 * agent) and the few functions one calls in the other. Not for other parts;
 * they use jvm/client.h.
 */
#ifndef PJ_USER_AGENT_INTERNAL_H
#define PJ_USER_AGENT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "jvm/client.h"
#include "lib/umap.h"
#include "perfjava/agent_proto.h"

/* One entry of the JIT code map. */
struct code {
	uint64_t start, end;
	uint64_t method;
	int type;
	const char *name;
};

struct agent {
	pid_t pid;
	int fd;
	int same_ns;
	int hello_seen;
	struct pja_hello hello;
	char *out;
	size_t out_len, out_cap;
	char *in;
	size_t in_len, in_cap;
	uint64_t *pending; /* cookies of requests sent, in order */
	size_t pend_head, pend_n, pend_cap;
	struct umap strings; /* hash -> chain of interned strings */
	struct umap methods; /* jmethodID -> struct jmethod */
	struct umap threads; /* target tid -> name */
	struct umap nstid; /* reader tid -> target tid (other namespaces) */
	struct code *code; /* sorted by start, not overlapping */
	size_t ncode, code_cap;
	struct java_frame *frames;
	struct agent_stats stats;
};

/* Interns s[0..len); the copy lives until agent_stop(). */
const char *agent_intern(struct agent *a, const char *s, size_t len);
/* PJA_CODE_LOAD and PJA_CODE_UNLOAD messages (jvm/codemap.c). */
void agent_code_load(struct agent *a, const char *p, uint32_t len);
void agent_code_unload(struct agent *a, const char *p, uint32_t len);

#endif

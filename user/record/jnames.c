// SPDX-License-Identifier: GPL-2.0
/*
 * Java thread names in the profile: the JVM's full names from the agent
 * ("http-nio-8080-exec-12"), not the kernel's 15-byte comm. A name is
 * written the first time a sample of its thread comes with it known, and
 * again only when it changes; the reader keeps the last name of a tid, so it
 * replaces the comm written when the thread was opened.
 */
#include <string.h>

#include "lib/hash.h"
#include "perfjava/agent_proto.h"
#include "record/record.h"

/* u64map value: the name's hash, bit 0 set, bit 1 for the agent's thread */
#define NAMED 1u
#define IS_AGENT 2u

bool record_java_name(struct recorder *rec, uint32_t tid)
{
	const char *n = agent_thread_name(rec->agent, (pid_t)tid);
	uint32_t v, old;

	if (!n || !*n)
		return false;
	v = ((uint32_t)fnv1a_str(n, FNV_SEED) & ~3u) | NAMED;
	if (!strcmp(n, PJA_AGENT_THREAD))
		v |= IS_AGENT;
	if (u64map_get(&rec->jnames, tid, &old) && old == v)
		return v & IS_AGENT;
	if (!u64map_put(&rec->jnames, tid, v))
		pj_writer_thread(rec->w, tid, (uint32_t)rec->o.pid, n);
	return v & IS_AGENT;
}

/* Virtual threads come by the million: the ids written are forgotten past
 * this many (a name written twice only renames). */
#define VNAMES_MAX 65536

void record_vthread_name(struct recorder *rec, uint64_t id)
{
	const char *n = agent_vthread_name(rec->agent, id);
	uint32_t v;

	if (!n || u64map_get(&rec->vnames, id, &v))
		return;
	if (rec->vnames.n >= VNAMES_MAX) {
		u64map_free(&rec->vnames);
		memset(&rec->vnames, 0, sizeof(rec->vnames));
	}
	if (!u64map_put(&rec->vnames, id, 1))
		pj_writer_vthread(rec->w, id, n);
}

bool record_has_java_name(const struct recorder *rec, uint32_t tid)
{
	uint32_t v;

	return u64map_get(&rec->jnames, tid, &v);
}

// SPDX-License-Identifier: GPL-2.0
/* Java thread names from the agent into the profile; see pipeline/jnames.h. */
#include <string.h>

#include "jvm/client.h"
#include "lib/hash.h"
#include "perfjava/agent_proto.h"
#include "pipeline/jnames.h"
#include "profile/io.h"

/* u64map value: the name's hash, bit 0 set, bit 1 for the agent's thread */
#define NAMED 1u
#define IS_AGENT 2u

bool jnames_is_agent(const struct agent *a, uint32_t tid)
{
	const char *n = agent_thread_name(a, (pid_t)tid);

	return n && !strcmp(n, PJA_AGENT_THREAD);
}

bool jnames_write(struct jnames *j, struct pj_writer *w, const struct agent *a,
		  uint32_t pid, uint32_t tid)
{
	const char *n = agent_thread_name(a, (pid_t)tid);
	uint32_t v, old;

	if (!n || !*n)
		return false;
	v = ((uint32_t)fnv1a_str(n, FNV_SEED) & ~3u) | NAMED;
	if (!strcmp(n, PJA_AGENT_THREAD))
		v |= IS_AGENT;
	if (u64map_get(&j->m, tid, &old) && old == v)
		return v & IS_AGENT;
	if (!u64map_put(&j->m, tid, v))
		pj_writer_thread(w, tid, pid, n);
	return v & IS_AGENT;
}

/* Virtual threads come by the million: the ids written are forgotten past
 * this many (a name written twice only renames). */
#define VNAMES_MAX 65536

void jnames_write_vthread(struct jnames *j, struct pj_writer *w,
			  const struct agent *a, uint64_t id)
{
	const char *n = agent_vthread_name(a, id);
	uint32_t v;

	if (!n || u64map_get(&j->vnames, id, &v))
		return;
	if (j->vnames.n >= VNAMES_MAX)
		u64map_free(&j->vnames);
	if (!u64map_put(&j->vnames, id, 1))
		pj_writer_vthread(w, id, n);
}

bool jnames_has(const struct jnames *j, uint32_t tid)
{
	uint32_t v;

	return u64map_get(&j->m, tid, &v);
}

void jnames_forget(struct jnames *j, uint32_t tid)
{
	u64map_del(&j->m, tid);
}

void jnames_free(struct jnames *j)
{
	u64map_free(&j->m);
	u64map_free(&j->vnames);
}

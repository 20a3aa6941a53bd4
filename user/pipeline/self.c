// SPDX-License-Identifier: GPL-2.0
/* The agent library's code in the target; see pipeline/self.h. */
#include <string.h>

#include "pipeline/self.h"
#include "sym/maps.h"

#define FIRST_NS 100000000ULL /* 100 ms, doubling up to */
#define LAST_NS 10000000000ULL /* 10 s */

void self_find(struct self *s, pid_t pid, uint64_t now)
{
	struct pj_maps maps;

	if (s->hi || now < s->next_ns)
		return;
	s->every_ns = s->every_ns ? s->every_ns * 2 : FIRST_NS;
	if (s->every_ns > LAST_NS)
		s->every_ns = LAST_NS;
	s->next_ns = now + s->every_ns;
	if (maps_load(pid, &maps))
		return;
	/* one library's code: a JVM may map several copies of the agent
	 * (other builds, other paths), and the span from one to another
	 * holds the JVM's own code; the first one's, then */
	const char *path = NULL;

	for (unsigned int i = 0; i < maps.n; i++) {
		const struct pj_map *m = &maps.v[i];
		const char *base = strrchr(m->path, '/');

		if (!m->exec || !base || !strstr(base, "perfjava-agent"))
			continue;
		if (path && strcmp(path, m->path))
			continue;
		path = m->path;
		if (!s->hi || m->start < s->lo)
			s->lo = m->start;
		if (m->end > s->hi)
			s->hi = m->end;
	}
	maps_free(&maps);
}

bool self_stack(uint64_t lo, uint64_t hi, uint64_t pass_lo, uint64_t pass_hi,
		const uint64_t *ips, unsigned int n)
{
	for (unsigned int i = 0; i < n && hi; i++)
		if (ips[i] >= lo && ips[i] < hi)
			return ips[i] < pass_lo || ips[i] >= pass_hi;
	return false;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The profiler's own code in the target: the agent library's executable
 * mapping, so that samples taken while the agent's signal handler runs on an
 * application thread are labelled as ours (record/merge.h, in->self_*), not
 * shown as the application's frames.
 */
#include <string.h>

#include "record/record.h"
#include "sym/maps.h"

void record_find_self(struct recorder *rec)
{
	struct pj_maps maps;

	if (rec->self_hi || rec->self_tries++ % 4096)
		return;
	if (maps_load(rec->o.pid, &maps))
		return;
	for (unsigned int i = 0; i < maps.n; i++) {
		const struct pj_map *m = &maps.v[i];
		const char *base = strrchr(m->path, '/');

		if (!m->exec || !base || !strstr(base, "perfjava-agent"))
			continue;
		if (!rec->self_hi || m->start < rec->self_lo)
			rec->self_lo = m->start;
		if (m->end > rec->self_hi)
			rec->self_hi = m->end;
	}
	maps_free(&maps);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The profiler's own code in the target: the agent library's executable
 * mapping, so that samples taken while the agent's signal handler runs on an
 * application thread are labelled as ours (pipeline/merge.h, in->self_*), not
 * shown as the application's frames.
 */
#ifndef PJ_USER_PIPELINE_SELF_H
#define PJ_USER_PIPELINE_SELF_H

#include <stdint.h>
#include <sys/types.h>

struct self {
	uint64_t lo, hi; /* its code; hi 0: not found (yet) */
	uint64_t next_ns, every_ns; /* when the maps are read again */
};

/* Looks for the agent library in pid's maps once the agent is there: now,
 * then less and less often until found. */
void self_find(struct self *s, pid_t pid, uint64_t now);

#endif

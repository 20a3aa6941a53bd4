/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The profiler's own code in the target: the agent library's executable
 * mapping, so that samples taken while the agent's code runs on an
 * application thread (its signal handler, its JVMTI callbacks, its
 * Unsafe.park hook's own work) are known as ours (pipeline/emit.c leaves them
 * out but with --self, pipeline/merge.h labels them), not shown as the
 * application's frames. The hook's call of the park it wraps (the agent's
 * pass-through code, PJA_PARK) is the application's park.
 */
#ifndef PJ_USER_PIPELINE_SELF_H
#define PJ_USER_PIPELINE_SELF_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct self {
	uint64_t lo, hi; /* its code; hi 0: not found (yet) */
	uint64_t next_ns, every_ns; /* when the maps are read again */
};

/* Looks for the agent library in pid's maps once the agent is there: now,
 * then less and less often until found. */
void self_find(struct self *s, pid_t pid, uint64_t now);
/* Whether the user stack ips[0..n) (leaf first) is the agent's work: its
 * innermost address in the agent's code [lo, hi) is not in its
 * pass-through code [pass_lo, pass_hi). */
bool self_stack(uint64_t lo, uint64_t hi, uint64_t pass_lo, uint64_t pass_hi,
		const uint64_t *ips, unsigned int n);

#endif

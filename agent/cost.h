/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PJ_AGENT_COST_H
#define PJ_AGENT_COST_H

#include "pja.h"

/* cost.c: the agent's own cost, for the reader's summary: the handler's
 * parts per walk (their means and medians) and the session thread's CPU
 * time moving walks to the reader. */
void cost_reset(void);
/* ticks[PJW_PARTS] of one walk, own when vmwalk took it */
void cost_walk(const uint32_t *ticks, int own);
void cost_pump(uint64_t cpu_ns, uint64_t walks);
void cost_put(struct pjw_head *hd);

#endif

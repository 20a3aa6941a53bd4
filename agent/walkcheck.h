/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PJ_AGENT_WALKCHECK_H
#define PJ_AGENT_WALKCHECK_H

#include "pja.h"

/* walkcheck.c (tests: PERFJAVA_AGENT_WALKCHECK, from testhooks.c): a walk
 * of vmwalk's kept, then compared with its AsyncGetCallTrace twin
 * (PJA_WALK_CHECK: the same thread and time); counts into the ring's head.
 * On the session thread. */
void walkcheck_reset(void);
void walkcheck_keep(const struct pjw_rec *r, const struct pja_frame *f,
		    unsigned int n);
void walkcheck_twin(const struct pjw_rec *r, const struct pja_frame *f,
		    unsigned int n);
void walkcheck_put(struct pjw_head *hd);

#endif

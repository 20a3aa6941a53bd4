/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PJ_AGENT_COPIES_H
#define PJ_AGENT_COPIES_H

#include "pja.h"

/* copies.c: the library pinned for the JVM's life (0, or -1 when it
 * cannot be); one session at a time among the copies of the agent in the
 * JVM: copies_lock is 1 when another copy has one, else 0 (held until
 * copies_unlock). */
int copies_pin(void);
int copies_lock(void);
void copies_unlock(void);

#endif

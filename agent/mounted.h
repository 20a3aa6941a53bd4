/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PJ_AGENT_MOUNTED_H
#define PJ_AGENT_MOUNTED_H

#include "pja.h"

/* mounted.c: each carrier's mounted virtual thread. */
/* The virtual thread mounted on carrier thread tid, 0 when none (or the
 * table is off); async-signal-safe. */
uint64_t mounted_vthread(pid_t tid);
/* The calling thread mounts virtual thread id (0: unmounts). */
void mounted_set(uint64_t id);
/* Carrier tid runs id unless a mount since said otherwise; -1 when the
 * table is full. */
int mounted_first(pid_t tid, uint64_t id);
/* The table read (on) or not and emptied (off). */
void mounted_on(void);
void mounted_off(void);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PJ_AGENT_CLOCK_H
#define PJ_AGENT_CLOCK_H

#include "pja.h"

/* clock.c: CLOCK_MONOTONIC in ns, and the calling thread's id; both
 * async-signal-safe. pja_ticks() is the cheapest clock there is (the TSC
 * where there is one), for the handler's timing of its own parts;
 * pja_ticks_ns() converts a count of them, calibrated against pja_now()
 * (not in a signal handler). */
uint64_t pja_now(void);
uint64_t pja_ticks(void);
uint64_t pja_ticks_ns(uint64_t ticks);
pid_t pja_gettid(void);

#endif

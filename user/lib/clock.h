/* SPDX-License-Identifier: GPL-2.0 */
/* The monotonic clock, the one time base of record (CLOCK_MONOTONIC is also
 * what the perf events are asked to stamp samples with). */
#ifndef PJ_USER_CLOCK_H
#define PJ_USER_CLOCK_H

#include <stdint.h>

/* CLOCK_MONOTONIC now, in nanoseconds and in milliseconds. */
uint64_t now_ns(void);
long long now_ms(void);

#endif

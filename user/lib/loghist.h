/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A histogram of u64 values (latencies in ns) in logarithmic buckets: 16 a
 * power of two, so a quantile is known within 1/16 of its value, in a fixed
 * 8 KiB however many values are added (a recording may last days).
 */
#ifndef PJ_USER_LOGHIST_H
#define PJ_USER_LOGHIST_H

#include <stdbool.h>
#include <stdint.h>

#define LOGHIST_SUB 16u /* buckets per power of two */
#define LOGHIST_N (61u * LOGHIST_SUB)

struct loghist {
	uint64_t n, max;
	uint64_t count[LOGHIST_N];
};

void loghist_add(struct loghist *h, uint64_t v);

/* The q-quantile (0 <= q <= 1) of the values added: the upper end of its
 * bucket, at most the largest value; false when none was added. */
bool loghist_quantile(const struct loghist *h, double q, uint64_t *v);

#endif

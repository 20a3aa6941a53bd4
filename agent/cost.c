// SPDX-License-Identifier: GPL-2.0
/*
 * The agent's own cost, for the reader's summary and `make bench`: the
 * signal handler times its parts (the walk's entry, the walk, recoveries,
 * frame typing, the ring write) in ticks and leaves them in each record of
 * its private ring; the session thread adds them up here, off the hot path,
 * as sums and as histograms for medians (a walk the scheduler preempted
 * weighs on a mean, not on a median), and writes both into the shared
 * ring's head with its own CPU time per walk moved.
 */
#include <string.h>

#include "clock.h"
#include "cost.h"

/* log-linear buckets: exact under 8 ticks, then 8 per doubling (medians
 * within 12 %) */
#define NBUCKET (8 + 29 * 8)

static struct {
	uint64_t timed, own, sum[PJW_PARTS], walks, pump_ns;
	uint32_t hist[PJW_PARTS][NBUCKET];
} c;

void cost_reset(void)
{
	memset(&c, 0, sizeof(c));
}

static unsigned int bucket(uint32_t t)
{
	unsigned int o;

	if (t < 8)
		return t;
	o = 31 - (unsigned int)__builtin_clz(t); /* 3..31 */
	return 8 + (o - 3) * 8 + ((t >> (o - 3)) & 7);
}

/* The lower edge of bucket b, in ticks. */
static uint64_t edge(unsigned int b)
{
	if (b < 8)
		return b;
	return (uint64_t)(8 + (b - 8) % 8) << ((b - 8) / 8);
}

void cost_walk(const uint32_t *ticks, int own)
{
	unsigned int i;

	c.timed++;
	c.own += own != 0;
	for (i = 0; i < PJW_PARTS; i++) {
		c.sum[i] += ticks[i];
		c.hist[i][bucket(ticks[i])]++;
	}
}

void cost_pump(uint64_t cpu_ns, uint64_t walks)
{
	c.pump_ns += cpu_ns;
	c.walks += walks;
}

static uint64_t median(const uint32_t *h)
{
	uint64_t n = 0, half = (c.timed + 1) / 2;
	unsigned int b;

	for (b = 0; b < NBUCKET; b++) {
		n += h[b];
		if (n >= half)
			return pja_ticks_ns((edge(b) + edge(b + 1)) / 2);
	}
	return 0;
}

void cost_put(struct pjw_head *hd)
{
	unsigned int i;

	__atomic_store_n(&hd->timed, c.timed, __ATOMIC_RELAXED);
	__atomic_store_n(&hd->own, c.own, __ATOMIC_RELAXED);
	for (i = 0; i < PJW_PARTS; i++) {
		__atomic_store_n(&hd->part_ns[i], pja_ticks_ns(c.sum[i]),
				 __ATOMIC_RELAXED);
		__atomic_store_n(&hd->part_med_ns[i], median(c.hist[i]),
				 __ATOMIC_RELAXED);
	}
	__atomic_store_n(&hd->pumped, c.walks, __ATOMIC_RELAXED);
	__atomic_store_n(&hd->pump_ns, c.pump_ns, __ATOMIC_RELAXED);
}

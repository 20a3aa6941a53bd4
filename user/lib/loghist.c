// SPDX-License-Identifier: GPL-2.0
/* Logarithmic histograms; see lib/loghist.h. */
#include "lib/loghist.h"

/* Values below 16 have a bucket each; above, the power of two p (4..63)
 * and the next four bits choose one of 16. */
static unsigned int bucket(uint64_t v)
{
	unsigned int p;

	if (v < LOGHIST_SUB)
		return (unsigned int)v;
	p = 63u - (unsigned int)__builtin_clzll(v);
	return (p - 3) * LOGHIST_SUB + (unsigned int)((v >> (p - 4)) & 15);
}

/* The largest value of bucket b */
static uint64_t upper(unsigned int b)
{
	unsigned int p = b / LOGHIST_SUB + 3;
	uint64_t low;

	if (b < LOGHIST_SUB)
		return b;
	low = (uint64_t)(LOGHIST_SUB + b % LOGHIST_SUB) << (p - 4);
	return low + (1ull << (p - 4)) - 1;
}

void loghist_add(struct loghist *h, uint64_t v)
{
	h->count[bucket(v)]++;
	h->n++;
	if (v > h->max)
		h->max = v;
}

bool loghist_quantile(const struct loghist *h, double q, uint64_t *v)
{
	uint64_t want, seen = 0;
	unsigned int b;

	if (!h->n)
		return false;
	/* the value of rank floor(q * n) (from 0), as of a sorted array */
	want = (uint64_t)(q * (double)h->n);
	if (want >= h->n)
		want = h->n - 1;
	for (b = 0; b < LOGHIST_N; b++) {
		seen += h->count[b];
		if (seen > want)
			break;
	}
	*v = b < LOGHIST_N && upper(b) < h->max ? upper(b) : h->max;
	return true;
}

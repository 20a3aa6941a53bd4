// SPDX-License-Identifier: GPL-2.0
/* lib/sort.h: sorted, nothing lost, and never quadratic (a hostile file
 * chooses the order of its symbols). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/sort.h"
#include "tap.h"

static unsigned long compares;

static int less(const int *a, const int *b)
{
	compares++;
	return *a < *b;
}

SORT_DEFINE(sort_ints, int, less)

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

/* v[i] for input kind k */
static int value(int k, size_t i, size_t n, unsigned int *seed)
{
	switch (k) {
	case 0:
		return (int)(rand_r(seed) % 1000003);
	case 1:
		return (int)i; /* sorted */
	case 2:
		return (int)(n - i); /* reversed */
	case 3:
		return (int)(i % 3); /* few values */
	case 4:
		return 7; /* all equal */
	case 5:
		return i & 1 ? (int)i : (int)(n - i); /* organ pipe */
	default:
		return (int)(rand_r(seed) % 5);
	}
}

/* McIlroy's adversary ("A killer adversary for quicksort", 1999): values
 * decided only as the sort compares them, so as to make any quicksort
 * quadratic; the introsort must stay n log n. */
static int *adv_val, adv_gas, adv_solid, adv_candidate;

static int adv_less(const int *a, const int *b)
{
	int x = *a, y = *b;

	compares++;
	if (adv_val[x] == adv_gas && adv_val[y] == adv_gas)
		adv_val[x == adv_candidate ? x : y] = adv_solid++;
	if (adv_val[x] == adv_gas)
		adv_candidate = x;
	else if (adv_val[y] == adv_gas)
		adv_candidate = y;
	return adv_val[x] < adv_val[y];
}

SORT_DEFINE(sort_adv, int, adv_less)

static void adversary(size_t n)
{
	int *ix = malloc(n * sizeof(*ix));
	size_t lg = 1, i;
	int sorted = 1;

	adv_val = malloc(n * sizeof(*adv_val));
	if (!ix || !adv_val)
		exit(1);
	adv_gas = (int)n;
	adv_solid = 0;
	adv_candidate = -1;
	for (i = 0; i < n; i++) {
		ix[i] = (int)i;
		adv_val[i] = adv_gas;
	}
	compares = 0;
	sort_adv(ix, n);
	for (i = 1; i < n; i++)
		if (adv_val[ix[i]] < adv_val[ix[i - 1]])
			sorted = 0;
	while ((1ul << lg) < n)
		lg++;
	ok(sorted && compares <= 8 * n * lg,
	   "McIlroy's adversary, %zu elements: sorted in %lu comparisons "
	   "(8 n log2 n: %zu)",
	   n, compares, 8 * n * lg);
	free(ix);
	free(adv_val);
}

static const char *const kinds[] = { "random",	     "sorted",	  "reversed",
				     "three values", "all equal", "interleaved",
				     "five values" };

int main(void)
{
	unsigned int seed = 1;

	for (int k = 0; k < 7; k++) {
		size_t sizes[] = { 1, 2, 17, 1000, 100000 };
		int ok_all = 1;
		unsigned long worst = 0;

		for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
			size_t n = sizes[s], lg = 1;
			int *v = malloc((n + 1) * sizeof(*v));
			int *w = malloc((n + 1) * sizeof(*w));

			if (!v || !w)
				return 1;
			for (size_t i = 0; i < n; i++)
				v[i] = w[i] = value(k, i, n, &seed);
			compares = 0;
			sort_ints(v, n);
			qsort(w, n, sizeof(*w), cmp_int);
			if (memcmp(v, w, n * sizeof(*v)))
				ok_all = 0;
			while ((1ul << lg) < n)
				lg++;
			if (n > 1 && compares / (n * lg) > worst)
				worst = compares / (n * lg);
			free(v);
			free(w);
		}
		ok(ok_all, "%s: sorted as qsort sorts, nothing lost", kinds[k]);
		ok(worst <= 8, "%s: at most 8 n log2 n comparisons (%lu)",
		   kinds[k], worst);
	}
	adversary(20000);
	return tap_done();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The events known by name: software and generic hardware events, the
 * hardware cache events (perf's names and aliases) and raw rNNNN, for the
 * parser (events/spec.c) and `perfjava list`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "events/spec.h"
#include "events/table.h"

#define SW PERF_TYPE_SOFTWARE
#define HW PERF_TYPE_HARDWARE

static const struct events_symbol symbols[] = {
	{ "cpu-clock", SW, PERF_COUNT_SW_CPU_CLOCK, "ns", NULL },
	{ "task-clock", SW, PERF_COUNT_SW_TASK_CLOCK, "ns", NULL },
	{ "page-faults", SW, PERF_COUNT_SW_PAGE_FAULTS, "events", NULL },
	{ "faults", SW, PERF_COUNT_SW_PAGE_FAULTS, "events", "page-faults" },
	{ "minor-faults", SW, PERF_COUNT_SW_PAGE_FAULTS_MIN, "events", NULL },
	{ "major-faults", SW, PERF_COUNT_SW_PAGE_FAULTS_MAJ, "events", NULL },
	{ "context-switches", SW, PERF_COUNT_SW_CONTEXT_SWITCHES, "events",
	  NULL },
	{ "cs", SW, PERF_COUNT_SW_CONTEXT_SWITCHES, "events",
	  "context-switches" },
	{ "cpu-migrations", SW, PERF_COUNT_SW_CPU_MIGRATIONS, "events", NULL },
	{ "migrations", SW, PERF_COUNT_SW_CPU_MIGRATIONS, "events",
	  "cpu-migrations" },
	{ "dummy", SW, PERF_COUNT_SW_DUMMY, "events", NULL },
	{ "alignment-faults", SW, PERF_COUNT_SW_ALIGNMENT_FAULTS, "events",
	  NULL },
	{ "emulation-faults", SW, PERF_COUNT_SW_EMULATION_FAULTS, "events",
	  NULL },
	{ "cycles", HW, PERF_COUNT_HW_CPU_CYCLES, "cycles", NULL },
	{ "cpu-cycles", HW, PERF_COUNT_HW_CPU_CYCLES, "cycles", "cycles" },
	{ "instructions", HW, PERF_COUNT_HW_INSTRUCTIONS, "instructions",
	  NULL },
	{ "cache-references", HW, PERF_COUNT_HW_CACHE_REFERENCES, "events",
	  NULL },
	{ "cache-misses", HW, PERF_COUNT_HW_CACHE_MISSES, "events", NULL },
	{ "branch-instructions", HW, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
	  "events", NULL },
	{ "branches", HW, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, "events",
	  "branch-instructions" },
	{ "branch-misses", HW, PERF_COUNT_HW_BRANCH_MISSES, "events", NULL },
	{ "bus-cycles", HW, PERF_COUNT_HW_BUS_CYCLES, "cycles", NULL },
	{ "ref-cycles", HW, PERF_COUNT_HW_REF_CPU_CYCLES, "cycles", NULL },
	{ "stalled-cycles-frontend", HW, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND,
	  "cycles", NULL },
	{ "stalled-cycles-backend", HW, PERF_COUNT_HW_STALLED_CYCLES_BACKEND,
	  "cycles", NULL },
};

const struct events_symbol *events_symbols(unsigned int *n)
{
	*n = sizeof(symbols) / sizeof(symbols[0]);
	return symbols;
}

/* Hardware cache events, perf's names and aliases; the first is canonical. */
static const char *const cache_names[PERF_COUNT_HW_CACHE_MAX][5] = {
	[PERF_COUNT_HW_CACHE_L1D] = { "L1-dcache", "l1-d", "l1d", "L1-data" },
	[PERF_COUNT_HW_CACHE_L1I] = { "L1-icache", "l1-i", "l1i",
				      "L1-instruction" },
	[PERF_COUNT_HW_CACHE_LL] = { "LLC", "L2" },
	[PERF_COUNT_HW_CACHE_DTLB] = { "dTLB", "d-tlb", "Data-TLB" },
	[PERF_COUNT_HW_CACHE_ITLB] = { "iTLB", "i-tlb", "Instruction-TLB" },
	[PERF_COUNT_HW_CACHE_BPU] = { "branch", "branches", "bpu", "btb",
				      "bpc" },
	[PERF_COUNT_HW_CACHE_NODE] = { "node" },
};
static const char *const cache_ops[PERF_COUNT_HW_CACHE_OP_MAX][5] = {
	[PERF_COUNT_HW_CACHE_OP_READ] = { "load", "loads", "read" },
	[PERF_COUNT_HW_CACHE_OP_WRITE] = { "store", "stores", "write" },
	[PERF_COUNT_HW_CACHE_OP_PREFETCH] = { "prefetch", "prefetches",
					      "speculative-read",
					      "speculative-load" },
};
static const char *const cache_results[PERF_COUNT_HW_CACHE_RESULT_MAX][5] = {
	[PERF_COUNT_HW_CACHE_RESULT_ACCESS] = { "refs", "Reference", "ops",
						"access" },
	[PERF_COUNT_HW_CACHE_RESULT_MISS] = { "misses", "miss" },
};
/* Which operations each cache has (perf's table). */
static const uint8_t cache_has_op[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D] = 7,	[PERF_COUNT_HW_CACHE_L1I] = 5,
	[PERF_COUNT_HW_CACHE_LL] = 7,	[PERF_COUNT_HW_CACHE_DTLB] = 7,
	[PERF_COUNT_HW_CACHE_ITLB] = 1, [PERF_COUNT_HW_CACHE_BPU] = 1,
	[PERF_COUNT_HW_CACHE_NODE] = 7,
};

unsigned int events_cache_names(char (*names)[64], unsigned int max)
{
	unsigned int n = 0;

	for (int c = 0; c < PERF_COUNT_HW_CACHE_MAX; c++)
		for (int op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++) {
			if (!(cache_has_op[c] & (1 << op)))
				continue;
			if (n < max)
				snprintf(names[n], 64, "%s-%s",
					 cache_names[c][0], cache_ops[op][1]);
			n++;
			if (n < max)
				snprintf(names[n], 64, "%s-%s-misses",
					 cache_names[c][0], cache_ops[op][0]);
			n++;
		}
	return n;
}

/* Length of the alias in list that s starts with, followed by '-' or end. */
static size_t match_alias(const char *s, const char *const *list, int *idx,
			  int count)
{
	for (int i = 0; i < count; i++)
		for (int j = 0; j < 5 && list[i * 5 + j]; j++) {
			size_t l = strlen(list[i * 5 + j]);

			if (!strncasecmp(s, list[i * 5 + j], l) &&
			    (s[l] == '-' || !s[l])) {
				*idx = i;
				return l;
			}
		}
	return 0;
}

/* "L1-dcache-load-misses" -> PERF_TYPE_HW_CACHE config; -1 if not one. */
static int parse_cache(const char *s, uint64_t *config)
{
	int cache, op = PERF_COUNT_HW_CACHE_OP_READ,
		   res = PERF_COUNT_HW_CACHE_RESULT_ACCESS, v;
	bool any = false;
	size_t l;

	l = match_alias(s, &cache_names[0][0], &cache, PERF_COUNT_HW_CACHE_MAX);
	if (!l)
		return -1;
	s += l;
	if (*s == '-' && (l = match_alias(s + 1, &cache_ops[0][0], &v,
					  PERF_COUNT_HW_CACHE_OP_MAX))) {
		op = v;
		s += l + 1;
		any = true;
	}
	if (*s == '-' && (l = match_alias(s + 1, &cache_results[0][0], &v,
					  PERF_COUNT_HW_CACHE_RESULT_MAX))) {
		res = v;
		s += l + 1;
		any = true;
	}
	if (*s || !any)
		return -1;
	*config = (uint64_t)cache | (uint64_t)op << 8 | (uint64_t)res << 16;
	return 0;
}

/* Software, hardware, cache and raw events by name. */
bool events_lookup_symbolic(const char *base, struct pj_event *ev)
{
	uint64_t config;
	size_t len = strlen(base);

	for (size_t i = 0; i < sizeof(symbols) / sizeof(symbols[0]); i++)
		if (!strcmp(symbols[i].name, base)) {
			ev->attr.type = symbols[i].type;
			ev->attr.config = symbols[i].config;
			ev->kind = symbols[i].type == SW ? PJ_EV_SOFTWARE
							 : PJ_EV_HARDWARE;
			snprintf(ev->unit, sizeof(ev->unit), "%s",
				 symbols[i].unit);
			return true;
		}
	if (!parse_cache(base, &config)) {
		ev->attr.type = PERF_TYPE_HW_CACHE;
		ev->attr.config = config;
		ev->kind = PJ_EV_CACHE;
		snprintf(ev->unit, sizeof(ev->unit), "events");
		return true;
	}
	if (base[0] == 'r' && len > 1 && len <= 17 &&
	    strspn(base + 1, "0123456789abcdefABCDEF") == len - 1) {
		ev->attr.type = PERF_TYPE_RAW;
		ev->attr.config = strtoull(base + 1, NULL, 16);
		ev->kind = PJ_EV_RAW;
		snprintf(ev->unit, sizeof(ev->unit), "events");
		return true;
	}
	return false;
}

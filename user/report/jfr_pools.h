/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The constant pools of a JFR file written from a profile: the events
 * refer to threads, stack traces, thread states and strings by key, and
 * the checkpoint at the end of the chunk defines what they refer to (and
 * below them methods, classes, packages and symbols, each once).
 *
 * Keys: a thread is its tid + 1, a stack trace its stack id + 1, a thread
 * state its report state (report/wallview.c) + 1, a string of
 * perfjava.EventSample the profile's string id (details) or
 * JFR_EVENT_NAME_KEY + the event's index (its name). Key 0 is null.
 */
#ifndef PJ_USER_REPORT_JFR_POOLS_H
#define PJ_USER_REPORT_JFR_POOLS_H

#include "lib/u64map.h"
#include "report/jfr_chunk.h"
#include "report/report.h"

#define JFR_EVENT_NAME_KEY (1ull << 32)

struct jfr_symbols {
	char *text; /* the symbols, NUL-separated */
	size_t len, cap;
	uint32_t *at; /* symbol key k starts at text + at[k - 1] */
	uint32_t n, cap_at;
	struct u64map by_hash; /* FNV-1a | 1 -> key */
};

struct jfr_pools {
	const struct report *r;
	uint8_t *stack_used; /* per stack id */
	struct u64map threads; /* tid + 1 -> 1 */
	struct u64map strings; /* key + 1 -> 1 */
	unsigned int states; /* bit per state key */
	uint32_t *method_of; /* frame id -> method key, 0 = not yet */
	struct jfr_symbols sym;
	struct u64map classes; /* class symbol -> class key */
	struct jfr_out_class {
		uint32_t sym, pkg;
	} * cls;
	uint32_t nclasses, cap_classes;
	struct u64map packages; /* package symbol -> package key */
	uint32_t *pkg_sym, npkgs, cap_pkgs;
	struct u64map java_methods; /* name string id + 1 -> method key */
	struct u64map native_methods; /* class key << 32 | name symbol -> key */
	struct jfr_out_method {
		uint32_t cls, name, desc, modifiers;
	} * m;
	uint32_t nmethods, cap_methods;
	bool oom;
};

/* 0, or -1 out of memory. */
int jfr_pools_init(struct jfr_pools *pl, const struct report *r);
void jfr_pools_free(struct jfr_pools *pl);
/* Marks what sample s refers to; the keys of its stack and thread. */
void jfr_pools_use(struct jfr_pools *pl, const struct pj_sample *s);
static inline void jfr_pools_use_state(struct jfr_pools *pl, unsigned int k)
{
	pl->states |= 1u << k;
}
static inline void jfr_pools_use_string(struct jfr_pools *pl, uint64_t key)
{
	if (key && u64map_put(&pl->strings, key + 1, 1))
		pl->oom = true;
}
/* The checkpoint event with every pool that has an entry. */
void jfr_pools_write(struct jfr_pools *pl, struct jfr_buf *b, uint64_t ticks);

#endif

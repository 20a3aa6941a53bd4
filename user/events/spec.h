/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Event specs as perf users type them, turned into perf_event_attr, and the
 * explanation of an event that cannot open. The syntax (perf's):
 *
 *   cpu-clock, page-faults, ...          software events
 *   cycles, instructions, ...            generic hardware events
 *   L1-dcache-load-misses, LLC-loads ... hardware cache events
 *   rNNNN                                raw PMU event (hex config)
 *   pmu/term=value,term,.../             a PMU from sysfs, its format terms
 *   pmu/named-event/                     a PMU's events/ entry (cpu/mem-loads/)
 *   subsystem:name                       a tracepoint (tracefs)
 *   mem:ADDR[/LEN][:rwx]                 a hardware breakpoint
 *
 * Any event takes terms between slashes: period=N, freq=N, name=NAME
 * (cpu-clock/period=1000000/, cycles/freq=999/); PMU and raw events also
 * config=, config1=, config2=. Modifiers follow a colon or the closing
 * slash: u (user only), k (kernel only), h (hypervisor), p/pp/ppp (precise).
 * Events are separated by commas.
 */
#ifndef PJ_USER_EVENTS_H
#define PJ_USER_EVENTS_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pj_event_kind {
	PJ_EV_SOFTWARE,
	PJ_EV_HARDWARE, /* generic: cycles, instructions, ... */
	PJ_EV_CACHE, /* PERF_TYPE_HW_CACHE */
	PJ_EV_RAW, /* rNNNN */
	PJ_EV_PMU, /* pmu/.../ */
	PJ_EV_TRACEPOINT,
	PJ_EV_BREAKPOINT,
};

struct pj_event {
	char name[256]; /* as given, e.g. "cycles:u", or name= */
	char unit[16]; /* what a period counts: "ns", "events", ... */
	struct perf_event_attr attr; /* type, config*, exclude_*, precise_ip */
	uint64_t period; /* from a per-event term, 0 = the default */
	uint64_t freq;
	bool hardware; /* needs a hardware PMU */
	bool tracepoint;
	enum pj_event_kind kind;
	char pmu[64]; /* the PMU of a pmu/.../ event */
	char tp_sys[64], tp_name[128]; /* a tracepoint's subsystem and name */
};

/*
 * Parses a comma-separated list of event specs into *out (malloc'ed). 0 on
 * success; -1 with a one-line reason in err ("unknown event 'foo'; see
 * perfjava list").
 */
int events_parse(const char *list, struct pj_event **out, unsigned int *n,
		 char *err, size_t errlen);
/* The length of the event spec at p, up to its comma (commas between its
 * slashes are its terms'). */
size_t events_token_len(const char *p);
/* Parses one spec (no commas outside slashes). 0, or -1 with err set. */
int events_parse_one(const char *spec, struct pj_event *ev, char *err,
		     size_t errlen);
/*
 * One line explaining why opening ev failed with errno e, and what to do
 * ("no hardware PMU on this machine; try -e cpu-clock").
 */
void events_open_error(const struct pj_event *ev, int e, char *buf, size_t len);
/* The default event: cycles where the PMU counts it, else cpu-clock. */
const char *events_default(bool *fallback);
/* cpu-clock and task-clock: their period is in ns, sampled by a timer. */
bool event_is_clock(const struct pj_event *ev);
/* The samples a second ev takes at most on one CPU, as its attr is set: 0
 * when it never samples, UINT64_MAX when that is not known (a period of
 * counts: cycles, faults). */
uint64_t event_max_rate(const struct pj_event *ev);
/*
 * Software events other than the clocks, tracepoints and breakpoints: the
 * kernel takes every hit as a sample (period 1) whenever PERF_SAMPLE_PERIOD
 * is asked for, whatever period was set; their natural period is 1.
 */
bool event_counts_hits(const struct pj_event *ev);
/* "software", "hardware", "hardware cache", ... */
const char *events_kind_name(enum pj_event_kind k);

/* Tables for `perfjava list`. */
struct events_symbol {
	const char *name;
	uint32_t type;
	uint64_t config;
	const char *unit;
	const char *alias_of; /* NULL for the canonical name */
};
const struct events_symbol *events_symbols(unsigned int *n);
/* The perf names of the hardware cache events: "L1-dcache-loads", ... */
unsigned int events_cache_names(char (*names)[64], unsigned int max);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/* Event specs as perf users type them ("cpu-clock", "cycles:u", ...) turned
 * into perf_event_attr, and the explanation of an event that cannot open. */
#ifndef PJ_USER_EVENTS_H
#define PJ_USER_EVENTS_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pj_event {
	char name[128]; /* as given, e.g. "cycles:u" */
	char unit[16]; /* what a period counts: "ns", "events", ... */
	struct perf_event_attr attr; /* type, config*, exclude_*, precise_ip */
	uint64_t period; /* from a per-event modifier, 0 = the default */
	uint64_t freq;
	bool hardware; /* needs a hardware PMU */
	bool tracepoint;
};

/*
 * Parses a comma-separated list of event specs into *out (malloc'ed). 0 on
 * success; -1 with a one-line reason in err ("unknown event 'foo'; see
 * perfjava list").
 */
int events_parse(const char *list, struct pj_event **out, unsigned int *n,
		 char *err, size_t errlen);
/*
 * One line explaining why opening ev failed with errno e, and what to do
 * ("no hardware PMU on this machine; try -e cpu-clock").
 */
void events_open_error(const struct pj_event *ev, int e, char *buf, size_t len);
/* The default event: cycles where the PMU counts it, else cpu-clock. */
const char *events_default(bool *fallback);

#endif

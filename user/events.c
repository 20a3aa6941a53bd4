// SPDX-License-Identifier: GPL-2.0
/* Event specs; see events.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "events.h"

struct named_event {
	const char *name;
	uint32_t type;
	uint64_t config;
	const char *unit;
};

static const struct named_event named[] = {
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "ns" },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "ns" },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS,
	  "events" },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "events" },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN,
	  "events" },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ,
	  "events" },
	{ "context-switches", PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_CONTEXT_SWITCHES, "events" },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "events" },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS,
	  "events" },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS,
	  "events" },
	{ "alignment-faults", PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_ALIGNMENT_FAULTS, "events" },
	{ "emulation-faults", PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_EMULATION_FAULTS, "events" },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles" },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES,
	  "cycles" },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
	  "instructions" },
	{ "cache-references", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_CACHE_REFERENCES, "events" },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES,
	  "events" },
	{ "branch-instructions", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_BRANCH_INSTRUCTIONS, "events" },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
	  "events" },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES,
	  "events" },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES,
	  "cycles" },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES,
	  "cycles" },
};

static int parse_one(const char *spec, struct pj_event *ev, char *err,
		     size_t errlen)
{
	char base[128];
	const char *mods = strchr(spec, ':');
	size_t blen = mods ? (size_t)(mods - spec) : strlen(spec);
	const struct named_event *ne = NULL;

	memset(ev, 0, sizeof(*ev));
	if (blen == 0 || blen >= sizeof(base) ||
	    strlen(spec) >= sizeof(ev->name)) {
		snprintf(err, errlen, "bad event '%s'", spec);
		return -1;
	}
	memcpy(base, spec, blen);
	base[blen] = 0;
	snprintf(ev->name, sizeof(ev->name), "%s", spec);
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (!strcmp(named[i].name, base))
			ne = &named[i];
	if (!ne) {
		snprintf(
		    err, errlen,
		    "unknown event '%s'; try cpu-clock, page-faults or context-switches",
		    base);
		return -1;
	}
	ev->attr.size = sizeof(ev->attr);
	ev->attr.type = ne->type;
	ev->attr.config = ne->config;
	ev->hardware = ne->type == PERF_TYPE_HARDWARE;
	snprintf(ev->unit, sizeof(ev->unit), "%s", ne->unit);
	for (const char *m = mods ? mods + 1 : ""; *m; m++) {
		switch (*m) {
		case 'u':
			ev->attr.exclude_kernel = 1;
			ev->attr.exclude_hv = 1;
			break;
		case 'k':
			ev->attr.exclude_user = 1;
			ev->attr.exclude_hv = 1;
			break;
		case 'p':
			ev->attr.precise_ip++;
			break;
		default:
			snprintf(
			    err, errlen,
			    "bad modifier '%c' in event '%s'; modifiers are u, k, p",
			    *m, spec);
			return -1;
		}
	}
	if (ev->attr.precise_ip > 3) {
		snprintf(err, errlen, "too many 'p' modifiers in '%s'", spec);
		return -1;
	}
	return 0;
}

int events_parse(const char *list, struct pj_event **out, unsigned int *n,
		 char *err, size_t errlen)
{
	char *copy = strdup(list), *save = NULL, *tok;
	struct pj_event *evs = NULL;
	unsigned int cnt = 0;

	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		struct pj_event *nv = realloc(evs, (cnt + 1) * sizeof(*evs));

		if (!nv)
			goto fail;
		evs = nv;
		if (parse_one(tok, &evs[cnt], err, errlen))
			goto fail;
		cnt++;
	}
	free(copy);
	if (!cnt) {
		snprintf(err, errlen, "no event given");
		free(evs);
		return -1;
	}
	*out = evs;
	*n = cnt;
	return 0;
fail:
	free(copy);
	free(evs);
	return -1;
}

static bool have_cpu_pmu(void)
{
	return access("/sys/bus/event_source/devices/cpu", F_OK) == 0 ||
	       access("/sys/bus/event_source/devices/cpu_core", F_OK) == 0;
}

void events_open_error(const struct pj_event *ev, int e, char *buf, size_t len)
{
	if (ev->hardware && !have_cpu_pmu()) {
		snprintf(
		    buf, len,
		    "cannot open %s: no hardware PMU on this machine (virtual machine?); try -e cpu-clock",
		    ev->name);
		return;
	}
	switch (e) {
	case EACCES:
	case EPERM:
		snprintf(
		    buf, len,
		    "cannot open %s: not permitted (kernel.perf_event_paranoid is %s); run as root, grant CAP_PERFMON, or set kernel.perf_event_paranoid=1",
		    ev->name, "too high");
		break;
	case ENOENT:
	case EOPNOTSUPP:
	case EINVAL:
		snprintf(
		    buf, len,
		    "cannot open %s: this machine cannot count it (%s); see perfjava list",
		    ev->name, strerror(e));
		break;
	case EMFILE:
		snprintf(
		    buf, len,
		    "cannot open %s: too many open files; raise the limit with ulimit -n",
		    ev->name);
		break;
	default:
		snprintf(buf, len, "cannot open %s: %s", ev->name, strerror(e));
	}
}

const char *events_default(bool *fallback)
{
	*fallback = !have_cpu_pmu();
	return *fallback ? "cpu-clock" : "cycles";
}

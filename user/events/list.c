// SPDX-License-Identifier: GPL-2.0
/*
 * `perfjava list`: every kind of event -e accepts, each probed by opening it
 * once on perfjava itself as a sampling event, with the reason when it
 * cannot open.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "events/lbr.h"
#include "events/list.h"
#include "events/pmu.h"
#include "events/spec.h"
#include "events/tracepoint.h"

#define COL 34

static volatile long probe_target; /* the breakpoint probe watches it */

enum {
	SEC_SW = 1 << 0,
	SEC_HW = 1 << 1,
	SEC_CACHE = 1 << 2,
	SEC_PMU = 1 << 3,
	SEC_TP = 1 << 4,
	SEC_BP = 1 << 5,
	SEC_CG = 1 << 6,
	SEC_TP_ALL = 1 << 7, /* every tracepoint by name */
	SEC_TIME = 1 << 8, /* offcpu, wall: perfjava's own */
	SEC_KSYM = 1 << 9,
	SEC_JVM = 1 << 10, /* alloc, lock: from the JVM */
};

static long open_attr(struct perf_event_attr *a)
{
	long fd =
	    syscall(SYS_perf_event_open, a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0 && (errno == EACCES || errno == EPERM) &&
	    !a->exclude_kernel) {
		/* perf_event_paranoid: the recorder falls back likewise */
		a->exclude_kernel = 1;
		a->exclude_hv = 1;
		a->exclude_callchain_kernel = 1;
		fd = syscall(SYS_perf_event_open, a, 0, -1, -1,
			     PERF_FLAG_FD_CLOEXEC);
	}
	return fd;
}

/* Opens ev as the recorder would; "yes", or "no: why" into out. */
static bool probe(const struct pj_event *ev, char *out, size_t len)
{
	struct perf_event_attr a = ev->attr;
	char why[512];
	const char *p;
	long fd;
	int e;

	a.size = sizeof(a);
	a.disabled = 1;
	a.sample_period = event_is_clock(ev)	  ? 10000000
			  : event_counts_hits(ev) ? 1
						  : 100000;
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
			PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
	if (ev->tracepoint)
		a.sample_type |= PERF_SAMPLE_RAW;
	fd = open_attr(&a);
	if (fd >= 0) {
		close((int)fd);
		snprintf(out, len, "yes");
		return true;
	}
	e = errno;
	events_open_error(ev, e, why, sizeof(why));
	/* "cannot open X: reason" -> "reason" */
	p = strstr(why, ": ");
	snprintf(out, len, "no: %s", p ? p + 2 : why);
	return false;
}

void list_row(const char *name, const char *status)
{
	printf("  %-*s %s\n", COL, name, status);
}

static void probe_spec(const char *spec, const char *shown)
{
	struct pj_event ev;
	char err[512], st[600];

	if (events_parse_one(spec, &ev, err, sizeof(err))) {
		snprintf(st, sizeof(st), "no: %s", err);
		list_row(shown ? shown : spec, st);
		return;
	}
	probe(&ev, st, sizeof(st));
	list_row(shown ? shown : spec, st);
}

static void list_symbols(bool hw)
{
	unsigned int n;
	const struct events_symbol *s = events_symbols(&n);

	printf("%s\n", hw ? "Hardware events" : "Software events");
	for (unsigned int i = 0; i < n; i++) {
		char shown[128];
		size_t at;

		if (s[i].alias_of || (s[i].type == PERF_TYPE_HARDWARE) != hw)
			continue;
		at = (size_t)snprintf(shown, sizeof(shown), "%s", s[i].name);
		for (unsigned int j = 0; j < n && at < sizeof(shown); j++)
			if (s[j].alias_of && !strcmp(s[j].alias_of, s[i].name))
				at += (size_t)snprintf(shown + at,
						       sizeof(shown) - at,
						       " OR %s", s[j].name);
		probe_spec(s[i].name, shown);
	}
}

static void list_cache(void)
{
	char names[64][64];
	unsigned int n = events_cache_names(names, 64);

	printf("Hardware cache events\n");
	for (unsigned int i = 0; i < n && i < 64; i++)
		probe_spec(names[i], NULL);
}

/* A PMU's events/ entries (not the .scale/.unit companions), probed. */
static void list_pmu_events(const char *pmu)
{
	char path[1024], spec[400];
	struct dirent **d = NULL;
	int n, shown = 0;

	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/events",
		 pj_sysfs_root(), pmu);
	n = scandir(path, &d, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		if (d[i]->d_name[0] != '.' && !strchr(d[i]->d_name, '.')) {
			snprintf(spec, sizeof(spec), "%s/%s/", pmu,
				 d[i]->d_name);
			probe_spec(spec, NULL);
			shown++;
		}
		free(d[i]);
	}
	if (n >= 0)
		free(d);
	if (!shown) {
		char fmt[256] = "";

		snprintf(path, sizeof(path),
			 "%s/bus/event_source/devices/%s/format",
			 pj_sysfs_root(), pmu);
		n = scandir(path, &d, NULL, alphasort);
		for (int i = 0; i < n; i++) {
			size_t at = strlen(fmt);

			if (d[i]->d_name[0] != '.' &&
			    at + strlen(d[i]->d_name) + 2 < sizeof(fmt)) {
				if (at)
					fmt[at++] = ',';
				strcpy(fmt + at, d[i]->d_name);
			}
			free(d[i]);
		}
		if (n >= 0)
			free(d);
		snprintf(spec, sizeof(spec), "%s/%s/", pmu,
			 *fmt ? fmt : "config=N");
		list_row(spec,
			 !strcmp(pmu, "uprobe")
			     ? "not an -e event (uprobes are not supported)"
			     : "no named events; give its terms");
	}
}

static void list_pmus(void)
{
	char names[1024], *save = NULL, *t;

	printf("Raw and PMU events (sysfs: %s/bus/event_source/devices)\n",
	       pj_sysfs_root());
	probe_spec("r003c", "rNNNN (e.g. r003c)");
	pmu_names(names, sizeof(names));
	for (t = strtok_r(names, " ", &save); t;
	     t = strtok_r(NULL, " ", &save)) {
		if (!strcmp(t, "software") || !strcmp(t, "tracepoint") ||
		    !strcmp(t, "breakpoint") || !strcmp(t, "kprobe"))
			continue;
		list_pmu_events(t);
	}
}

struct tp_count {
	unsigned int n, nsys;
	char last[64];
	char first[200];
	bool all;
};

static void count_tp(void *ctx, const char *sys, const char *name)
{
	struct tp_count *c = ctx;

	if (strcmp(c->last, sys)) {
		c->nsys++;
		snprintf(c->last, sizeof(c->last), "%s", sys);
	}
	if (!c->n)
		snprintf(c->first, sizeof(c->first), "%s:%s", sys, name);
	c->n++;
	if (c->all)
		printf("  %s:%s\n", sys, name);
}

static void list_tracepoints(bool all)
{
	struct tp_count c = { .all = all };
	char dir[512], err[512], st[600];
	int n;

	printf("Tracepoints\n");
	n = tracepoint_foreach(count_tp, &c, err, sizeof(err));
	if (n < 0) {
		snprintf(st, sizeof(st), "no: %s", err);
		list_row("subsystem:name", st);
		return;
	}
	if (all)
		return;
	tracefs_events_dir(dir, sizeof(dir), err, sizeof(err));
	probe_spec(tracepoint_id("sched", "sched_switch", &(uint64_t){ 0 }, err,
				 sizeof(err))
		       ? c.first
		       : "sched:sched_switch",
		   NULL);
	printf("  %u tracepoints in %u subsystems in %s; "
	       "`perfjava list tracepoint` names them\n",
	       c.n, c.nsys, dir);
}

static void list_breakpoints(void)
{
	char spec[64];

	printf("Breakpoints\n");
	snprintf(spec, sizeof(spec), "mem:%p:w", (void *)&probe_target);
	probe_spec(spec, "mem:ADDR[/LEN][:rwx]");
}

static void list_callgraphs(void)
{
	struct pj_event ev;
	char err[512], st[600];

	printf("Call graphs (-g)\n");
	list_row("fp", "yes");
	events_parse_one(events_default(&(bool){ false }), &ev, err,
			 sizeof(err));
	if (lbr_check(&ev, 1, err, sizeof(err))) {
		snprintf(st, sizeof(st), "no: %s", err);
		list_row("lbr", st);
	} else {
		list_row("lbr", "yes (with hardware events)");
	}
	list_row("dwarf", "yes (CFI through libdw, x86-64)");
}

/* -e offcpu and -e wall (pipeline/wall.c): built on sched:sched_switch. */
static void list_time(void)
{
	struct pj_event ev;
	char err[512], st[600];
	bool ok =
	    !events_parse_one("sched:sched_switch", &ev, err, sizeof(err));

	printf("Time events (perfjava's own, from sched:sched_switch)\n");
	if (!ok)
		snprintf(st, sizeof(st), "no: %s", err);
	else
		ok = probe(&ev, st, sizeof(st));
	list_row("offcpu",
		 ok ? "yes: time off CPU, each wait by its length and "
		      "reason"
		    : st);
	list_row("wall OR --wall",
		 ok ? "yes: cpu-clock and offcpu, every thread's whole timeline"
		    : st);
}

/* -e alloc and -e lock (pipeline/jevents.c): from the JVM, through the
 * agent; what this machine can say is whether the perf side opens. */
static void list_jvm(void)
{
	printf("JVM events (perfjava's own, from the JVM through its agent; "
	       "JDK 11+)\n");
	list_row("alloc[/period=BYTES/]",
		 "yes: sampled allocations (every 512 KiB on average), the "
		 "allocated class as leaf, weighted by bytes");
	list_row("lock[/period=NS/]",
		 "yes: contention: waits to enter a monitor or to acquire a "
		 "java.util.concurrent lock or semaphore (10 us and longer, "
		 "shorter ones sampled; not a condition's await: off-CPU), the "
		 "lock's class as leaf, weighted by time; virtual threads too "
		 "(JDK 21+)");
}

static const struct {
	const char *name;
	unsigned int sec;
} sections[] = {
	{ "sw", SEC_SW },
	{ "software", SEC_SW },
	{ "hw", SEC_HW },
	{ "hardware", SEC_HW },
	{ "cache", SEC_CACHE },
	{ "pmu", SEC_PMU },
	{ "raw", SEC_PMU },
	{ "tracepoint", SEC_TP_ALL },
	{ "tracepoints", SEC_TP_ALL },
	{ "breakpoint", SEC_BP },
	{ "callgraph", SEC_CG },
	{ "time", SEC_TIME },
	{ "offcpu", SEC_TIME },
	{ "wall", SEC_TIME },
	{ "jvm", SEC_JVM },
	{ "alloc", SEC_JVM },
	{ "lock", SEC_JVM },
	{ "ksym", SEC_KSYM },
};

int cmd_list(int argc, char **argv, void (*kernel_symbols)(void))
{
	unsigned int sec = 0;

	for (int i = 1; i < argc; i++) {
		bool found = false;

		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: perfjava list [sw|hw|cache|pmu|"
			       "tracepoint|breakpoint|time|callgraph|ksym]...\n"
			       "Probes every kind of event on this machine; "
			       "`tracepoint` names every tracepoint, `ksym` "
			       "what names kernel frames.\n");
			return 0;
		}
		for (size_t j = 0; j < sizeof(sections) / sizeof(sections[0]);
		     j++)
			if (!strcmp(argv[i], sections[j].name)) {
				sec |= sections[j].sec;
				found = true;
			}
		if (!found) {
			fprintf(stderr,
				"perfjava list: unknown kind '%s'; use sw, hw, "
				"cache, pmu, tracepoint, breakpoint, time, "
				"callgraph or ksym\n",
				argv[i]);
			return 2;
		}
	}
	if (!sec)
		sec = SEC_SW | SEC_HW | SEC_CACHE | SEC_PMU | SEC_TP | SEC_BP |
		      SEC_TIME | SEC_JVM | SEC_CG | SEC_KSYM;
	if (sec & SEC_SW)
		list_symbols(false);
	if (sec & SEC_HW)
		list_symbols(true);
	if (sec & SEC_CACHE)
		list_cache();
	if (sec & SEC_PMU)
		list_pmus();
	if (sec & (SEC_TP | SEC_TP_ALL))
		list_tracepoints(sec & SEC_TP_ALL);
	if (sec & SEC_BP)
		list_breakpoints();
	if (sec & SEC_TIME)
		list_time();
	if (sec & SEC_JVM)
		list_jvm();
	if (sec & SEC_CG)
		list_callgraphs();
	if (sec & SEC_KSYM)
		kernel_symbols();
	return fflush(stdout) ? 1 : 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Event specs -> the exact perf_event_attr, checked against the numbers of
 * the kernel ABI (written out here, not taken from the headers' enums) and
 * against sysfs PMU format/events files and a tracefs tree this test writes
 * into a temporary directory (PJ_SYSFS_ROOT). Also: tracepoint RAW bytes
 * decoded through libtraceevent with a real sched_switch format, and the
 * checks of -g lbr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "events/spec.h"
#include "events/lbr.h"
#include "events/pmu.h"
#include "sched_switch_format.h"
#include "tap.h"
#include "events/tracepoint.h"

static char root[256];

static void put(const char *rel, const char *content)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			mkdir(path, 0755);
			*p = '/';
		}
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fputs(content, f);
	fclose(f);
}

static int parse(const char *spec, struct pj_event *ev, char *err)
{
	err[0] = 0;
	return events_parse_one(spec, ev, err, 512);
}

/* spec -> type and config, nothing else set */
static void check_tc(const char *spec, uint32_t type, uint64_t config)
{
	struct pj_event ev;
	char err[512];
	int rc = parse(spec, &ev, err);

	ok(rc == 0 && ev.attr.type == type && ev.attr.config == config &&
	       !ev.attr.config1 && !ev.attr.config2 && !ev.attr.exclude_user &&
	       !ev.attr.exclude_kernel && !ev.attr.precise_ip &&
	       ev.attr.size == sizeof(ev.attr),
	   "%s -> type %u config %#llx (got %d: %u %#llx) %s", spec, type,
	   (unsigned long long)config, rc, ev.attr.type,
	   (unsigned long long)ev.attr.config, err);
}

static void check_err(const char *spec, const char *want)
{
	struct pj_event ev;
	char err[512];
	int rc = parse(spec, &ev, err);

	ok(rc == -1 && strstr(err, want) && !strchr(err, '\n'),
	   "%s is refused: '%s'", spec, err);
}

static void software_and_hardware(void)
{
	/* PERF_TYPE_SOFTWARE = 1, PERF_COUNT_SW_* */
	check_tc("cpu-clock", 1, 0);
	check_tc("task-clock", 1, 1);
	check_tc("page-faults", 1, 2);
	check_tc("faults", 1, 2);
	check_tc("context-switches", 1, 3);
	check_tc("cs", 1, 3);
	check_tc("cpu-migrations", 1, 4);
	check_tc("minor-faults", 1, 5);
	check_tc("major-faults", 1, 6);
	check_tc("alignment-faults", 1, 7);
	check_tc("emulation-faults", 1, 8);
	/* PERF_TYPE_HARDWARE = 0, PERF_COUNT_HW_* */
	check_tc("cycles", 0, 0);
	check_tc("cpu-cycles", 0, 0);
	check_tc("instructions", 0, 1);
	check_tc("cache-references", 0, 2);
	check_tc("cache-misses", 0, 3);
	check_tc("branch-instructions", 0, 4);
	check_tc("branches", 0, 4);
	check_tc("branch-misses", 0, 5);
	check_tc("bus-cycles", 0, 6);
	check_tc("ref-cycles", 0, 9);
	/* PERF_TYPE_HW_CACHE = 3: cache | op << 8 | result << 16 */
	check_tc("L1-dcache-loads", 3, 0x00000);
	check_tc("L1-dcache-load-misses", 3, 0x10000);
	check_tc("L1-dcache-stores", 3, 0x00100);
	check_tc("L1-dcache-store-misses", 3, 0x10100);
	check_tc("L1-dcache-prefetch-misses", 3, 0x10200);
	check_tc("L1-icache-load-misses", 3, 0x10001);
	check_tc("LLC-loads", 3, 0x00002);
	check_tc("LLC-load-misses", 3, 0x10002);
	check_tc("LLC-prefetches", 3, 0x00202);
	check_tc("dTLB-load-misses", 3, 0x10003);
	check_tc("dTLB-store-misses", 3, 0x10103);
	check_tc("iTLB-load-misses", 3, 0x10004);
	check_tc("branch-loads", 3, 0x00005);
	check_tc("branch-load-misses", 3, 0x10005);
	check_tc("node-load-misses", 3, 0x10006);
	check_tc("l1d-load-miss", 3, 0x10000); /* perf's aliases */
	/* PERF_TYPE_RAW = 4 */
	check_tc("r1a8", 4, 0x1a8);
	check_tc("r003c", 4, 0x3c);
	check_tc("rFFFFFFFFFFFFFFFF", 4, ~0ULL);

	struct pj_event ev;
	char err[512];

	ok(!parse("cycles", &ev, err) && ev.hardware &&
	       ev.kind == PJ_EV_HARDWARE,
	   "cycles needs a hardware PMU");
	ok(!parse("LLC-load-misses", &ev, err) && ev.hardware &&
	       ev.kind == PJ_EV_CACHE,
	   "cache events need a hardware PMU");
	ok(!parse("cpu-clock", &ev, err) && !ev.hardware &&
	       !strcmp(ev.unit, "ns"),
	   "cpu-clock is software, counted in ns");
	ok(!parse("page-faults", &ev, err) && !strcmp(ev.unit, "events"),
	   "page-faults are counted in events");
}

static void modifiers(void)
{
	struct pj_event ev;
	char err[512];

	ok(!parse("cycles:u", &ev, err) && !ev.attr.exclude_user &&
	       ev.attr.exclude_kernel && ev.attr.exclude_hv,
	   ":u excludes kernel and hypervisor");
	ok(!parse("cycles:k", &ev, err) && ev.attr.exclude_user &&
	       !ev.attr.exclude_kernel && ev.attr.exclude_hv,
	   ":k excludes user and hypervisor");
	ok(!parse("cycles:uk", &ev, err) && !ev.attr.exclude_user &&
	       !ev.attr.exclude_kernel && ev.attr.exclude_hv,
	   ":uk excludes only the hypervisor");
	ok(!parse("cycles:p", &ev, err) && ev.attr.precise_ip == 1 &&
	       !ev.attr.exclude_kernel,
	   ":p sets precise_ip 1");
	ok(!parse("cycles:pp", &ev, err) && ev.attr.precise_ip == 2, ":pp 2");
	ok(!parse("cycles:ppp", &ev, err) && ev.attr.precise_ip == 3, ":ppp 3");
	ok(!parse("cycles:upp", &ev, err) && ev.attr.precise_ip == 2 &&
	       ev.attr.exclude_kernel,
	   ":upp combines");
	ok(!parse("cpu-clock/period=1000000/", &ev, err) &&
	       ev.period == 1000000 && !ev.freq && ev.attr.type == 1,
	   "cpu-clock/period=1000000/ sets the event's period");
	ok(!parse("cycles/freq=999/u", &ev, err) && ev.freq == 999 &&
	       !ev.period && ev.attr.exclude_kernel,
	   "cycles/freq=999/u: frequency and modifier after the terms");
	ok(!parse("page-faults/period=10,name=pf/", &ev, err) &&
	       ev.period == 10 && !strcmp(ev.name, "pf"),
	   "name= renames the event");
	ok(!parse("r1a8/period=5000/k", &ev, err) && ev.period == 5000 &&
	       ev.attr.config == 0x1a8 && ev.attr.exclude_user,
	   "raw events take terms and modifiers");
	check_err("cpu-clock:z", "bad modifier 'z'");
	check_err("cycles:pppp", "too many 'p'");
	check_err("cpu-clock/period=0/", "above 0");
	check_err("cpu-clock/period=x/", "bad period 'x'");
	check_err("cpu-clock/event=1/", "unknown term 'event'");
	check_err("cpu-clock/period=1", "missing closing '/'");
	check_err("nosuchevent", "unknown event 'nosuchevent'");
	check_err("", "bad event");
}

static void pmu_sysfs(void)
{
	struct pj_event ev;
	char err[512];

	put("bus/event_source/devices/cpu/type", "4\n");
	put("bus/event_source/devices/cpu/format/event", "config:0-7\n");
	put("bus/event_source/devices/cpu/format/umask", "config:8-15\n");
	put("bus/event_source/devices/cpu/format/edge", "config:18\n");
	put("bus/event_source/devices/cpu/format/inv", "config:23\n");
	put("bus/event_source/devices/cpu/format/cmask", "config:24-31\n");
	put("bus/event_source/devices/cpu/format/in_tx", "config:32\n");
	put("bus/event_source/devices/cpu/format/ldlat", "config1:0-15\n");
	put("bus/event_source/devices/cpu/format/frontend", "config2:0-23\n");
	put("bus/event_source/devices/cpu/format/split", "config:0-3,36-39\n");
	put("bus/event_source/devices/cpu/events/mem-loads",
	    "event=0xcd,umask=0x1,ldlat=3\n");
	put("bus/event_source/devices/cpu/events/cycles-t",
	    "event=0x3c,in_tx=1\n");
	put("bus/event_source/devices/cpu/events/needs-arg",
	    "event=0x1,ldlat=?\n");
	put("bus/event_source/devices/uncore_imc_0/type", "13\n");
	put("bus/event_source/devices/uncore_imc_0/format/event",
	    "config:0-7\n");
	put("bus/event_source/devices/uncore_imc_0/format/umask",
	    "config:8-15\n");
	put("bus/event_source/devices/uncore_imc_0/events/cas_count_read",
	    "event=0x04,umask=0x03\n");
	put("bus/event_source/devices/software/type", "1\n");

	ok(!parse("cpu/event=0x3c,umask=0x01/pp", &ev, err) &&
	       ev.attr.type == 4 && ev.attr.config == 0x013c &&
	       ev.attr.precise_ip == 2 && ev.hardware && ev.kind == PJ_EV_PMU &&
	       !strcmp(ev.pmu, "cpu"),
	   "cpu/event=0x3c,umask=0x01/pp -> type 4 config 0x13c precise 2 "
	   "(%#llx %s)",
	   (unsigned long long)ev.attr.config, err);
	ok(!parse("cpu/event=0xc0,inv,cmask=2,edge/", &ev, err) &&
	       ev.attr.config == (0xc0 | 1ULL << 23 | 2ULL << 24 | 1ULL << 18),
	   "flag terms without a value set their bit (%#llx)",
	   (unsigned long long)ev.attr.config);
	ok(!parse("cpu/mem-loads/", &ev, err) && ev.attr.config == 0x01cd &&
	       ev.attr.config1 == 3,
	   "cpu/mem-loads/ applies events/mem-loads (config %#llx config1 "
	   "%llu) %s",
	   (unsigned long long)ev.attr.config,
	   (unsigned long long)ev.attr.config1, err);
	ok(!parse("cpu/mem-loads,ldlat=30/", &ev, err) &&
	       ev.attr.config1 == 30 && ev.attr.config == 0x01cd,
	   "a term after a named event overrides it");
	ok(!parse("cpu/cycles-t/", &ev, err) &&
	       ev.attr.config == (0x3c | 1ULL << 32),
	   "a named event's terms reach bit 32");
	ok(!parse("cpu/frontend=0x123456/", &ev, err) &&
	       ev.attr.config2 == 0x123456 && !ev.attr.config,
	   "config2 formats fill config2");
	ok(!parse("cpu/split=0xa5/", &ev, err) &&
	       ev.attr.config == (0x5ULL | 0xaULL << 36),
	   "split ranges take the value's bits lowest first (%#llx)",
	   (unsigned long long)ev.attr.config);
	ok(!parse("cpu/config=0x1234,config1=5,period=777/", &ev, err) &&
	       ev.attr.config == 0x1234 && ev.attr.config1 == 5 &&
	       ev.period == 777,
	   "config= config1= and period= in PMU terms");
	ok(!parse("uncore_imc_0/cas_count_read/", &ev, err) &&
	       ev.attr.type == 13 && ev.attr.config == 0x304 && !ev.hardware,
	   "another PMU's type and named event");
	check_err("cpu/event=0x100/", "too big");
	check_err("cpu/nosuch=1/", "no format term 'nosuch'");
	check_err("cpu/nosuch/", "no event or term 'nosuch'");
	check_err("cpu/needs-arg/", "needs ldlat=VALUE");
	check_err("cpu/event=zz/", "bad value 'zz'");
	check_err("nopmu/event=1/", "no PMU 'nopmu'");
	check_err("cpu//", "names no event");

	/* A list: commas between slashes are terms. */
	struct pj_event *evs = NULL;
	unsigned int n = 0;

	ok(!events_parse("cpu/event=0x3c,umask=0x1/,cycles:u,mem:0x10/8,"
			 "cpu-clock/period=5,name=c/",
			 &evs, &n, err, sizeof(err)) &&
	       n == 4 && evs[0].attr.config == 0x13c &&
	       evs[1].attr.exclude_kernel && evs[2].attr.bp_len == 8 &&
	       evs[3].period == 5 && !strcmp(evs[3].name, "c"),
	   "a list of four specs with commas inside terms (%u) %s", n, err);
	free(evs);
	ok(events_parse("cycles,,cpu-clock", &evs, &n, err, sizeof(err)) == -1,
	   "an empty spec in a list is refused");

	bool fb = true;

	ok(!strcmp(events_default(&fb), "cycles") && !fb,
	   "default event is cycles where a cpu PMU exists");
}

static void tracepoints(void)
{
	struct pj_event ev;
	char err[512];

	put("kernel/tracing/events/sched/sched_switch/id", "372\n");
	put("kernel/tracing/events/sched/sched_wakeup/id", "370\n");
	put("kernel/tracing/events/irq/irq_handler_entry/id", "55\n");
	ok(!parse("sched:sched_switch", &ev, err) && ev.attr.type == 2 &&
	       ev.attr.config == 372 && ev.tracepoint &&
	       ev.kind == PJ_EV_TRACEPOINT && !strcmp(ev.tp_sys, "sched") &&
	       !strcmp(ev.tp_name, "sched_switch"),
	   "sched:sched_switch -> type 2 config 372 %s", err);
	ok(!parse("sched:sched_switch:k", &ev, err) && ev.attr.config == 372 &&
	       ev.attr.exclude_user,
	   "tracepoints take modifiers");
	ok(!parse("sched:sched_wakeup/period=4/", &ev, err) &&
	       ev.attr.config == 370 && ev.period == 4,
	   "tracepoints take terms");
	check_err("sched:nope", "no tracepoint sched:nope");
	check_err("nosys:nope", "no tracepoint subsystem 'nosys'");
	check_err("sched:*", "wildcards");
	check_err("sched:../../x", "bad tracepoint");
}

static void decode(void)
{
	struct tp_decoder *d = tp_decoder_new();
	unsigned char raw[68] = { 0 };
	uint16_t type = 372;
	int32_t v;
	int64_t state = 2; /* TASK_UNINTERRUPTIBLE */
	char err[512], out[1024];

	put("kernel/tracing/events/sched/sched_switch/format",
	    sched_switch_format);
	ok(d && !tp_decoder_add(d, "sched", "sched_switch", err, sizeof(err)),
	   "libtraceevent parses sched_switch's format %s", err);
	memcpy(raw, &type, 2);
	v = 4242;
	memcpy(raw + 4, &v, 4);
	memcpy(raw + 8, "ev_mix", 6);
	memcpy(raw + 24, &v, 4);
	v = 120;
	memcpy(raw + 28, &v, 4);
	memcpy(raw + 32, &state, 8);
	memcpy(raw + 40, "swapper/1", 9);
	v = 0;
	memcpy(raw + 56, &v, 4);
	v = 120;
	memcpy(raw + 60, &v, 4);
	ok(tp_decode(d, raw, sizeof(raw), out, sizeof(out)) > 0 &&
	       !strcmp(out, "prev_comm=ev_mix prev_pid=4242 prev_prio=120 "
			    "prev_state=D ==> next_comm=swapper/1 next_pid=0 "
			    "next_prio=120"),
	   "a sched_switch record decodes with prev_state=D: '%s'", out);
	ok(tp_decode(d, raw, 20, out, sizeof(out)) == -1,
	   "a record shorter than its format is not decoded: '%s'", out);
	type = 999;
	memcpy(raw, &type, 2);
	ok(tp_decode(d, raw, sizeof(raw), out, sizeof(out)) == -1,
	   "a record of an unknown event is not decoded: '%s'", out);
	tp_decoder_free(d);
}

static void breakpoints(void)
{
	struct pj_event ev;
	char err[512];

	/* PERF_TYPE_BREAKPOINT = 5; HW_BREAKPOINT_R 1, W 2, X 4 */
	ok(!parse("mem:0x1000", &ev, err) && ev.attr.type == 5 &&
	       ev.attr.bp_addr == 0x1000 && ev.attr.bp_type == 3 &&
	       ev.attr.bp_len == 4 && ev.kind == PJ_EV_BREAKPOINT &&
	       !ev.attr.config,
	   "mem:0x1000 -> type 5 rw len 4");
	ok(!parse("mem:0x1000:w", &ev, err) && ev.attr.bp_type == 2,
	   "mem:...:w watches writes");
	ok(!parse("mem:0x1000:x", &ev, err) && ev.attr.bp_type == 4 &&
	       ev.attr.bp_len == sizeof(long),
	   "mem:...:x watches execution, len sizeof(long)");
	ok(!parse("mem:0x1000/8:rw", &ev, err) && ev.attr.bp_len == 8 &&
	       ev.attr.bp_type == 3,
	   "mem:ADDR/8:rw (perf's order)");
	ok(!parse("mem:0x1000:w/2", &ev, err) && ev.attr.bp_len == 2 &&
	       ev.attr.bp_type == 2,
	   "mem:ADDR:w/2 (the issue's order)");
	ok(!parse("mem:0x1000:w:u", &ev, err) && ev.attr.exclude_kernel &&
	       ev.attr.bp_type == 2,
	   "modifiers after the access");
	check_err("mem:0x1000/3", "1, 2, 4 or 8");
	check_err("mem:0x1000:rx", "x cannot be combined");
	check_err("mem:zz", "bad breakpoint");
	check_err("mem:0x1000:q", "bad modifier 'q'");
}

static void lbr(void)
{
	struct pj_event ev[2];
	char err[512];

	parse("cycles", &ev[0], err);
	parse("cpu-clock", &ev[1], err);
	ok(lbr_check(ev, 1, err, sizeof(err)) == -1 &&
	       strstr(err, "caps/branches"),
	   "-g lbr refused where the cpu PMU records no branches: %s", err);
	put("bus/event_source/devices/cpu/caps/branches", "32\n");
	ok(lbr_check(ev, 1, err, sizeof(err)) == 0,
	   "-g lbr with cycles on a PMU with 32 branch records");
	ok(lbr_check(ev, 2, err, sizeof(err)) == -1 &&
	       strstr(err, "hardware events only") && strstr(err, "cpu-clock"),
	   "-g lbr refused with a software event: %s", err);
}

static void no_pmu(void)
{
	char other[300], err[512], msg[512];
	struct pj_event ev;
	bool fb = false;

	snprintf(other, sizeof(other), "%s/nopmu", root);
	mkdir(other, 0755);
	setenv("PJ_SYSFS_ROOT", other, 1);
	ok(!strcmp(events_default(&fb), "cpu-clock") && fb,
	   "without a cpu PMU the default falls back to cpu-clock");
	parse("cycles", &ev, err);
	events_open_error(&ev, 2 /* ENOENT */, msg, sizeof(msg));
	ok(strstr(msg, "no hardware PMU") && strstr(msg, "-e cpu-clock"),
	   "cycles without a PMU: '%s'", msg);
	ok(lbr_check(&ev, 1, err, sizeof(err)) == -1 &&
	       strstr(err, "no hardware PMU") && strstr(err, "-g fp"),
	   "-g lbr without a PMU: '%s'", err);
	check_err("sched:sched_switch", "tracefs is not available");
	check_err("cpu/event=1/", "no hardware PMU");
}

int main(void)
{
	snprintf(root, sizeof(root), "/tmp/pj-events.XXXXXX");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	setenv("PJ_SYSFS_ROOT", root, 1);
	software_and_hardware();
	modifiers();
	pmu_sysfs();
	tracepoints();
	decode();
	breakpoints();
	lbr();
	no_pmu();
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd))
			fprintf(stderr, "cannot remove %s\n", root);
	}
	return tap_done();
}

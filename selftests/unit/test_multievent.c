// SPDX-License-Identifier: GPL-2.0
/*
 * Several events in one recording, from synthesized ring bytes: each sample's
 * PERF_SAMPLE_IDENTIFIER picks its event, a tracepoint's RAW bytes become the
 * sample's info, the stacks go through the real merge, and `perfjava report
 * --event NAME [--total]` picks one event's samples and weights.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "recsynth.h"
#include "report/report.h"
#include "sched_switch_format.h"
#include "tap.h"

static volatile unsigned long sink;

/* Three functions whose addresses stand for sampled code. */
__attribute__((noinline)) void mev_root(void)
{
	for (int i = 0; i < 100; i++)
		sink += i * 3;
}
__attribute__((noinline)) void mev_cpu(void)
{
	for (int i = 0; i < 100; i++)
		sink += i * 5;
}
__attribute__((noinline)) void mev_faults(void)
{
	for (int i = 0; i < 100; i++)
		sink += i * 7;
}
__attribute__((noinline)) void mev_nap(void)
{
	for (int i = 0; i < 100; i++)
		sink += i * 11;
}

static char dir[] = "/tmp/pj-mev-XXXXXX";

static void put(const char *rel, const char *content)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/%s", dir, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	if (system(cmd))
		exit(1);
	f = fopen(path, "w");
	if (!f)
		exit(1);
	fputs(content, f);
	fclose(f);
}

/* Runs `perfjava report ARGS -o OUT` in-process; returns its exit code. */
static int report(char *out, size_t len, const char *a1, const char *a2,
		  const char *a3, const char *a4, const char *data)
{
	char path[300];
	char *argv[12];
	int argc = 0, rc, fd;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/out.txt", dir);
	argv[argc++] = "report";
	argv[argc++] = "-i";
	argv[argc++] = (char *)data;
	argv[argc++] = "-o";
	argv[argc++] = path;
	if (a1)
		argv[argc++] = (char *)a1;
	if (a2)
		argv[argc++] = (char *)a2;
	if (a3)
		argv[argc++] = (char *)a3;
	if (a4)
		argv[argc++] = (char *)a4;
	argv[argc] = NULL;
	unlink(path);
	rc = cmd_report(argc, argv);
	out[0] = 0;
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		n = read(fd, out, len - 1);
		out[n > 0 ? n : 0] = 0;
		close(fd);
	}
	return rc;
}

int main(void)
{
	uint64_t st = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
		      PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
		      PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN |
		      PERF_SAMPLE_RAW;
	uint64_t root = (uintptr_t)mev_root + 8;
	uint64_t c_cpu[] = { PERF_CONTEXT_USER, (uintptr_t)mev_cpu + 4, root };
	uint64_t c_flt[] = { PERF_CONTEXT_USER, (uintptr_t)mev_faults + 4,
			     root };
	uint64_t c_nap[] = { PERF_CONTEXT_USER, (uintptr_t)mev_nap + 4, root };
	unsigned char raw[68], raw_r[68];
	char data[300], buf[8192], names[1024];
	struct pj_profile *p = NULL;
	struct synth s;
	uint64_t t = 1000;
	int counts[3] = { 0 }, info_ok = 0, info_other = 0, stacks_ok = 0;

	if (!mkdtemp(dir))
		return 1;
	snprintf(buf, sizeof(buf), "%s/sys", dir);
	setenv("PJ_SYSFS_ROOT", buf, 1);
	put("kernel/tracing/events/sched/sched_switch/id", "372\n");
	put("kernel/tracing/events/sched/sched_switch/format",
	    sched_switch_format);
	snprintf(data, sizeof(data), "%s/mev.data", dir);
	if (synth_open(&s, data, "cpu-clock,page-faults,sched:sched_switch", st,
		       0, false)) {
		ok(0, "synthesized recorder set up");
		return tap_done();
	}
	sched_switch_raw(raw, 372, "ev_mix", 4242, 1 /* S */);
	sched_switch_raw(raw_r, 372, "ev_mix", 4242, 0 /* R */);
	/* interleaved, as the kernel writes them into one ring */
	for (int i = 0; i < 4; i++) {
		struct synth_sample cpu = {
			SYNTH_ID0 + 0, c_cpu[1], t++, 10000000, 4242, c_cpu, 3
		};
		struct synth_sample flt = { SYNTH_ID0 + 1, c_flt[1], t++, 1,
					    4242,	   c_flt,    3 };
		struct synth_sample nap = {
			SYNTH_ID0 + 2,	 c_nap[1], t++, 1, 4242, c_nap, 3,
			i ? raw : raw_r, 68
		};

		synth_feed(&s, &s.ring, &cpu);
		if (i < 3)
			synth_feed(&s, &s.ring, &flt);
		if (i < 2)
			synth_feed(&s, &s.ring, &nap);
	}
	ok(s.rec->em.st.samples == 9 && !s.rec->dec.st.bad_records,
	   "9 synthesized samples recorded (%llu, %llu bad)",
	   (unsigned long long)s.rec->em.st.samples,
	   (unsigned long long)s.rec->dec.st.bad_records);
	ok(!synth_close(&s), "profile closed");
	ok(!pj_profile_load(data, &p, buf, sizeof(buf)) && p->nevents == 3,
	   "profile loads with 3 events %s", buf);
	if (!p)
		return tap_done();
	ok(!strcmp(p->events[0].name, "cpu-clock") &&
	       !strcmp(p->events[1].name, "page-faults") &&
	       !strcmp(p->events[2].name, "sched:sched_switch") &&
	       !strcmp(p->events[0].unit, "ns") && p->events[2].type == 2 &&
	       p->events[2].config == 372,
	   "the events table names each event, its unit, type and config");
	for (size_t i = 0; i < p->nsamples; i++) {
		const struct pj_sample *x = &p->samples[i];
		const char *want = x->event == 0   ? "mev_cpu;mev_root"
				   : x->event == 1 ? "mev_faults;mev_root"
						   : "mev_nap;mev_root";

		if (x->event < 3)
			counts[x->event]++;
		if (x->event == 2 && strstr(pj_str(p, x->info), "prev_state="))
			info_ok++;
		else if (x->info)
			info_other++;
		synth_stack(p, x->stack, names, sizeof(names));
		if (!strcmp(names, want))
			stacks_ok++;
		else
			printf("# sample %zu event %u: %s, want %s\n", i,
			       x->event, names, want);
	}
	ok(counts[0] == 4 && counts[1] == 3 && counts[2] == 2,
	   "each sample has its event from its id (%d %d %d)", counts[0],
	   counts[1], counts[2]);
	ok(stacks_ok == 9, "every stack merged and named (%d of 9)", stacks_ok);
	ok(info_ok == 2 && !info_other,
	   "tracepoint samples, and only they, carry decoded fields");
	{
		bool r = false, sl = false;

		for (size_t i = 0; i < p->nsamples; i++) {
			const char *inf = pj_str(p, p->samples[i].info);

			r |= strstr(inf, "prev_state=R ") != NULL;
			sl |= strstr(inf,
				     "prev_comm=ev_mix prev_pid=4242 "
				     "prev_prio=120 prev_state=S ==>") != NULL;
		}
		ok(r && sl, "prev_state decoded as R and as S");
	}
	pj_profile_free(p);

	ok(report(buf, sizeof(buf), "--format", "collapsed", "--event",
		  "page-faults", data) == 0 &&
	       strstr(buf, "mev_root;mev_faults 3\n") &&
	       !strstr(buf, "mev_cpu") && !strstr(buf, "mev_nap"),
	   "report --event page-faults shows only page-fault stacks: %s", buf);
	ok(report(buf, sizeof(buf), "--format", "collapsed", "--event",
		  "sched:sched_switch", data) == 0 &&
	       strstr(buf, "mev_root;mev_nap 2\n") &&
	       !strstr(buf, "mev_faults"),
	   "report --event sched:sched_switch: %s", buf);
	ok(report(buf, sizeof(buf), "--format", "collapsed", "--total", NULL,
		  data) == 0 &&
	       strstr(buf, "mev_root;mev_cpu 40000000\n") &&
	       !strstr(buf, "mev_faults"),
	   "report --total (first event, cpu-clock) weights by period in "
	   "ns: %s",
	   buf);
	ok(report(buf, sizeof(buf), "--format", "collapsed", "--event",
		  "cpu-clock", data) == 0 &&
	       strstr(buf, "mev_root;mev_cpu 4\n"),
	   "report --event cpu-clock counts samples: %s", buf);
	ok(report(buf, sizeof(buf), "--event", "cycles", NULL, NULL, data) != 0,
	   "report --event of an event not recorded fails");

	snprintf(buf, sizeof(buf), "rm -rf '%s'", dir);
	if (system(buf))
		printf("# cannot remove %s\n", dir);
	return tap_done();
}

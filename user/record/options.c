// SPDX-License-Identifier: GPL-2.0
/* `perfjava record` options: parsing and the usage text. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/file.h"
#include "record/options.h"

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "usage: perfjava record -p PID[,PID...] [-e EVENT[,EVENT...]] [-F HZ | -c PERIOD]\n"
	    "                       [-g fp|lbr|dwarf[,SIZE]] [-d SECONDS] [-o FILE] [-m PAGES] [--no-java] [-q]\n"
	    "       perfjava record [options] -t TID[,TID...] | -a | -C CPU[,CPU...]\n"
	    "       perfjava record [options] [--] CMD [ARGS...]\n"
	    "  -p PID[,PID...]  processes to profile (all their threads, and the\n"
	    "              threads and processes they start); each JVM among them\n"
	    "              gets its own agent\n"
	    "  -t TID[,TID...]  these threads alone (not those they start)\n"
	    "  -a          every process on the machine, those that start too;\n"
	    "              every JVM found gets Java frames (unless --no-java)\n"
	    "  -C CPU[,CPU...]  as -a, on these CPUs only (ranges: 0-3)\n"
	    "  CMD ARGS    run CMD and profile it from its first instruction, and the\n"
	    "              threads and processes it starts from theirs; its exit\n"
	    "              status is perfjava's, Ctrl-C reaches it; a JVM started as\n"
	    "              java ... has the agent from its start (-agentpath), one a\n"
	    "              script or a build tool starts once it has loaded libjvm\n"
	    "  -i, --no-inherit  with -p or CMD: not the threads and processes the\n"
	    "              targets start (each new thread of a target is then\n"
	    "              recorded once the reader has seen it start)\n"
	    "  -e EVENT    event(s) to sample, comma-separated or -e repeated (default\n"
	    "              cycles, or cpu-clock without a hardware PMU; see perfjava list):\n"
	    "                cpu-clock task-clock page-faults context-switches ...\n"
	    "                cycles instructions cache-misses L1-dcache-load-misses ...\n"
	    "                rNNNN  pmu/event=0x3c,umask=0x0/  pmu/named-event/\n"
	    "                subsystem:name (tracepoint; fields go to report --format script)\n"
	    "                mem:ADDR[/LEN][:rwx] (hardware breakpoint)\n"
	    "                offcpu: time off CPU, each wait weighted by its length,\n"
	    "                  its stack where it blocked and why (sleep, io, lock,\n"
	    "                  wait, runnable); wall: cpu-clock and offcpu, the whole\n"
	    "                  timeline; alloc, lock: a JVM's allocations, its lock\n"
	    "                  contention (perfjava list)\n"
	    "              modifiers :u :k :h :p :pp :ppp (cycles:u, cpu/.../pp)\n"
	    "              per event period or frequency: EVENT/period=N/ or EVENT/freq=HZ/\n"
	    "              (cpu-clock/period=1000000/,page-faults/period=10/)\n"
	    "  -F HZ       samples per second per thread, for events without their own\n"
	    "  -c PERIOD   one sample every PERIOD events: for cpu-clock and task-clock\n"
	    "              a time (1ms, 250us; a bare number is ns), for other events\n"
	    "              a count of them (page-faults, cycles, a tracepoint's hits)\n"
	    "              default: cpu-clock and task-clock every 10 ms, tracepoints,\n"
	    "              breakpoints and other software events every event, others 100 Hz\n"
	    "  -g fp       call graph: the kernel's frame-pointer chain alone\n"
	    "              (default: that chain, with the frames it skips below\n"
	    "              the first frame pointer found by CFI in a 1 KiB stack copy)\n"
	    "  -g lbr      user call graph from the CPU's branch records (hardware events)\n"
	    "  -g dwarf[,SIZE] user call graph by CFI (.eh_frame, .debug_frame) over\n"
	    "              SIZE bytes of stack copied per sample (default 8192, max 65528),\n"
	    "              then the frame-pointer chain beyond the copy\n"
	    "  -d SECONDS  stop after this long (default: Ctrl-C, SIGTERM or target exit;\n"
	    "              a launched CMD runs on, perfjava waits for it)\n"
	    "  -o FILE     output (default perfjava.data)\n"
	    "  -m PAGES    ring buffer data pages per thread, a power of two (default 16)\n"
	    "  --wall      the same as -e wall: on-CPU and off-CPU time of every thread\n"
	    "  --loop SECONDS  continuous: one complete file per interval, named by\n"
	    "              -o with %%t (its start, YYYYmmdd-HHMMSS; default\n"
	    "              perfjava-%%t.data); report merges several files\n"
	    "  --keep N    with --loop: at most N files, the oldest deleted\n"
	    "  --no-java   do not attach the agent to a JVM (native frames only)\n"
	    "  --native-base  a Java thread's stacks end with the native frames\n"
	    "              below its first Java frame (start_thread ...), the same\n"
	    "              on each; by default they end at that frame (Thread.run)\n"
	    "  --self      keep perfjava's own threads and code in the profile (the\n"
	    "              agent's thread in a JVM, its handlers and hooks on the\n"
	    "              application's threads, the recorder at -a); by default\n"
	    "              they are left out and the summary gives their CPU share\n"
	    "  -q          no progress line or summary\n");
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || end == s || *end || s[0] == '-' ? -1 : 0;
}

/*
 * -c: a count, or a time for cpu-clock and task-clock as asprof and perf
 * users write it (1ms, 250us, 10000000ns, 1s); *time tells which.
 */
static int parse_period(const char *s, uint64_t *v, bool *time)
{
	static const struct {
		const char *suffix;
		uint64_t ns;
	} units[] = { { "ns", 1 },
		      { "us", 1000 },
		      { "ms", 1000000 },
		      { "s", 1000000000 } };
	char *end;

	*time = false;
	if (!parse_u64(s, v))
		return *v ? 0 : -1;
	if (!isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!errno && *v && !strcmp(end, units[i].suffix) &&
		    *v <= UINT64_MAX / units[i].ns) {
			*v *= units[i].ns;
			*time = true;
			return 0;
		}
	return -1;
}

/* -e given more than once: the lists are joined, as perf does. */
static int append_events(struct record_opts *o, const char *spec)
{
	static char *joined;
	char *n;

	if (!o->events) {
		o->events = spec;
		return 0;
	}
	if (asprintf(&n, "%s,%s", o->events, spec) < 0)
		return -1;
	free(joined);
	joined = n;
	o->events = joined;
	return 0;
}

/* -C: every CPU given must be online. */
static int check_cpus(const struct idlist *cpus)
{
	struct idlist on = { 0 };
	char list[256];
	int ret = 0;

	if (!cpus->n || idlist_online_cpus(&on))
		return 0; /* unknown: the events' open will say */
	for (unsigned int i = 0; i < cpus->n && !ret; i++)
		if (!idlist_has(&on, cpus->v[i])) {
			idlist_print(&on, list, sizeof(list));
			fprintf(stderr,
				"perfjava: CPU %d is not online (online: "
				"%s)\n",
				cpus->v[i], list);
			ret = -1;
		}
	idlist_free(&on);
	return ret;
}

/* One kind of target: processes, threads, CPUs or a command (record's). */
static int check_targets(const struct record_opts *o, const char *cmd)
{
	int kinds = (o->pids.n > 0) + (o->tids.n > 0) + o->system_wide +
		    (o->argv != NULL);

	if (kinds > 1) {
		fprintf(stderr,
			"perfjava: give one of -p PID, -t TID, -a (or -C CPU) "
			"or a command to run%s%s\n",
			o->argv ? ", not both; the command is " : "",
			o->argv ? o->argv[0] : "");
		return -1;
	}
	if (!kinds && strcmp(cmd, "record")) {
		fprintf(stderr,
			"perfjava: %s needs -p PID, -t TID or -a (perfjava %s "
			"--help)\n",
			cmd, cmd);
		return -1;
	}
	if (!kinds) {
		fprintf(stderr,
			"perfjava: record needs -p PID, -t TID, -a or a "
			"command (perfjava record -- CMD ARGS)\n");
		usage(stderr);
		return -1;
	}
	return check_cpus(&o->cpus);
}

void record_opts_free(struct record_opts *o)
{
	idlist_free(&o->pids);
	idlist_free(&o->tids);
	idlist_free(&o->cpus);
}

void record_opts_init(struct record_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->output = "perfjava.data";
	o->pages = 16;
}

int record_opt(struct record_opts *o, int c, const char *arg)
{
	uint64_t v;
	char *end;

	switch (c) {
	case 'p':
		if (idlist_add(&o->pids, arg, false, 0x7fffffff)) {
			fprintf(stderr,
				"perfjava: bad pid list '%s' (pids "
				"like 10,11)\n",
				arg);
			return -1;
		}
		o->pid = (pid_t)o->pids.v[0];
		break;
	case 't':
		if (idlist_add(&o->tids, arg, false, 0x7fffffff)) {
			fprintf(stderr,
				"perfjava: bad thread list '%s' "
				"(thread ids like 12,13)\n",
				arg);
			return -1;
		}
		break;
	case 'a':
		o->system_wide = true;
		break;
	case 'C':
		if (idlist_add(&o->cpus, arg, true, IDLIST_MAX - 1)) {
			fprintf(stderr,
				"perfjava: bad CPU list '%s' (CPUs like "
				"0,2 or 0-3)\n",
				arg);
			return -1;
		}
		o->system_wide = true;
		break;
	case 'e':
		if (append_events(o, arg))
			return -1;
		break;
	case 'F':
		if (parse_u64(arg, &o->freq) || !o->freq) {
			fprintf(stderr, "perfjava: bad frequency '%s'\n", arg);
			return -1;
		}
		break;
	case 'c':
		if (parse_period(arg, &o->period, &o->period_time)) {
			fprintf(stderr,
				"perfjava: bad period '%s': a count, or "
				"a time for cpu-clock and task-clock "
				"(1ms, 250us, 1000000ns)\n",
				arg);
			return -1;
		}
		o->period_arg = arg;
		break;
	case 'g':
		o->callgraph = arg;
		break;
	case 'd':
		o->duration = strtod(arg, &end);
		if (*end || end == arg || !(o->duration > 0)) {
			fprintf(stderr, "perfjava: bad duration '%s'\n", arg);
			return -1;
		}
		break;
	case 'o':
		o->output = arg;
		o->output_set = true;
		break;
	case 'L':
		o->loop = strtod(arg, &end);
		if (*end || end == arg || !(o->loop >= 1) || o->loop > 1e7) {
			fprintf(stderr,
				"perfjava: --loop wants seconds (at "
				"least 1), not '%s'\n",
				arg);
			return -1;
		}
		break;
	case 'K':
		if (parse_u64(arg, &v) || !v || v > 1000000) {
			fprintf(stderr,
				"perfjava: --keep wants a number of "
				"files, not '%s'\n",
				arg);
			return -1;
		}
		o->keep = (unsigned int)v;
		break;
	case 'm':
		if (parse_u64(arg, &v) || !v || (v & (v - 1)) || v > 4096) {
			fprintf(
			    stderr,
			    "perfjava: -m takes a power of two up to 4096, not '%s'\n",
			    arg);
			return -1;
		}
		o->pages = (unsigned int)v;
		o->pages_given = true;
		break;
	case 'J':
		o->no_java = true;
		break;
	case 'i':
		o->no_inherit = true;
		break;
	case 'N':
		o->native_base = true;
		break;
	case 'S':
		o->self = true;
		break;
	case 'W': /* wall-clock: on-CPU and off-CPU time */
		if (append_events(o, "wall"))
			return -1;
		break;
	case 'A':
		o->agent_path = arg;
		break;
	case 'q':
		o->quiet = true;
		break;
	default:
		return 1;
	}
	return 0;
}

int record_opts_check(struct record_opts *o, const char *cmd)
{
	char err[256];

	if (check_targets(o, cmd))
		return -1;
	if (o->freq && o->period) {
		fprintf(stderr, "perfjava: give -F or -c, not both\n");
		return -1;
	}
	if (callgraph_parse(o->callgraph, &o->cg, err, sizeof(err))) {
		fprintf(stderr, "perfjava: %s\n", err);
		return -1;
	}
	o->callgraph = callgraph_name(&o->cg);
	if (o->cg.mode == CG_DWARF && o->pages_given &&
	    o->pages < callgraph_min_pages(&o->cg)) {
		fprintf(
		    stderr,
		    "perfjava: -m %u is too small for %u-byte stack copies; "
		    "give -m %u or more\n",
		    o->pages, o->cg.stack_size, callgraph_min_pages(&o->cg));
		return -1;
	}
	return 0;
}

/* record's long options (getopt_long's), top's among them (record_opt) */
const struct option record_long_options[] = {
	{ "pid", required_argument, NULL, 'p' },
	{ "tid", required_argument, NULL, 't' },
	{ "all-cpus", no_argument, NULL, 'a' },
	{ "cpu", required_argument, NULL, 'C' },
	{ "event", required_argument, NULL, 'e' },
	{ "freq", required_argument, NULL, 'F' },
	{ "count", required_argument, NULL, 'c' },
	{ "call-graph", required_argument, NULL, 'g' },
	{ "duration", required_argument, NULL, 'd' },
	{ "output", required_argument, NULL, 'o' },
	{ "mmap-pages", required_argument, NULL, 'm' },
	{ "no-java", no_argument, NULL, 'J' },
	{ "no-inherit", no_argument, NULL, 'i' },
	{ "native-base", no_argument, NULL, 'N' },
	{ "self", no_argument, NULL, 'S' },
	{ "wall", no_argument, NULL, 'W' },
	{ "loop", required_argument, NULL, 'L' },
	{ "keep", required_argument, NULL, 'K' },
	{ "agent", required_argument, NULL, 'A' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 }
};

int record_parse_args(int argc, char **argv, struct record_opts *o)
{
	int c, r;

	record_opts_init(o);
	optind = 1;
	opterr = 0; /* one line of our own for a wrong option */
	while ((c = getopt_long(argc, argv, "+:p:t:aC:e:F:c:g:d:o:m:iqh",
				record_long_options, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			exit(0);
		case ':':
			fprintf(stderr,
				"perfjava record: option '%s' needs a value\n",
				argv[optind - 1]);
			return -1;
		case '?':
			if (optopt)
				fprintf(
				    stderr,
				    "perfjava record: unknown option '-%c'; "
				    "perfjava record --help lists them\n",
				    optopt);
			else
				fprintf(stderr,
					"perfjava record: unknown option '%s'; "
					"perfjava record --help lists them\n",
					argv[optind - 1]);
			return -1;
		default:
			r = record_opt(o, c, optarg);
			if (r)
				return -1;
		}
	}
	if (optind < argc) { /* the command (getopt stopped at it or "--") */
		o->argv = argv + optind;
		o->argc = argc - optind;
	}
	return record_opts_check(o, "record");
}

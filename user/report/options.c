// SPDX-License-Identifier: GPL-2.0
/*
 * `perfjava report` options: parsing, and the format a -o file name implies
 * (async-profiler's rule: .html is a flame graph, .collapsed/.folded the
 * folded stacks, .pb.gz pprof, .txt text).
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

static const char short_usage[] =
    "usage: perfjava report [-i FILE] [-o OUT] [--format FORMAT] [options]\n"
    "(perfjava report --help lists every option)";

static const char usage[] =
    "usage: perfjava report [-i FILE] [-o OUT] [--format FORMAT] [options] [FILE...]\n"
    "  -i, --input FILE   profile to read (default perfjava.data); several -i\n"
    "                     or FILE arguments (a --loop recording's files) are\n"
    "                     merged into one report (--from/--to: across them)\n"
    "  -o, --output OUT   write here (default stdout); the extension picks the\n"
    "                     format: .html flame, .pb.gz/.pprof pprof,\n"
    "                     .collapsed/.folded collapsed, .txt text, .jfr jfr\n"
    "  --format FORMAT    text (default), collapsed, flame, tree, pprof, script,\n"
    "                     meta (the file's metadata and statistics, raw), jfr\n"
    "                     (JDK Flight Recorder, for jfr, JMC, async-profiler),\n"
    "                     heatmap (a page: time across, density as colour; a\n"
    "                     selected range's flame graph and its --from/--to)\n"
    "filters:\n"
    "  --event NAME       samples of this event (default the first recorded;\n"
    "                     for --wall recordings wall: on-CPU and off-CPU)\n"
    "  --state S[,S...]   off-CPU/wall: only samples in these states: running,\n"
    "                     sleep, io, lock, runnable (preempted), blocked, wait\n"
    "                     (a JVM's thread waiting for work: a condition, a\n"
    "                     queue, Object.wait; lock is a lock's acquire)\n"
    "  --pid N[,N...]     only these processes\n"
    "  --tid N[,N...]     only these threads\n"
    "  --processes        one root frame per process ([java pid=1234]); in\n"
    "                     text, a table of processes with their command lines\n"
    "  --threads          one root frame per thread (a virtual thread's:\n"
    "                     its name or #id and its carrier; under its\n"
    "                     process's with --processes)\n"
    "  --vthreads=merge   --threads with every virtual thread under one root\n"
    "  --include REGEX    only stacks with a frame matching REGEX (repeatable)\n"
    "  --exclude REGEX    no stacks with a frame matching REGEX (repeatable)\n"
    "  --from SECS        samples from SECS after the start of recording\n"
    "  --to SECS          samples before SECS after the start of recording\n"
    "weights and shape:\n"
    "  --total            weigh by the event's count (ns, events), not samples\n"
    "  --reverse          stacks leaf first (who calls the hottest frames)\n"
    "  --lines            Java frames with their line (Class.method:line)\n"
    "  --top N            stacks and rows in text output (default 20)\n"
    "  --minwidth PCT     flame graph: drop frames narrower than PCT percent\n"
    "  --inverted         flame graph drawn as an icicle (root at the top)\n"
    "  --title TEXT       title of the flame graph or tree page\n"
    "  --diff OLD         differential against profile OLD (flame, text)\n"
    "  --column SECS      heatmap: the time of a column (default chosen from\n"
    "                     the recording's length and rate: 1 s for 10 minutes)\n"
    "  --row SECS         heatmap: the time of a cell in its column (default\n"
    "                     a tenth of the column)\n"
    "names:\n"
    "  --simple           Java classes without their package (HashMap.get)\n"
    "  --sig, --signatures  Java signatures (Foo.bar(String, int[])) and C++\n"
    "                     parameter lists (f(int) const); default: names only\n"
    "  --raw-names        lambda and hidden-class names as recorded, with the\n"
    "                     JVM's addresses (default: Foo$$Lambda.run)\n"
    "  -h, --help         this text";

enum {
	OPT_FORMAT = 0x100,
	OPT_THREADS,
	OPT_VTHREADS,
	OPT_TOP,
	OPT_LINES,
	OPT_TOTAL,
	OPT_EVENT,
	OPT_TID,
	OPT_INCLUDE,
	OPT_EXCLUDE,
	OPT_REVERSE,
	OPT_FROM,
	OPT_TO,
	OPT_MINWIDTH,
	OPT_INVERTED,
	OPT_TITLE,
	OPT_DIFF,
	OPT_SIMPLE,
	OPT_SIGNATURES,
	OPT_RAW_NAMES,
	OPT_STATE,
	OPT_PROCESSES,
	OPT_PID,
	OPT_COLUMN,
	OPT_ROW,
};

static const struct option long_opts[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "output", required_argument, NULL, 'o' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "threads", no_argument, NULL, OPT_THREADS },
	{ "vthreads", required_argument, NULL, OPT_VTHREADS },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "lines", no_argument, NULL, OPT_LINES },
	{ "total", no_argument, NULL, OPT_TOTAL },
	{ "event", required_argument, NULL, OPT_EVENT },
	{ "tid", required_argument, NULL, OPT_TID },
	{ "include", required_argument, NULL, OPT_INCLUDE },
	{ "exclude", required_argument, NULL, OPT_EXCLUDE },
	{ "reverse", no_argument, NULL, OPT_REVERSE },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "to", required_argument, NULL, OPT_TO },
	{ "minwidth", required_argument, NULL, OPT_MINWIDTH },
	{ "inverted", no_argument, NULL, OPT_INVERTED },
	{ "title", required_argument, NULL, OPT_TITLE },
	{ "diff", required_argument, NULL, OPT_DIFF },
	{ "simple", no_argument, NULL, OPT_SIMPLE },
	{ "signatures", no_argument, NULL, OPT_SIGNATURES },
	{ "sig", no_argument, NULL, OPT_SIGNATURES }, /* asprof's */
	{ "raw-names", no_argument, NULL, OPT_RAW_NAMES },
	{ "state", required_argument, NULL, OPT_STATE },
	{ "processes", no_argument, NULL, OPT_PROCESSES },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "column", required_argument, NULL, OPT_COLUMN },
	{ "row", required_argument, NULL, OPT_ROW },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const struct {
	const char *ext, *format;
} by_ext[] = {
	{ ".html", "flame" },
	{ ".htm", "flame" },
	{ ".pb.gz", "pprof" },
	{ ".pprof", "pprof" },
	{ ".collapsed", "collapsed" },
	{ ".folded", "collapsed" },
	{ ".txt", "text" },
	{ ".jfr", "jfr" },
};

const char *report_format_of(const char *path)
{
	size_t n = path ? strlen(path) : 0;

	for (size_t i = 0; i < sizeof(by_ext) / sizeof(by_ext[0]); i++) {
		size_t k = strlen(by_ext[i].ext);

		if (n > k && !strcasecmp(path + n - k, by_ext[i].ext))
			return by_ext[i].format;
	}
	return NULL;
}

/* Whether the file name (not its directories) has an extension. */
static bool has_extension(const char *path)
{
	const char *base = strrchr(path, '/');
	const char *dot = strrchr(base ? base + 1 : path, '.');

	return dot && dot[1] && dot != (base ? base + 1 : path);
}

static int bad(const char *opt, const char *what, const char *arg)
{
	fprintf(stderr, "perfjava report: %s wants %s, not '%s'\n%s\n", opt,
		what, arg, short_usage);
	return -1;
}

static int add_regex(regex_t **arr, unsigned int *n, const char *opt,
		     const char *re)
{
	regex_t *a = realloc(*arr, (*n + 1) * sizeof(*a));
	char msg[256];
	int rc;

	if (!a)
		return bad(opt, "memory", re);
	*arr = a;
	rc = regcomp(&a[*n], re, REG_EXTENDED | REG_NOSUB);
	if (rc) {
		regerror(rc, &a[*n], msg, sizeof(msg));
		fprintf(stderr,
			"perfjava report: %s '%s' is not a regular "
			"expression: %s\n",
			opt, re, msg);
		return -1;
	}
	(*n)++;
	return 0;
}

/* "123,456" appended to ids; opt and what for the message. */
static int add_ids(uint32_t **ids, unsigned int *n, const char *opt,
		   const char *what, const char *arg)
{
	const char *s = arg;

	do {
		char *end;
		unsigned long v;
		uint32_t *t;

		errno = 0;
		v = strtoul(s, &end, 10);
		if (errno || end == s || v > UINT32_MAX || *s == '-' ||
		    (*end && *end != ','))
			return bad(opt, what, arg);
		t = realloc(*ids, (*n + 1) * sizeof(*t));
		if (!t)
			return bad(opt, "memory", arg);
		*ids = t;
		t[(*n)++] = (uint32_t)v;
		s = *end ? end + 1 : end;
	} while (*s);
	return 0;
}

/* Whether arg needs no quotes in a shell. */
static bool shell_plain(const char *arg)
{
	if (!*arg)
		return false;
	for (const char *c = arg; *c; c++)
		if (!strchr(
			"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			"0123456789_./,:=+@%-",
			*c))
			return false;
	return true;
}

/* Appends " opt" and arg (NULL: none), quoted for a shell, to o->argline:
 * the options that choose and name samples, for the heatmap's command. */
static int keep(struct report_opts *o, const char *opt, const char *arg)
{
	size_t need = strlen(opt) + 2 + (arg ? 4 * strlen(arg) + 3 : 0);
	char *a = realloc(o->argline, o->arglen + need + 1);
	char *at;

	if (!a)
		return bad(opt, "memory", arg ? arg : "");
	o->argline = a;
	at = a + o->arglen;
	at += sprintf(at, " %s", opt);
	if (arg && shell_plain(arg)) {
		at += sprintf(at, " %s", arg);
	} else if (arg) {
		*at++ = ' ';
		*at++ = '\'';
		for (const char *c = arg; *c; c++)
			at += *c == '\'' ? sprintf(at, "'\\''")
					 : sprintf(at, "%c", *c);
		*at++ = '\'';
		*at = 0;
	}
	o->arglen = (size_t)(at - a);
	return 0;
}

/* The options the heatmap's command line repeats, by their long names. */
static int keep_opt(struct report_opts *o, int c, const char *arg)
{
	static const int kept[] = {
		'i',	      OPT_EVENT,     OPT_STATE,	     OPT_PID,
		OPT_TID,      OPT_INCLUDE,   OPT_EXCLUDE,    OPT_THREADS,
		OPT_VTHREADS, OPT_PROCESSES, OPT_TOTAL,	     OPT_REVERSE,
		OPT_LINES,    OPT_SIMPLE,    OPT_SIGNATURES, OPT_RAW_NAMES,
	};
	char name[32];

	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		if (kept[i] != c)
			continue;
		for (const struct option *l = long_opts; l->name; l++) {
			if (l->val != c)
				continue;
			snprintf(name, sizeof(name), "--%s", l->name);
			return keep(o, name, l->has_arg ? arg : NULL);
		}
	}
	return 0;
}

static int get_double(const char *opt, const char *arg, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(arg, &end);
	if (errno || end == arg || *end || *v < 0 || *v != *v)
		return bad(opt, "a number >= 0", arg);
	return 0;
}

/* A heatmap cell's time: seconds > 0, at most a day. */
static int get_cell(const char *opt, const char *arg, double *v)
{
	if (get_double(opt, arg, v))
		return -1;
	if (*v < 1e-6 || *v > 86400)
		return bad(opt, "a time in seconds from 0.000001 to 86400",
			   arg);
	return 0;
}

int report_parse_opts(int argc, char **argv, struct report_opts *o)
{
	const char *format = NULL;
	int c;

	*o = (struct report_opts){ .input = "perfjava.data",
				   .top = 20,
				   .to = -1 };
	optind = 0; /* main may have used getopt already */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:o:h", long_opts, NULL)) != -1) {
		char *end;
		unsigned long n;
		int rc = 0;

		switch (c) {
		case 'i':
			if (o->ninputs == REPORT_MAX_INPUTS) {
				fprintf(stderr,
					"perfjava report: at most %d input "
					"files\n",
					REPORT_MAX_INPUTS);
				return -1;
			}
			o->inputs[o->ninputs++] = optarg;
			o->input = o->inputs[0];
			break;
		case 'o':
			o->output = optarg;
			break;
		case OPT_FORMAT:
			format = optarg;
			break;
		case OPT_THREADS:
			o->threads = true;
			break;
		case OPT_VTHREADS: /* virtual threads with --threads */
			if (strcmp(optarg, "merge") && strcmp(optarg, "each")) {
				fprintf(
				    stderr,
				    "perfjava report: --vthreads takes "
				    "merge (one root for all) or each "
				    "(one per virtual thread and carrier)\n");
				return -1;
			}
			o->vmerge = !strcmp(optarg, "merge");
			o->threads = true;
			break;
		case OPT_LINES:
			o->lines = true;
			break;
		case OPT_TOTAL:
			o->total = true;
			break;
		case OPT_EVENT:
			o->event = optarg;
			break;
		case OPT_REVERSE:
			o->reverse = true;
			break;
		case OPT_INVERTED:
			o->inverted = true;
			break;
		case OPT_TITLE:
			o->title = optarg;
			break;
		case OPT_DIFF:
			o->diff = optarg;
			break;
		case OPT_SIMPLE:
			o->simple = true;
			break;
		case OPT_SIGNATURES:
			o->signatures = true;
			break;
		case OPT_RAW_NAMES:
			o->raw_names = true;
			break;
		case OPT_STATE:
			if (report_parse_states(optarg, &o->states))
				rc =
				    bad("--state",
					"states like sleep,io (running, sleep, "
					"io, lock, runnable, blocked, wait)",
					optarg);
			break;
		case OPT_TID:
			rc = add_ids(&o->tids, &o->ntids, "--tid",
				     "thread ids like 123,456", optarg);
			break;
		case OPT_PID:
			rc = add_ids(&o->pids, &o->npids, "--pid",
				     "process ids like 123,456", optarg);
			break;
		case OPT_PROCESSES:
			o->processes = true;
			break;
		case OPT_INCLUDE:
			rc = add_regex(&o->include, &o->ninclude, "--include",
				       optarg);
			break;
		case OPT_EXCLUDE:
			rc = add_regex(&o->exclude, &o->nexclude, "--exclude",
				       optarg);
			break;
		case OPT_FROM:
			rc = get_double("--from", optarg, &o->from);
			break;
		case OPT_TO:
			rc = get_double("--to", optarg, &o->to);
			break;
		case OPT_COLUMN:
			rc = get_cell("--column", optarg, &o->column);
			break;
		case OPT_ROW:
			rc = get_cell("--row", optarg, &o->row);
			break;
		case OPT_MINWIDTH:
			rc = get_double("--minwidth", optarg, &o->minwidth);
			if (!rc && o->minwidth > 100)
				rc = bad("--minwidth", "a percentage", optarg);
			break;
		case OPT_TOP:
			errno = 0;
			n = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || n > 1000000 ||
			    optarg[0] == '-') {
				fprintf(stderr,
					"perfjava report: --top wants a number "
					"of stacks, not '%s'\n%s\n",
					optarg, short_usage);
				return -1;
			}
			o->top = (unsigned int)n;
			break;
		case 'h':
			printf("%s\n", usage);
			return 1;
		case ':':
			fprintf(stderr,
				"perfjava report: option '%s' needs a value\n"
				"%s\n",
				argv[optind - 1], short_usage);
			return -1;
		default:
			fprintf(stderr,
				"perfjava report: unknown option '%s'\n%s\n",
				argv[optind - 1], short_usage);
			return -1;
		}
		if (!rc)
			rc = keep_opt(o, c, optarg);
		if (rc)
			return -1;
	}
	for (; optind < argc; optind++) { /* more files: merged */
		if (o->ninputs == REPORT_MAX_INPUTS) {
			fprintf(stderr,
				"perfjava report: at most %d input files\n",
				REPORT_MAX_INPUTS);
			return -1;
		}
		o->inputs[o->ninputs++] = argv[optind];
		o->input = o->inputs[0];
		if (keep(o, "--input", argv[optind]))
			return -1;
	}
	if (o->to >= 0 && o->to <= o->from) {
		fprintf(stderr,
			"perfjava report: --to %g is not after --from %g\n",
			o->to, o->from);
		return -1;
	}
	if (!format && o->output && !report_format_of(o->output) &&
	    has_extension(o->output)) {
		fprintf(stderr,
			"perfjava report: cannot tell the format of '%s' from "
			"its extension; use .html (flame), .pb.gz (pprof), "
			".collapsed, .txt, .jfr, or give --format text|"
			"collapsed|flame|tree|pprof|script|jfr|heatmap\n",
			o->output);
		return -1;
	}
	if (!format)
		format = report_format_of(o->output);
	o->format = format ? format : "text";
	return 0;
}

void report_opts_free(struct report_opts *o)
{
	for (unsigned int i = 0; i < o->ninclude; i++)
		regfree(&o->include[i]);
	for (unsigned int i = 0; i < o->nexclude; i++)
		regfree(&o->exclude[i]);
	free(o->include);
	free(o->exclude);
	free(o->tids);
	free(o->pids);
	free(o->argline);
	o->argline = NULL;
	o->arglen = 0;
	o->include = o->exclude = NULL;
	o->tids = o->pids = NULL;
	o->ninclude = o->nexclude = o->ntids = o->npids = 0;
}

const char *report_usage(void)
{
	return short_usage;
}

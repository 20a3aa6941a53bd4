/* SPDX-License-Identifier: GPL-2.0 */
/* `perfjava record`'s options (record/options.c): parsed and checked. */
#ifndef PJ_USER_RECORD_OPTIONS_H
#define PJ_USER_RECORD_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "record/idlist.h"
#include "unwind/callgraph.h"

#define RECORD_DEFAULT_PERIOD_NS 10000000ULL /* 10 ms, as async-profiler */
#define RECORD_DEFAULT_FREQ 100

struct pj_writer_tap;

struct record_opts {
	pid_t pid; /* the first of pids, or the launched command */
	struct idlist pids; /* -p PID[,PID...] */
	struct idlist tids; /* -t TID[,TID...]: these threads alone */
	struct idlist cpus; /* -C CPU[,CPU...]: every process on these CPUs */
	bool system_wide; /* -a, or -C: every process */
	char **argv; /* -- CMD ARGS...: the command to launch */
	int argc;
	const char *events; /* -e */
	uint64_t freq; /* -F */
	uint64_t period; /* -c, ns when period_time */
	bool period_time; /* -c given with a time unit (1ms) */
	const char *period_arg; /* -c as given, for messages */
	double duration; /* -d seconds, 0 = until stopped */
	const char *output; /* -o; NULL: no file (perfjava top), its tap */
	const struct pj_writer_tap *tap; /* ... gets what the file would */
	bool output_set; /* -o given */
	double loop; /* --loop SECONDS: one file per interval, 0 = one */
	unsigned int keep; /* --keep N: at most N files of a --loop */
	const char *output_template; /* -o of --loop, with %t */
	const char *callgraph; /* -g */
	struct callgraph cg; /* -g parsed */
	unsigned int pages; /* -m */
	bool pages_given;
	const char *agent_path;
	bool no_java;
	/* --no-inherit: the tasks the targets start are not recorded from
	 * their start (their threads are, once seen: record/family.h) */
	bool no_inherit;
	bool native_base; /* --native-base: Java stacks keep their thread's */
	bool self; /* --self: perfjava's own threads and code stay in */
	bool quiet;
};

/* -1 on bad arguments (a message printed). */
int record_parse_args(int argc, char **argv, struct record_opts *o);
/* The parts of it that perfjava top takes too: o's defaults; option c
 * (the letter record's table gives it) with its value arg, 0, -1 after a
 * message, 1 for a letter that is not record's; once they are all in,
 * what holds between them (one kind of target, of which cmd says the
 * message: "record", "top"), 0 or -1 after a message. */
void record_opts_init(struct record_opts *o);
/* record's long options, as getopt_long takes them: the value of each is
 * its letter for record_opt. */
extern const struct option record_long_options[];
int record_opt(struct record_opts *o, int c, const char *arg);
int record_opts_check(struct record_opts *o, const char *cmd);
void record_opts_free(struct record_opts *o);

#endif

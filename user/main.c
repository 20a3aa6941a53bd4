// SPDX-License-Identifier: GPL-2.0
/*
 * perfjava: subcommand dispatch, and what a command does through a folder
 * it does not use: record's JFR output through report's writer, list's
 * kernel symbol source through sym/.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/list.h"
#include "lib/outfile.h"
#include "record/record.h"
#include "report/report.h"
#include "sym/ksource.h"
#include "top/top.h"

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "usage: perfjava <command> [options]\n"
	    "  record -p PID [-e EVENT] [-F HZ | -c PERIOD] [-d SECS] [-o FILE]\n"
	    "                      profile a running process (a JVM gets Java frames)\n"
	    "  record [options] -- CMD [ARGS...]\n"
	    "                      run CMD and profile it from its first instruction\n"
	    "  report [-i FILE] [--format text|collapsed|...] [-o OUT]\n"
	    "                      turn a recording into a report\n"
	    "  top -p PID | -a [-e EVENT] [-F HZ] [-w SECONDS]\n"
	    "                      the hottest frames now, refreshed every second\n"
	    "  list [KIND]         the events this machine can sample, probed\n"
	    "                      (with offcpu and wall: time off CPU, whole timeline)\n"
	    "  version             print the version\n"
	    "Run 'perfjava <command> --help' for a command's options.\n");
}

/* `record -o F.jfr`: the finished recording data written as jfr by the
 * report (record/record.h's record_to_jfr_fn) */
static int record_to_jfr(const char *data, const char *jfr, bool quiet)
{
	char *argv[] = { "report",     "--format", "jfr",	"-i",
			 (char *)data, "-o",	   (char *)jfr, NULL };

	if (cmd_report(7, argv)) {
		fprintf(stderr,
			"perfjava: the recording is kept in %s; convert it "
			"with: perfjava report -i %s -o %s\n",
			data, data, jfr);
		return 1;
	}
	if (outfile_remove(data))
		fprintf(stderr, "perfjava: wrote %s; could not remove %s\n",
			jfr, data);
	else if (!quiet)
		fprintf(stderr, "perfjava: wrote %s (JFR)\n", jfr);
	return 0;
}

/* `perfjava list ksym`: which source would name kernel frames of a
 * recording started now */
static void list_kernel_symbols(void)
{
	struct ksource k;
	char st[512];

	printf("Kernel symbols (what names kernel frames)\n");
	ksource_open(&k, getenv("PERFJAVA_KALLSYMS")); /* as record does */
	snprintf(st, sizeof(st), "%s%s", *k.kallsyms_why ? "no: " : "yes",
		 k.kallsyms_why);
	list_row("/proc/kallsyms", st);
	snprintf(st, sizeof(st), "%s%s",
		 k.kind == KSOURCE_KALLSYMS ? "not needed"
		 : *k.module_why	    ? "no: "
					    : "yes",
		 k.module_why);
	list_row("perfjava_ksym module", st);
	ksource_describe(&k, st, sizeof(st));
	list_row("kernel frames", st);
	ksource_close(&k);
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;

	setvbuf(stderr, NULL, _IOLBF, 0);
	if (!cmd || !strcmp(cmd, "-h") || !strcmp(cmd, "--help") ||
	    !strcmp(cmd, "help")) {
		usage(cmd ? stdout : stderr);
		return cmd ? 0 : 2;
	}
	if (!strcmp(cmd, "record"))
		return cmd_record(argc - 1, argv + 1, record_to_jfr);
	if (!strcmp(cmd, "report"))
		return cmd_report(argc - 1, argv + 1);
	if (!strcmp(cmd, "top"))
		return cmd_top(argc - 1, argv + 1);
	if (!strcmp(cmd, "list"))
		return cmd_list(argc - 1, argv + 1, list_kernel_symbols);
	if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
		printf("perfjava %s\n", PERFJAVA_VERSION);
		return 0;
	}
	fprintf(stderr, "perfjava: unknown command '%s'\n", cmd);
	usage(stderr);
	return 2;
}

// SPDX-License-Identifier: GPL-2.0
/* perfjava: subcommand dispatch. */
#include <stdio.h>
#include <string.h>

#include "events/list.h"
#include "record/record.h"
#include "report/report.h"
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
		return cmd_record(argc - 1, argv + 1);
	if (!strcmp(cmd, "report"))
		return cmd_report(argc - 1, argv + 1);
	if (!strcmp(cmd, "top"))
		return cmd_top(argc - 1, argv + 1);
	if (!strcmp(cmd, "list"))
		return cmd_list(argc - 1, argv + 1);
	if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
		printf("perfjava %s\n", PERFJAVA_VERSION);
		return 0;
	}
	fprintf(stderr, "perfjava: unknown command '%s'\n", cmd);
	usage(stderr);
	return 2;
}

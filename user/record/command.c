// SPDX-License-Identifier: GPL-2.0
/*
 * `perfjava record`, the command: its options and output (a file, a
 * --loop series, a .jfr converted at the end), the recording started and
 * stopped (record/record.c) around the poll loop (record/run.c) until -d,
 * Ctrl-C, SIGTERM or the targets' exit; then the trailer and the summary.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/agents.h"
#include "record/launch.h"
#include "record/loop.h"
#include "record/record.h"
#include "record/recorder.h"
#include "record/run.h"
#include "record/summary.h"
#include "record/tojfr.h"

/* "recording 1234 (12 threads, java frames on) into F", or of several. */
static void say_recording(const struct recorder *rec)
{
	unsigned int jvms = 0, cpus = 0;

	for (unsigned int i = 0; i < rec->procs.n; i++)
		jvms += rec->procs.v[i]->agent != NULL;
	for (unsigned int i = 0; i < rec->th.n; i++)
		cpus += ring_is_cpu(rec->th.v[i]);
	if (rec->mach)
		fprintf(stderr,
			"perfjava: recording %s (%u CPU%s, java frames on for "
			"%u JVM%s) into %s; Ctrl-C to stop\n",
			rec->o.cpus.n ? "the processes on those CPUs"
				      : "every process",
			cpus, cpus == 1 ? "" : "s", jvms, jvms == 1 ? "" : "s",
			rec->o.output);
	else if (rec->procs.n == 1)
		fprintf(stderr,
			"perfjava: recording %d (%u thread%s%s) into %s; "
			"Ctrl-C to stop\n",
			rec->o.pid, rec->th.n, rec->th.n == 1 ? "" : "s",
			jvms ? ", java frames on" : "", rec->o.output);
	else
		fprintf(stderr,
			"perfjava: recording %u processes (%u threads, java "
			"frames on for %u JVM%s) into %s; Ctrl-C to stop\n",
			rec->procs.n, rec->th.n, jvms, jvms == 1 ? "" : "s",
			rec->o.output);
}

/* The file finished: its trailer, closed, the summary; 0 or 1. */
static int finish_file(struct recorder *rec)
{
	uint64_t bytes;

	record_write_stats(rec);
	bytes = pj_writer_bytes(rec->w) + pj_writer_pending(rec->w);
	if (rec->write_failed) /* said so */
		return 1;
	if (pj_writer_close(rec->w)) { /* it freed the writer; errno says why */
		rec->w = NULL;
		fprintf(stderr, "perfjava: cannot write %s: %s\n",
			rec->o.output, strerror(errno));
		return 1;
	}
	rec->w = NULL;
	record_summary(rec, bytes);
	return 0;
}

int cmd_record(int argc, char **argv, record_to_jfr_fn to_jfr)
{
	struct recorder *rec = malloc(sizeof(*rec));
	struct record_opts o;
	char data[4096];
	const char *jfr = NULL;
	int ret;

	if (!rec)
		return 1;
	if (record_parse_args(argc, argv, &o) || loop_setup(&o)) {
		ret = 2;
		goto out;
	}
	if (tojfr_wanted(o.output)) { /* recorded as ours, converted after */
		if (o.loop > 0) {
			fprintf(stderr,
				"perfjava record: --loop writes perfjava "
				"files; convert one with perfjava report "
				"-i FILE -o FILE.jfr\n");
			ret = 2;
			goto out;
		}
		jfr = o.output;
		o.output = tojfr_data_path(jfr, data, sizeof(data));
	}
	ret = record_start(rec, &o);
	if (ret)
		goto out;
	if (!rec->o.quiet)
		say_recording(rec);
	run_loop(rec, rec->sigfd);
	ret = 1;
	if (!rec->w) { /* --loop could not start the next file (said so) */
		agents_abandon(rec); /* attaches in flight: given up, said */
		goto stopped;
	}
	record_stop(rec);
	if (finish_file(rec))
		goto stopped;
	ret = jfr && to_jfr(rec->o.output, jfr, rec->o.quiet) ? 1 : 0;
	if (rec->launch) { /* its exit status is perfjava's */
		if (!rec->o.quiet && rec->th.n)
			fprintf(stderr,
				"perfjava: waiting for %s (pid %d) to exit\n",
				rec->o.argv[0], rec->o.pid);
		ret = launch_wait(rec);
	}
stopped:
	record_free(rec);
out:
	record_opts_free(&o);
	free(rec);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * What a profile file says about its recording: the target and the host,
 * when the recording started, what each event index means, the live
 * threads. Written at the start by `perfjava record` (record/record.c) and
 * again at the start of every --loop file (record/loop.c).
 */
#include <stdio.h>
#include <sys/utsname.h>
#include <time.h>

#include "lib/file.h"
#include "record/record.h"

/* pid's command line, its arguments joined by spaces, into buf. */
static void read_cmdline(pid_t pid, char *buf, size_t len)
{
	char path[64];
	FILE *f;
	size_t n = 0;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	f = fopen(path, "re");
	if (f) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	for (size_t i = 0; i + 1 < n; i++)
		if (!buf[i])
			buf[i] = ' ';
	buf[n] = 0;
}

void record_write_header(struct recorder *rec)
{
	char buf[4096], comm[64], cmd[4096];
	struct utsname u;

	snprintf(buf, sizeof(buf), "%d", rec->o.pid);
	pj_writer_meta(rec->w, "pid", buf);
	snprintf(buf, sizeof(buf), "/proc/%d/comm", rec->o.pid);
	read_small_file(buf, comm, sizeof(comm));
	pj_writer_meta(rec->w, "comm", comm);
	read_cmdline(rec->o.pid, cmd, sizeof(cmd));
	pj_writer_meta(rec->w, "cmdline", cmd);
	pj_writer_process(rec->w, (uint32_t)rec->o.pid,
			  rec->java ? PJ_PROC_JVM : PJ_PROC_USER,
			  PJ_PROC_F_TARGET, comm, cmd, NULL);
	if (!uname(&u)) {
		pj_writer_meta(rec->w, "hostname", u.nodename);
		pj_writer_meta(rec->w, "kernel", u.release);
	}
	pj_writer_meta(rec->w, "perfjava", PERFJAVA_VERSION);
	pj_writer_meta(rec->w, "callgraph", rec->o.callgraph);
	pj_writer_meta(rec->w, "java", rec->java ? "yes" : "no");
}

/*
 * Recording starts when the events are enabled, after the symbols are read
 * and the agent attached: the one start_ns of the header, the statistics,
 * --duration and report's --from/--to.
 */
void record_mark_start(struct recorder *rec, uint64_t now)
{
	struct timespec ts = { 0 };
	char buf[32];

	rec->start_ns = now;
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)rec->start_ns);
	pj_writer_meta(rec->w, "start_ns", buf);
	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(buf, sizeof(buf), "%lld", (long long)ts.tv_sec);
	pj_writer_meta(rec->w, "start_realtime", buf);
	/* to the ns: a JFR file's chunk starts there (report/jfr_out.c) */
	snprintf(buf, sizeof(buf), "%llu",
		 (unsigned long long)ts.tv_sec * 1000000000ull +
		     (unsigned long long)ts.tv_nsec);
	pj_writer_meta(rec->w, "start_realtime_ns", buf);
}

/* The event table of the file: what each sample's event index means. */
void record_describe_events(struct recorder *rec)
{
	for (unsigned int i = 0; i < rec->nevents; i++) {
		const struct pj_event *ev = &rec->evs[i];
		struct pj_event_desc d = {
			.index = i,
			.name = ev->name,
			.unit = ev->unit,
			.type = ev->attr.type,
			.config = ev->attr.config,
			.period = ev->period,
			.freq = ev->freq,
		};

		pj_writer_event(rec->w, &d);
	}
	if (rec->nevents)
		pj_writer_meta(rec->w, "event", rec->evs[0].name);
}

/* --loop: what a new file needs on its own (record/loop.c). */
void record_file_header(struct recorder *rec, uint64_t now)
{
	record_write_header(rec);
	record_mark_start(rec, now);
	record_describe_events(rec);
	symbolizer_write_meta(&rec->sym);
	for (unsigned int i = 0; i < rec->th.n; i++) {
		char comm[64];

		thread_comm(rec->o.pid, rec->th.v[i]->tid, comm, sizeof(comm));
		pj_writer_thread(rec->w, rec->th.v[i]->tid, rec->o.pid, comm);
	}
}

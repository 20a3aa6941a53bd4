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

#include "events/spec.h"
#include "lib/procfs.h"
#include "profile/io.h"
#include "record/container.h"
#include "record/header.h"
#include "rings/threads.h"

void header_process(struct pj_writer *w, pid_t pid, bool java, bool target,
		    bool first)
{
	header_process_cmd(w, pid, java, target, first, NULL);
}

void header_process_cmd(struct pj_writer *w, pid_t pid, bool java, bool target,
			bool first, const char *cmdline)
{
	char buf[4096], comm[64], cmd[4096], ct[128];

	proc_comm(pid, 0, comm, sizeof(comm));
	if (cmdline)
		snprintf(cmd, sizeof(cmd), "%s", cmdline);
	else
		proc_cmdline(pid, cmd, sizeof(cmd));
	container_of(pid, ct, sizeof(ct));
	pj_writer_process(w, (uint32_t)pid, java ? PJ_PROC_JVM : PJ_PROC_USER,
			  target ? PJ_PROC_F_TARGET : 0, comm, cmd, ct);
	if (!first)
		return;
	/* the first target as files of one target said it */
	snprintf(buf, sizeof(buf), "%d", pid);
	pj_writer_meta(w, "pid", buf);
	pj_writer_meta(w, "comm", comm);
	pj_writer_meta(w, "cmdline", cmd);
}

void header_write(struct pj_writer *w, const char *callgraph, bool java)
{
	struct utsname u;

	if (!uname(&u)) {
		pj_writer_meta(w, "hostname", u.nodename);
		pj_writer_meta(w, "kernel", u.release);
	}
	pj_writer_meta(w, "perfjava", PERFJAVA_VERSION);
	pj_writer_meta(w, "callgraph", callgraph);
	pj_writer_meta(w, "java", java ? "yes" : "no");
}

void header_mark_start(struct pj_writer *w, uint64_t now)
{
	struct timespec ts = { 0 };
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)now);
	pj_writer_meta(w, "start_ns", buf);
	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(buf, sizeof(buf), "%lld", (long long)ts.tv_sec);
	pj_writer_meta(w, "start_realtime", buf);
	/* to the ns: a JFR file's chunk starts there (report/jfr_out.c) */
	snprintf(buf, sizeof(buf), "%llu",
		 (unsigned long long)ts.tv_sec * 1000000000ull +
		     (unsigned long long)ts.tv_nsec);
	pj_writer_meta(w, "start_realtime_ns", buf);
}

void header_describe_events(struct pj_writer *w, const struct pj_event *evs,
			    unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		const struct pj_event *ev = &evs[i];
		struct pj_event_desc d = {
			.index = i,
			.name = ev->name,
			.unit = ev->unit,
			.type = ev->attr.type,
			.config = ev->attr.config,
			.period = ev->period,
			.freq = ev->freq,
		};

		pj_writer_event(w, &d);
	}
	if (n)
		pj_writer_meta(w, "event", evs[0].name);
}

void header_threads(struct pj_writer *w, const struct threads *th)
{
	union u64map_val *v;
	uint64_t k;

	for (unsigned int i = 0; i < th->n; i++) {
		const struct ring *r = th->v[i];
		char comm[64];

		if (ring_is_cpu(r)) /* -a: named as they come */
			continue;
		proc_comm(r->pid, r->tid, comm, sizeof(comm));
		pj_writer_thread(w, (uint32_t)r->tid, (uint32_t)r->pid, comm);
	}
	/* and the tasks they carry (rings/threads.h), alive */
	for (uint32_t i = 0; u64map_next(&th->carried, &i, &k, &v);) {
		char comm[64];
		pid_t pid = (pid_t)(uint32_t)v->u, tid = (pid_t)(k - 1);

		proc_comm(pid, tid, comm, sizeof(comm));
		if (comm[0])
			pj_writer_thread(w, (uint32_t)tid, (uint32_t)pid, comm);
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The tasks the targets start (record/family.h), fed as ring records
 * through the real hot path: a sample of a child that no FORK announced (a
 * record lost with a ring's overflow) is kept without its process, which
 * the loop's next tick makes; a sample's way opens no file of /proc.
 */
#include <signal.h>
#include <sys/wait.h>

#include "lib/clock.h"
#include "pipeline/proc.h"
#include "record/family.h"
#include "record/rproc.h"
#include "recsynth.h"
#include "tap.h"

int main(void)
{
	char dir[] = "/tmp/pj-family-XXXXXX", path[64];
	uint64_t st = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
		      PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	struct synth_sample x = { .id = SYNTH_ID0, .ip = 0x1000, .period = 1 };
	const struct proc *p;
	struct synth s;
	pid_t child;

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/f.data", dir);
	child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	if (child < 0 || synth_open(&s, path, "cpu-clock", st, 0, false)) {
		ok(0, "a child and a recorder");
		return tap_done();
	}
	s.rec->th.opts.inherit = true; /* -p and what it starts */
	x.pid = x.tid = (uint32_t)child;
	x.time = now_ns();
	synth_feed(&s, &s.ring, &x);
	x.time++;
	synth_feed(&s, &s.ring, &x);
	ok(!procs_get(&s.rec->procs, child) && s.rec->fam.late == 2 &&
	       s.rec->fam.late_n == 1 && !s.rec->fam.procs,
	   "two samples of an unannounced child: kept, the child not made on "
	   "their way (%llu late, %u to make)",
	   (unsigned long long)s.rec->fam.late, s.rec->fam.late_n);
	family_tick(s.rec, now_ns());
	p = procs_get(&s.rec->procs, child);
	ok(p && rproc(p)->child && s.rec->fam.procs == 1 && !s.rec->fam.late_n,
	   "the tick makes it, once (%llu made)",
	   (unsigned long long)s.rec->fam.procs);
	x.time++;
	synth_feed(&s, &s.ring, &x);
	ok(s.rec->fam.late == 2 && !s.rec->fam.late_n,
	   "its next sample finds it");
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	ok(!synth_close(&s), "profile closed");
	unlink(path);
	rmdir(dir);
	return tap_done();
}

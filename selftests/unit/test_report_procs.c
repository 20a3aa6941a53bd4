// SPDX-License-Identifier: GPL-2.0
/*
 * Profiles of several processes: samples carry their pid, the PROCESSES
 * table names each process, and report shows them apart: --processes
 * roots, --pid, thread labels with their pid, every target in the header,
 * also of merged files; a version 1 file's samples get their thread's pid.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "profile/io.h"
#include "tap.h"

static char data[300], other[300];
#include "report_util.h"

/*
 * Process 100 "java" (a JVM, a target; threads 100 "java" and 300
 * "worker"), 200 "cpusplit" (a target, in container "web"; threads 200 and
 * 300 "spin": the same tid as java's worker), 2 "kthreadd" (a kernel
 * thread) and the idle task (pid 0, tid 0). Stacks:
 *   J  Work.run_[j]      4 x (100, 300)
 *   M  main_[0]          1 x (100, 100)
 *   S  work_a            3 x (200, 300), 2 x (200, 200)
 *   K  kthread_[k]       1 x (2, 2)
 *   I  cpu_idle_[k]      2 x (0, 0)
 */
static int make_procs(const char *path)
{
	static const struct {
		uint32_t pid, tid, n;
		int stack;
	} plan[] = { { 100, 300, 4, 0 }, { 100, 100, 1, 1 }, { 200, 300, 3, 2 },
		     { 200, 200, 2, 2 }, { 2, 2, 1, 3 },     { 0, 0, 2, 4 } };
	uint32_t st[5];
	struct pj_writer *w = report_writer(path);
	uint64_t t = 1000000000;

	if (!w)
		return -1;
	pj_writer_meta(w, "system_wide", "all CPUs (-a)");
	st[0] =
	    pj_writer_stack(w,
			    (uint32_t[]){ pj_writer_frame(
				w, PJ_FRAME_JIT, "Work.run", NULL, NULL, 0) },
			    1);
	st[1] = pj_writer_stack(
	    w,
	    (uint32_t[]){ pj_writer_frame(w, PJ_FRAME_INTERPRETED, "main", NULL,
					  NULL, 0) },
	    1);
	st[2] = pj_writer_stack(
	    w,
	    (uint32_t[]){ pj_writer_frame(w, PJ_FRAME_NATIVE, "work_a",
					  "/bin/cpusplit", NULL, 0) },
	    1);
	st[3] = pj_writer_stack(
	    w,
	    (uint32_t[]){ pj_writer_frame(w, PJ_FRAME_KERNEL, "kthread",
					  "vmlinux", NULL, 0) },
	    1);
	st[4] = pj_writer_stack(
	    w,
	    (uint32_t[]){ pj_writer_frame(w, PJ_FRAME_KERNEL, "cpu_idle",
					  "vmlinux", NULL, 0) },
	    1);
	pj_writer_process(w, 100, PJ_PROC_JVM, PJ_PROC_F_TARGET, "java",
			  "java -cp /tmp Work", NULL);
	pj_writer_process(w, 200, PJ_PROC_USER, PJ_PROC_F_TARGET, "old", "old",
			  NULL);
	pj_writer_thread(w, 100, 100, "java");
	pj_writer_thread(w, 300, 100, "worker");
	pj_writer_thread(w, 200, 200, "cpusplit");
	pj_writer_thread(w, 300, 200, "spin");
	pj_writer_thread(w, 2, 2, "kthreadd");
	for (size_t i = 0; i < sizeof(plan) / sizeof(*plan); i++)
		for (uint32_t k = 0; k < plan[i].n; k++) {
			struct pj_sample s = { .time = t, .period = 1000000 };

			s.pid = plan[i].pid;
			s.tid = plan[i].tid;
			s.stack = st[plan[i].stack];
			t += 1000000;
			pj_writer_sample(w, &s);
			if (i == 2 && !k) { /* a later entry replaces */
				pj_writer_flush(w);
				pj_writer_process(w, 200, PJ_PROC_USER,
						  PJ_PROC_F_TARGET, "cpusplit",
						  "./cpusplit 10 2", "web");
			}
		}
	pj_writer_process(w, 2, PJ_PROC_KERNEL, 0, "kthreadd", NULL, NULL);
	pj_writer_process(w, 0, PJ_PROC_IDLE, 0, "swapper", NULL, NULL);
	return pj_writer_close(w);
}

/* A second file of one target, 400 "python3", for merged reports. */
static int make_other(const char *path)
{
	struct pj_sample s = {
		.time = 2000000000, .period = 1000000, .tid = 400, .pid = 400
	};
	struct pj_writer *w = report_writer(path);

	if (!w)
		return -1;
	s.stack = pj_writer_stack(
	    w,
	    (uint32_t[]){ pj_writer_frame(w, PJ_FRAME_NATIVE, "eval",
					  "/usr/bin/python3", NULL, 0) },
	    1);
	pj_writer_process(w, 400, PJ_PROC_USER, PJ_PROC_F_TARGET, "python3",
			  "python3 x.py", NULL);
	pj_writer_thread(w, 400, 400, "python3");
	pj_writer_sample(w, &s);
	return pj_writer_close(w);
}

static void test_load(void)
{
	struct pj_profile *p;
	const struct pj_process *pr;
	char err[256];
	uint32_t pids[6] = { 0 };

	if (!ok(pj_profile_load(data, &p, err, sizeof(err)) == 0, "load (%s)",
		err))
		return;
	for (size_t i = 0, k = 0; i < p->nsamples && k < 6; i++)
		if (!i || p->samples[i].pid != p->samples[i - 1].pid)
			pids[k++] = p->samples[i].pid;
	ok(p->nsamples == 13 && pids[0] == 100 && pids[1] == 200 &&
	       pids[2] == 2 && pids[3] == 0,
	   "every sample keeps its pid, across chunks");
	ok(p->npids == 4, "four processes (%u)", p->npids);
	pr = pj_profile_process(p, 200);
	ok(p->nprocs == 4 && pr && pr->kind == PJ_PROC_USER &&
	       (pr->flags & PJ_PROC_F_TARGET) &&
	       !strcmp(pj_str(p, pr->comm), "cpusplit") &&
	       !strcmp(pj_str(p, pr->cmdline), "./cpusplit 10 2") &&
	       !strcmp(pj_str(p, pr->container), "web"),
	   "a process's later entry replaces its first");
	ok(!strcmp(pj_profile_thread_name(p, 100, 300), "worker") &&
	       !strcmp(pj_profile_thread_name(p, 200, 300), "spin"),
	   "one tid in two processes: two threads");
	pj_profile_free(p);
}

static void test_roots(void)
{
	int rc = report("-i", data, "--format=collapsed", "--processes", "-o",
			out, (char *)NULL);

	ok(rc == 0 &&
	       !strcmp(slurp(out), "[cpusplit pid=200 container=web];work_a 5\n"
				   "[idle];cpu_idle_[k] 2\n"
				   "[java pid=100];Work.run_[j] 4\n"
				   "[java pid=100];main_[0] 1\n"
				   "[kthreadd pid=2 kernel];kthread_[k] 1\n"),
	   "--processes: a root per process, named by its entry");
	rc = report("-i", data, "--format=collapsed", "--processes",
		    "--threads", "--pid", "200,100", "-o", out, (char *)NULL);
	ok(rc == 0 &&
	       !strcmp(slurp(out), "[cpusplit pid=200 container=web];[cpusplit "
				   "tid=200 pid=200];work_a 2\n"
				   "[cpusplit pid=200 container=web];[spin "
				   "tid=300 pid=200];work_a 3\n"
				   "[java pid=100];[java tid=100 pid=100];"
				   "main_[0] 1\n"
				   "[java pid=100];[worker tid=300 pid=100];"
				   "Work.run_[j] 4\n"),
	   "--pid keeps those processes; threads carry their pid");
	rc = report("-i", data, "--format=collapsed", "--processes",
		    "--include", "container=web", "-o", out, (char *)NULL);
	ok(rc == 0 && !strcmp(slurp(out),
			      "[cpusplit pid=200 container=web];work_a 5\n"),
	   "--include matches a process's root");
	rc = report("-i", data, "--pid", "7", (char *)NULL);
	ok(rc == 1 && strstr(slurp(errf), "(--pid)"),
	   "--pid of no sample says so");
	rc = report("-i", data, "--pid", "x", (char *)NULL);
	ok(rc == 2 && strstr(slurp(errf), "--pid"), "--pid x is refused");
}

static void test_text(void)
{
	const char *t;
	int rc = report("-i", data, "--processes", "-o", out, (char *)NULL);

	t = slurp(out);
	ok(rc == 0 &&
	       strstr(t, "Target              : pid 100 (java): java "
			 "-cp /tmp Work\n") &&
	       strstr(t, "Target              : pid 200 (cpusplit): "
			 "./cpusplit 10 2\n") &&
	       strstr(t, "Processes           : 4\n") &&
	       strstr(t, "Target              : every process, all CPUs "
			 "(-a)\n"),
	   "the header names every target and counts the processes");
	ok(strstr(t, "     5000000   38.46%        5  [cpusplit pid=200 "
		     "container=web]  ./cpusplit 10 2\n") &&
	       strstr(t, "     5000000   38.46%        5  [java pid=100]  "
			 "java -cp /tmp Work\n") &&
	       strstr(t, "     2000000   15.38%        2  [idle]\n"),
	   "--processes in text: each process's share and command line");
	rc = report(data, other, "-o", out, (char *)NULL);
	t = slurp(out);
	ok(rc == 0 && strstr(t, "pid 100 (java)") &&
	       strstr(t, "pid 200 (cpusplit)") &&
	       strstr(t, "pid 400 (python3): python3 x.py") &&
	       strstr(t, "Processes           : 5\n"),
	   "merged files: every target of each");
}

static void test_old_file(void)
{
	struct pj_profile *p;
	char err[256];

	if (access("selftests/fuzz/corpus/profile/native.data", R_OK)) {
		skip("a version 1 file", "no corpus file here");
		return;
	}
	ok(pj_profile_load("selftests/fuzz/corpus/profile/native.data", &p, err,
			   sizeof(err)) == 0 &&
	       p->nsamples && p->samples[0].pid == 31789 && p->npids == 1,
	   "a version 1 file: its samples have their thread's pid");
	pj_profile_free(p);
}

int main(void)
{
	if (report_dir_make())
		return 1;
	snprintf(data, sizeof(data), "%s/procs.data", dir);
	snprintf(other, sizeof(other), "%s/other.data", dir);
	if (ok(make_procs(data) == 0 && make_other(other) == 0,
	       "profiles of several processes written")) {
		test_load();
		test_roots();
		test_text();
	}
	test_old_file();
	report_dir_remove();
	return tap_done();
}

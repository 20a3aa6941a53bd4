// SPDX-License-Identifier: GPL-2.0
/*
 * A recording's start and stop, for `perfjava record` (record/command.c)
 * and `perfjava top`: check the targets, open the output, open one event
 * set per thread, attach the agent to each JVM, enable the events; after
 * the poll loop (record/run.c), disable, drain, finish the walks and
 * detach the agents.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "events/lbr.h"
#include "events/tracepoint.h"
#include "lib/clock.h"
#include "lib/file.h"
#include "lib/grow.h"
#include "lib/procfs.h"
#include "pipeline/jevents.h"
#include "pipeline/wall.h"
#include "record/agents.h"
#include "record/header.h"
#include "record/hotpath.h"
#include "record/launch.h"
#include "record/loop.h"
#include "record/machine.h"
#include "record/record.h"
#include "record/recorder.h"
#include "record/run.h"
#include "rings/benchturn.h"
#include "sym/maps.h"

/* Checks the target before anything is changed in it. */
static int check_target(pid_t pid, bool *java)
{
	struct pj_maps maps;

	if (!proc_exists(pid, 0)) {
		fprintf(stderr, "perfjava: no process with pid %d\n", pid);
		return -1;
	}
	if (maps_load(pid, &maps)) {
		if (errno == ENOENT || errno == ESRCH)
			fprintf(stderr, "perfjava: no process with pid %d\n",
				pid);
		else if (geteuid())
			fprintf(
			    stderr,
			    "perfjava: not permitted to read process %d (%s); run as its user or as root\n",
			    pid, strerror(errno));
		else /* root, yet ptrace access is denied */
			fprintf(
			    stderr,
			    "perfjava: not permitted to read process %d (%s) even as root: it holds capabilities this perfjava lacks (a container's bounding set) or a security module (Yama, SELinux, AppArmor) forbids it; run perfjava where the target's privileges are\n",
			    pid, strerror(errno));
		return -1;
	}
	for (unsigned int i = 0; i < maps.n; i++) {
		const char *s = strrchr(maps.v[i].path, '/');

		if (s && !strcmp(s, "/libjvm.so"))
			*java = true;
	}
	maps_free(&maps);
	return 0;
}

/* The process of thread tid (its thread group), or -1. */
static pid_t tgid_of(pid_t tid)
{
	char buf[32];

	if (proc_status_field(tid, 0, "Tgid:", buf, sizeof(buf)))
		return -1;
	return (pid_t)strtol(buf, NULL, 10);
}

/* -t: the processes of the threads, each once, into o->pids. */
static int tids_processes(struct record_opts *o)
{
	char buf[32];

	for (unsigned int i = 0; i < o->tids.n; i++) {
		pid_t pid = tgid_of((pid_t)o->tids.v[i]);

		if (pid <= 0) {
			fprintf(stderr, "perfjava: no thread with tid %d\n",
				o->tids.v[i]);
			return -1;
		}
		snprintf(buf, sizeof(buf), "%d", pid);
		if (idlist_add(&o->pids, buf, false, 0x7fffffff))
			return -1;
	}
	o->pid = o->pids.n ? (pid_t)o->pids.v[0] : 0;
	return 0;
}

/* Each -p process (or -t thread's), before anything is changed in any:
 * java_of[i] tells whether the i-th is a JVM. */
static int check_targets(const struct record_opts *o, bool *java_of)
{
	for (unsigned int i = 0; i < o->pids.n; i++)
		if (check_target((pid_t)o->pids.v[i], &java_of[i]))
			return -1;
	return 0;
}

/* The targets recorded (the first made by recorder_init), each held from
 * now on (record/target.h). */
static int add_targets(struct recorder *rec, const bool *java_of)
{
	unsigned int n = rec->o.pids.n ? rec->o.pids.n : 1;

	for (unsigned int i = 0; i < n; i++) {
		pid_t pid = rec->o.pids.n ? (pid_t)rec->o.pids.v[i]
					  : rec->o.pid;
		struct proc *p = procs_add(&rec->procs, pid, PROCS_UNWIND);

		if (!p) {
			fprintf(stderr, "perfjava: out of memory\n");
			return -1;
		}
		rproc(p)->target = true;
		rproc(p)->follow = !rec->o.tids.n; /* -t: those threads alone */
		recorder_set_java(rec, p, java_of[i]);
		if (target_open(&rproc(p)->tgt, pid)) {
			fprintf(stderr,
				"perfjava: process %d exited before it could "
				"be profiled\n",
				pid);
			return -1;
		}
	}
	return 0;
}

static void thread_opened(void *ctx, struct ring *r)
{
	struct recorder *rec = ctx;
	struct proc *p = procs_get(&rec->procs, r->pid);
	char comm[64];

	proc_comm(r->pid, r->tid, comm, sizeof(comm));
	pj_writer_thread(rec->w, r->tid, r->pid, comm);
	if (rec->th.enabled) /* opened while recording: its clocks start */
		switchcost_mark(&rec->sc, r);
	wall_thread_opened(rec->wall, r->pid, r->tid);
	if (p)
		ksig_thread_opened(&p->ks, r);
}

/* A process's rings: a JVM's samples wait for their walk, so they wake
 * the reader each (unless the agent walks at the kernel's SIGTRAP, which
 * only its threads may get: any other process would die of it). */
static void opts_for(void *ctx, pid_t pid, struct ring_opts *o)
{
	struct recorder *rec = ctx;
	struct proc *p = procs_get(&rec->procs, pid);
	bool java = p && p->java && !rec->o.no_java;

	o->pages = rec->thread_pages; /* (-a: not a CPU's ring's) */
	o->wakeup_events = java ? 1 : 0;
	o->sigtrap = p && p->agent ? ksig_traps(&p->ks, p->agent) : 0;
	/* its signal, when not SIGTRAP, goes to one thread (F_SETOWN_EX) */
	if (p && p->agent && !o->sigtrap)
		o->inherit = false;
}

/*
 * With PERF_SAMPLE_PERIOD in period mode, the kernel samples every software,
 * tracepoint and breakpoint event (period 1) whatever the period asked for.
 * perf leaves PERIOD out with -c; so does perfjava when an event of that kind
 * asks for a period above 1 and no event is sampled by frequency: each
 * sample then weighs its event's period.
 */
static bool period_field_needed(const struct recorder *rec)
{
	bool swevent_period = false;

	for (unsigned int i = 0; i < rec->nevents; i++) {
		const struct pj_event *ev = &rec->evs[i];

		if (jevents_is(rec->jev, i))
			continue; /* no perf samples */
		if (ev->freq)
			return true;
		if (event_counts_hits(ev) && ev->period > 1)
			swevent_period = true;
	}
	return !swevent_period;
}

/*
 * Each thread takes two descriptors (its clock event and the switch counter
 * in its group, pipeline/switchcost.h): a JVM's thousand threads pass the
 * usual soft limit of 1024. As perf does, the soft limit goes up to the
 * hard one; "too many open files" then still says what to do.
 */
static void raise_fd_limit(void)
{
	struct rlimit l;

	if (getrlimit(RLIMIT_NOFILE, &l) || l.rlim_cur >= l.rlim_max)
		return;
	l.rlim_cur = l.rlim_max;
	setrlimit(RLIMIT_NOFILE, &l);
}

/* Opens the threads of every target (-t: those threads alone); 0, or
 * -errno from the first that failed (*bad its event, *pid its process). */
static int scan_targets(struct recorder *rec, unsigned int *bad, pid_t *pid)
{
	const struct idlist *tids = &rec->o.tids;
	int err;

	for (unsigned int i = 0; i < tids->n; i++) {
		*pid = tgid_of((pid_t)tids->v[i]);
		err = threads_add(&rec->th, *pid, (pid_t)tids->v[i], bad);
		if (err < 0)
			return err;
	}
	for (unsigned int i = 0; i < rec->procs.n; i++) {
		struct proc *p = rec->procs.v[i];

		if (!rproc(p)->follow)
			continue;
		*pid = p->pid;
		err = threads_scan(&rec->th, p->pid, bad);
		if (err < 0)
			return err;
	}
	return 0;
}

/* kernel.perf_event_paranoid, or 2 (its default) when unreadable. */
static int paranoid(void)
{
	char p[16] = "2";

	read_small_file("/proc/sys/kernel/perf_event_paranoid", p, sizeof(p));
	return atoi(p);
}

/* Whether a JVM is among the processes recorded. */
static bool any_java(const struct recorder *rec)
{
	for (unsigned int i = 0; i < rec->procs.n; i++)
		if (rec->procs.v[i]->java)
			return true;
	return false;
}

/* The targets' threads, or each CPU's ring (-a, -C). */
static int open_rings(struct recorder *rec, unsigned int *bad, pid_t *pid)
{
	int err;

	if (!rec->mach)
		return scan_targets(rec, bad, pid);
	err = machine_open(rec, bad);
	/* and the threads of each JVM with its agent (one that cannot is
	 * recorded by its CPU's ring) */
	for (unsigned int i = 0; !err && i < rec->procs.n; i++)
		agents_follow(rec, rec->procs.v[i]);
	return err;
}

static int open_threads(struct recorder *rec)
{
	bool java_copy;
	struct threads *t = &rec->th;
	unsigned int bad = 0;
	pid_t pid = rec->o.pid;
	char msg[512];
	int err;

	t->evs = rec->evs;
	t->nevents = rec->nevents;
	t->opts.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
			      PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			      PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			      PERF_SAMPLE_CALLCHAIN;
	if (!period_field_needed(rec))
		t->opts.sample_type &= ~(uint64_t)PERF_SAMPLE_PERIOD;
	if (rec->tp) /* tracepoint fields, decoded into the sample's info */
		t->opts.sample_type |= PERF_SAMPLE_RAW;
	if (rec->o.cg.stack_size) {
		/* Registers and the top of the stack, for CFI (unwind/). */
		t->opts.sample_type |= PERF_SAMPLE_REGS_USER |
				       PERF_SAMPLE_STACK_USER;
		t->opts.regs_user = UNWIND_REGS_MASK;
		t->opts.stack_user = rec->o.cg.stack_size;
	}
	if (rec->dec.lbr) {
		t->opts.sample_type |= PERF_SAMPLE_BRANCH_STACK;
		t->opts.branch_sample_type = LBR_BRANCH_SAMPLE_TYPE;
		/* The user stack comes from the branch records alone. */
		t->opts.no_user_callchain = true;
	}
	t->opts.pages = rec->o.pages;
	/* 8 KiB stack copies: room for more than a handful per ring (a JVM's
	 * switch-outs come by the thousand a second) */
	if (rec->o.cg.mode == CG_DWARF && !rec->o.pages_given &&
	    t->opts.pages < 64)
		t->opts.pages = 64;
	/* the events are every process's: a JVM among them makes the copies
	 * everyone's */
	java_copy = wall_java_copy(rec->wall, rec->evs, rec->nevents,
				   any_java(rec) && !rec->o.no_java,
				   rec->o.cg.stack_size);
	if (java_copy && t->opts.pages < WALL_JAVA_MIN_PAGES) {
		if (!rec->o.quiet)
			fprintf(stderr,
				"perfjava: -m %u cannot hold a JVM's off-CPU "
				"samples (%u bytes of stack each): %u pages a "
				"thread\n",
				t->opts.pages, (unsigned int)WALL_JAVA_COPY,
				(unsigned int)WALL_JAVA_MIN_PAGES);
		t->opts.pages = WALL_JAVA_MIN_PAGES;
	}
	if (java_copy && !rec->o.pages_given && t->opts.pages < 128)
		t->opts.pages = 128;
	/* a thread's own ring holds its samples alone (opts_for) */
	rec->thread_pages = t->opts.pages;
	/* -a: a CPU's ring takes every process's samples (and with -e
	 * offcpu every switch of every thread) */
	if (rec->mach && !rec->o.pages_given &&
	    t->opts.pages < (rec->wall ? 1024u : 256u))
		t->opts.pages = rec->wall ? 1024 : 256;
	t->opts.max_stack = 127;
	/* the drain's first pace (run.c): a sample holds its stack copy */
	rec->sample_max = t->opts.stack_user + 256;
	t->opts.track = true;
	/* the time a clock event cannot sample (pipeline/switchcost.h) */
	t->opts.count_switches = rec->nevents == 1 && !rec->wall;
	t->opts.alt = bench_from_env();
	if (t->opts.alt) /* its weights would mix the turns */
		t->opts.count_switches = false;
	t->opts.enable_on_exec = rec->launch != NULL; /* counts from the exec */
	t->on_open = thread_opened;
	t->opts_for = opts_for;
	t->ctx = rec;
	t->opts.mmaps = rec->mach != NULL; /* -a: JVMs that start */
	family_setup(rec); /* what the targets start: inherited */
	err = open_rings(rec, &bad, &pid);
	if (err == -EACCES || err == -EPERM) {
		char p[16] = "?";

		read_small_file("/proc/sys/kernel/perf_event_paranoid", p,
				sizeof(p));
		t->opts.exclude_kernel = true;
		err = open_rings(rec, &bad, &pid);
		if (err >= 0 && !rec->o.quiet)
			fprintf(
			    stderr,
			    "perfjava: kernel frames not recorded: kernel.perf_event_paranoid=%s forbids them for this user (run as root, grant CAP_PERFMON, or set it to 1)\n",
			    p);
	}
	/* ENOENT is also perf_event_open's "no such event" (no PMU). */
	if (err >= 0 && t->n == 0)
		pid = rec->o.pid;
	if (!rec->mach && (err == -ESRCH || (err >= 0 && t->n == 0) ||
			   (err == -ENOENT && !proc_exists(pid, 0)))) {
		fprintf(
		    stderr,
		    "perfjava: process %d exited before it could be profiled\n",
		    pid);
		return -1;
	}
	if (err < 0) {
		if (err == -EMFILE || err == -ENFILE)
			snprintf(
			    msg, sizeof(msg),
			    "cannot open events for all threads: too many open files; raise the limit with ulimit -n");
		else if (bad == RING_BAD_MMAP)
			snprintf(
			    msg, sizeof(msg),
			    "cannot map the ring buffers (%s); try a smaller -m or raise kernel.perf_event_mlock_kb",
			    strerror(-err));
		else if (rec->mach && (err == -EACCES || err == -EPERM))
			snprintf(
			    msg, sizeof(msg),
			    "-a and -C watch every process: run as root, grant CAP_PERFMON, or set kernel.perf_event_paranoid=0 (it is %d)",
			    paranoid());
		else
			events_open_error(
			    &rec->evs[bad < rec->nevents ? bad : 0], -err, msg,
			    sizeof(msg));
		fprintf(stderr, "perfjava: %s\n", msg);
		return -1;
	}
	return 0;
}

/* Blocks the signals that stop a recording and reads them from
 * rec->sigfd instead (the poll loop's). */
static void take_signals(struct recorder *rec)
{
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	signal(SIGPIPE, SIG_IGN);
	rec->sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
}

/* The recording started: the targets held, the agents attached, the
 * events open and enabled. 0, or -1 after a message. */
static int start(struct recorder *rec, bool java, const bool *java_of)
{
	char err[512];

	if (rec->o.system_wide
		? machine_new(rec)
		: add_targets(rec, rec->o.argv ? &java : java_of))
		return -1;
	ring_init();
	raise_fd_limit(); /* after the fork: the command keeps its own */
	/*
	 * A launched command: events open before its exec, which enables
	 * them; its maps are read again once it has exec'd. Nothing slow
	 * between the exec and the poll loop, which opens its new threads.
	 */
	if (rec->launch) {
		struct proc *p = recorder_first(rec);

		if (open_threads(rec))
			return -1;
		if (launch_exec(rec))
			return -127; /* as a shell says "cannot run" */
		target_rebase(&rproc(p)->tgt); /* it runs the command now */
		/* rings opened from now on count at once (and may SIGTRAP) */
		rec->th.opts.enable_on_exec = false;
		/* nothing was named with the parent's yet */
		if (symbolizer_reload_user(&p->sym, p->pid)) {
			fprintf(stderr, "perfjava: out of memory\n");
			return -1;
		}
	}
	recorder_header(rec);
	if (rec->mach) /* -a: every JVM running gets its agent now */
		machine_find_jvms(rec);
	take_signals(rec);
	/* A JVM's agent comes before its events, whose kind depends on it
	 * (pipeline/ksig.h: the kernel's SIGTRAP at the sample). */
	for (unsigned int i = 0; i < rec->procs.n; i++)
		agents_start(rec, rec->procs.v[i]);
	if (rec->mach) /* -a: the JVMs running, attached beside (bounded) */
		agents_settle(rec, rec->sigfd);
	if (!rec->launch && open_threads(rec))
		return -1;
	/* started: the file takes its name (a failed start left any file
	 * there as it was), and keeps it whatever happens from now on */
	if (pj_writer_commit(rec->w, err, sizeof(err))) {
		fprintf(stderr, "perfjava: %s\n", err);
		return -1;
	}
	ksymbolizer_write_meta(&rec->ksym);
	/*
	 * A JVM's samples wait for the reader to pass them on: every
	 * millisecond the reader waits for a CPU behind the target's own
	 * threads is error in the Java stack. Ask for a better nice level
	 * where allowed (root, CAP_SYS_NICE); nothing changes otherwise.
	 * At -a too: every process's samples (and JVMs to come) wait for it.
	 */
	if (recorder_any_agent(rec) || (rec->launch && java) || rec->mach)
		setpriority(PRIO_PROCESS, 0, -10);
	recorder_mark_start(rec, now_ns());
	threads_enable(&rec->th);
	for (unsigned int i = 0; i < rec->th.n; i++) /* the clocks start */
		switchcost_mark(&rec->sc, rec->th.v[i]);
	wall_start(rec->wall, &rec->th, rec->start_ns);
	return 0;
}

int record_start(struct recorder *rec, struct record_opts *o)
{
	struct launch *launch = NULL;
	bool java = false, *java_of;
	int ret;

	memset(rec, 0, sizeof(*rec));
	rec->sigfd = -1;
	if (tids_processes(o))
		return 1;
	java_of = calloc(o->pids.n + 1, sizeof(*java_of));
	if (!java_of)
		return 1;
	if (o->argv ? launch_fork(o, &java, &launch)
		    : check_targets(o, java_of)) {
		free(java_of);
		return 1;
	}
	if (recorder_init(rec, o)) {
		rec->launch = launch;
		launch_abort(rec); /* a command that never ran */
		rec->sigfd = -1;
		free(java_of);
		return 1;
	}
	rec->launch = launch;
	ret = start(rec, java, java_of);
	free(java_of);
	if (!ret)
		return 0;
	pj_writer_abort(rec->w); /* and its file, when never committed */
	rec->w = NULL;
	record_free(rec);
	return ret == -127 ? 127 : 1;
}

void record_stop(struct recorder *rec)
{
	agents_abandon(rec); /* attaches in flight: given up, said */
	switchcost_take(&rec->sc, &rec->th, true); /* while the events run */
	threads_disable(&rec->th);
	for (unsigned int i = 0; i < rec->procs.n; i++)
		ksig_last(&rec->procs.v[i]->ks);
	run_collect_walks(rec);
	run_drain_last(rec);
	for (unsigned int i = 0; i < rec->procs.n; i++) {
		ksig_flush(&rec->procs.v[i]->ks); /* the rings are read */
		ksig_match(&rec->procs.v[i]->ks);
	}
	recorder_finish_waits(rec);
	rec->end_ns = now_ns();
	wall_tick(rec->wall, rec->end_ns); /* threads still waiting */
	emit_java_names(&rec->em, &rec->th);
	for (unsigned int i = 0; i < rec->procs.n; i++)
		if (rec->procs.v[i]->agent)
			agents_stopped(rec, rec->procs.v[i], NULL);
	if (rec->sigfd >= 0)
		close(rec->sigfd);
	rec->sigfd = -1;
}

void record_free(struct recorder *rec)
{
	if (rec->w)
		pj_writer_abort(rec->w);
	rec->w = NULL;
	launch_abort(rec); /* a command not waited for: perfjava failed */
	loop_free(rec);
	machine_free(rec->mach); /* -a, -C: made by this command */
	rec->mach = NULL;
	recorder_free(rec); /* the agents stopped */
	if (rec->sigfd >= 0)
		close(rec->sigfd);
	rec->sigfd = -1;
}

// SPDX-License-Identifier: GPL-2.0
/* The tasks the targets start; see record/family.h. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <perf/event.h>

#include "lib/clock.h"
#include "lib/procfs.h"
#include "pipeline/switchcost.h"
#include "profile/io.h"
#include "record/container.h"
#include "record/family.h"
#include "record/recorder.h"
#include "sym/maps.h"

/* An exited process is forgotten this long after its exit record (its
 * last samples, in the same ring, drained by then). */
#define FORGET_NS 1000000000ULL

bool family_on(const struct recorder *rec)
{
	return rec->th.opts.inherit;
}

void family_setup(struct recorder *rec)
{
	struct ring_opts *o = &rec->th.opts;

	/* as perf, whose -t does not either; nor make bench's turns
	 * (rings/benchturn.h), which turn one thread's events at a time */
	o->inherit = !rec->o.no_inherit && !rec->o.tids.n && !rec->mach &&
		     !o->alt;
	if (!o->inherit)
		return;
	rec->procs.max_unw = FAMILY_MAX_UNWINDERS; /* as -a: some live on */
	o->mmaps = true; /* their maps: read after they exited */
}

static uint64_t ts_ns(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000000ULL + (uint64_t)t->tv_nsec;
}

/* A time of CLOCK_MONOTONIC (the records') in clock ticks since boot, as
 * /proc counts start times (suspended time included); 0 when unknown. *tick
 * is one tick in ns. */
static uint64_t boot_ticks(uint64_t mono_time, uint64_t *tick)
{
	struct timespec b, m;
	long hz = sysconf(_SC_CLK_TCK);
	uint64_t now;

	if (hz <= 0 || clock_gettime(CLOCK_BOOTTIME, &b) ||
	    clock_gettime(CLOCK_MONOTONIC, &m))
		return 0;
	*tick = 1000000000ULL / (uint64_t)hz;
	now = ts_ns(&m);
	if (mono_time > now) /* (not a time of the past) */
		mono_time = now;
	return (mono_time + (ts_ns(&b) - now)) / *tick;
}

bool family_same_process(pid_t pid, uint64_t time)
{
	uint64_t ticks, tick, at;

	if (proc_start_time(pid, &ticks))
		return false;
	/* started by then, give or take its start time's tick */
	return !time || !(at = boot_ticks(time, &tick)) || ticks <= at + 2;
}

void family_names(struct proc *p, const char *comm, const char *cmd)
{
	char *c = strdup(cmd);

	if (comm)
		snprintf(rproc(p)->comm, sizeof(rproc(p)->comm), "%s", comm);
	if (!c)
		return;
	free(rproc(p)->cmdline);
	rproc(p)->cmdline = c;
}

/* p into the file: what it is, its command line and container. */
static void write_proc(struct recorder *rec, const struct proc *p,
		       const char *ct)
{
	pj_writer_process(rec->w, (uint32_t)p->pid,
			  p->java ? PJ_PROC_JVM : PJ_PROC_USER,
			  rproc(p)->target ? PJ_PROC_F_TARGET : 0,
			  rproc(p)->comm,
			  rproc(p)->cmdline ? rproc(p)->cmdline : "", ct);
}

void family_write(struct recorder *rec, const struct proc *p)
{
	write_proc(rec, p, "");
}

/*
 * Names p, a process the targets started: from /proc while it is the one
 * (time: the record that announced it). Gone already (or a zombie, whose
 * command line is empty), from what is known: a fork runs its parent's
 * program (named so); one that exec'd is named by comm and then by its
 * program's path, its first executable mapping (family_mmap).
 */
static void describe(struct recorder *rec, struct proc *p, const char *comm,
		     uint64_t time, bool exec)
{
	char c[64] = "", cmd[4096] = "", ct[128] = "";
	const struct proc *parent = procs_get(&rec->procs, rproc(p)->ppid);

	if (family_same_process(p->pid, time)) {
		proc_comm(p->pid, 0, c, sizeof(c));
		proc_cmdline(p->pid, cmd, sizeof(cmd));
		container_of(p->pid, ct, sizeof(ct));
	}
	rproc(p)->name_by_exe = false;
	if (cmd[0]) {
		family_names(p, c, cmd);
		write_proc(rec, p, ct);
		return;
	}
	rec->fam.gone += !rproc(p)->gone;
	rproc(p)->gone = true;
	if (exec) {
		rproc(p)->name_by_exe = true;
		family_names(p, comm, "");
	} else {
		family_names(p, parent ? rproc(parent)->comm : comm,
			     parent && rproc(parent)->cmdline
				 ? rproc(parent)->cmdline
				 : "");
	}
	write_proc(rec, p, ct);
}

/* A process the targets started, not known yet (pid ppid's child, seen at
 * time); NULL beyond FAMILY_MAX_PROCS or out of memory. */
static struct proc *child_add(struct recorder *rec, pid_t pid, pid_t ppid,
			      uint64_t time)
{
	const struct proc *parent;
	struct proc *p;

	if (rec->fam.live >= FAMILY_MAX_PROCS) {
		rec->fam.over++;
		return NULL;
	}
	p = procs_add(&rec->procs, pid, PROCS_UNWIND);
	if (!p)
		return NULL;
	rproc(p)->child = true;
	rproc(p)->ppid = ppid;
	rec->fam.procs++;
	rec->fam.live++;
	parent = procs_get(&rec->procs, ppid);
	if (parent && !family_same_process(pid, time))
		procs_inherit(p, parent); /* gone: its parent's maps */
	describe(rec, p, parent ? rproc(parent)->comm : "", time, false);
	return p;
}

/* The process a FORK record starts: a known one, or a new one (a child's
 * that ended before, its pid used again: freed here, on the sideband's
 * way, never on a sample's). */
static struct proc *child_new(struct recorder *rec, pid_t pid, pid_t ppid,
			      uint64_t time)
{
	struct proc *p = procs_get(&rec->procs, pid);

	if (p && rproc(p)->child && rproc(p)->exited_at && !p->agent) {
		procs_remove(&rec->procs, p); /* its pid, used again */
		p = NULL;
	}
	return p ? p : child_add(rec, pid, ppid, time);
}

/* Thread tid of p (started by ptid) into the file, named as it is now, or
 * as its creator (whose name a new thread takes) or its process is. */
static void name_thread(struct recorder *rec, struct proc *p, pid_t tid,
			pid_t ptid)
{
	char comm[64];

	if (jnames_has(&rec->em.names, (uint32_t)tid))
		return;
	proc_comm(p->pid, tid, comm, sizeof(comm));
	if (!comm[0])
		proc_comm(p->pid, ptid, comm, sizeof(comm));
	if (!comm[0])
		snprintf(comm, sizeof(comm), "%s", rproc(p)->comm);
	pj_writer_thread(rec->w, (uint32_t)tid, (uint32_t)p->pid, comm);
}

void family_fork(struct recorder *rec, struct ring *r,
		 const struct perf_event_header *hdr)
{
	const struct perf_record_fork *fk = (const void *)hdr;
	pid_t pid, tid, ppid;
	struct proc *p;
	unsigned int bad;
	bool thread;

	if (hdr->size < sizeof(*fk) || ring_is_cpu(r))
		return;
	pid = (pid_t)fk->pid;
	tid = (pid_t)fk->tid;
	ppid = (pid_t)fk->ppid;
	thread = pid == ppid;
	if (pid <= 0 || tid <= 0 || threads_find(&rec->th, tid))
		return;
	p = procs_get(&rec->procs, pid);
	/* a promoted JVM's new task: its own rings carry it, an older one
	 * only when it came before its creator's own (family_promote) */
	if (p && rproc(p)->own_since &&
	    (r->pid != pid || r->opened_ns < rproc(p)->own_since) &&
	    threads_is_carried(&rec->th, tid))
		return;
	if (family_on(rec) && r->inherit && (thread || r->inherit_procs)) {
		p = thread ? family_proc(rec, pid, fk->time)
			   : child_new(rec, pid, ppid, fk->time);
		if (!p || threads_carry(&rec->th, r, pid, tid))
			return;
		rec->th.changed |= !r->carrier; /* its end polled */
		r->carrier = true;
		name_thread(rec, p, tid, (pid_t)fk->ptid);
		return;
	}
	if (thread) { /* a followed process's new thread: its own ring */
		if (p && rproc(p)->follow && !rproc(p)->ended)
			threads_add(&rec->th, pid, tid, &bad);
		return;
	}
	/* a process started by a thread whose events it does not carry (a
	 * JVM's, which signal its threads alone): its own rings */
	if (!family_on(rec) || !procs_get(&rec->procs, ppid))
		return;
	p = child_new(rec, pid, ppid, fk->time);
	if (!p)
		return;
	rproc(p)->follow = true;
	threads_add(&rec->th, pid, tid, &bad);
}

void family_exit(struct recorder *rec, const struct perf_event_header *hdr)
{
	const struct perf_record_fork *fk = (const void *)hdr;
	struct proc *p;

	if (hdr->size < sizeof(*fk) || rec->mach)
		return;
	if (threads_is_carried(&rec->th, (pid_t)fk->tid)) {
		/* what is kept of a thread (with a ring: reap_threads) */
		jnames_forget(&rec->em.names, fk->tid);
		switchcost_thread_gone(&rec->sc, fk->tid);
		threads_uncarry(&rec->th, (pid_t)fk->tid);
	}
	if (fk->pid != fk->tid ||
	    !(p = procs_get(&rec->procs, (pid_t)fk->pid)) || !rproc(p)->child ||
	    rproc(p)->exited_at)
		return;
	rproc(p)->exited_at = now_ns();
	rec->fam.live -= rec->fam.live > 0;
}

void family_comm(struct recorder *rec, struct proc *p, uint32_t tid,
		 const char *comm, bool exec)
{
	if (!exec || rec->mach)
		return;
	/* another program: its names, its maps, and what it is */
	procs_exec(&rec->procs, p);
	if (rproc(p)->target && !rec->launch)
		return; /* a -p target's exec: its end (record/sideband.c) */
	/* (a launched command's agent, -agentpath, is the launch's) */
	if (!p->agent && !rproc(p)->target)
		p->java = false; /* until it maps libjvm.so */
	describe(rec, p, comm, now_ns(), true);
}

/* Whether the n bytes of path end with the file name name. */
static bool ends_with(const char *path, size_t n, const char *name)
{
	size_t k = strlen(name);

	return n > k && path[n - k - 1] == '/' &&
	       !memcmp(path + n - k, name, k);
}

/* p, one the targets started, is a JVM now: its agent is to come beside
 * the poll loop (record/agents.h), at once (its samples wait), held by its
 * pidfd whoever gets its pid next; the reader's nice level as a JVM
 * target's (record/record.c: its samples wait for the reader). */
static void want_agent(struct recorder *rec, struct proc *p)
{
	struct rproc *r = rproc(p);

	r->java_at = now_ns();
	r->attach_at = 0;
	setpriority(PRIO_PROCESS, 0, -10);
	if (!r->target && !r->tgt.pid && target_open(&r->tgt, p->pid))
		r->ended = true; /* gone already */
}

struct proc *family_mmap(struct recorder *rec,
			 const struct perf_event_header *hdr)
{
	const struct perf_record_mmap2 *mm = (const void *)hdr;
	size_t off = offsetof(struct perf_record_mmap2, filename), n;
	struct pj_map m = { 0 };
	struct proc *p;

	if (hdr->size <= off)
		return NULL;
	n = strnlen(mm->filename, hdr->size - off);
	if (n == hdr->size - off || mm->start + mm->len < mm->start ||
	    !(p = procs_get(&rec->procs, (pid_t)mm->pid)))
		return NULL;
	m.start = mm->start;
	m.end = mm->start + mm->len;
	m.pgoff = mm->pgoff;
	m.exec = mm->prot & PROT_EXEC;
	m.path = (char *)mm->filename;
	if (!(hdr->misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
		m.dev_major = mm->maj;
		m.dev_minor = mm->min;
		m.inode = mm->ino;
	}
	symbolizer_add_map(&p->sym, &m);
	if (rproc(p)->name_by_exe && m.exec && mm->filename[0] == '/') {
		rproc(p)->name_by_exe = false; /* its program, first mapped */
		family_names(p, NULL, mm->filename);
		/* -a: named at its first sample, again now if that came
		 * first (its exec's records in another CPU's ring) */
		if (!rec->mach || rproc(p)->sampled)
			write_proc(rec, p, "");
	}
	if (p->java || rec->o.no_java || rec->mach || /* (machine_mmap) */
	    !ends_with(mm->filename, n, "libjvm.so"))
		return NULL;
	p->java = true;
	rec->fam.jvms++;
	write_proc(rec, p, ""); /* a JVM now */
	want_agent(rec, p);
	return p;
}

void family_agent_in(struct recorder *rec, struct proc *p)
{
	if (!p || !rproc(p)->java_at || rec->mach)
		return;
	family_promote(rec, p);
	if (!rec->o.quiet)
		fprintf(stderr,
			"%sperfjava: JVM %d attached %.2f s after it loaded "
			"libjvm.so\n",
			rec->launch ? "" : "\n", p->pid,
			(double)(now_ns() - rproc(p)->java_at) / 1e9);
}

struct proc *family_proc(struct recorder *rec, pid_t pid, uint64_t time)
{
	struct proc *p = procs_get(&rec->procs, pid);

	if (p || !family_on(rec) || pid <= 0)
		return p;
	return child_add(rec, pid, 0, time);
}

bool family_stale(struct recorder *rec, const struct ring *r,
		  const struct pj_sample *s)
{
	const struct proc *p = procs_get(&rec->procs, (pid_t)s->pid);
	uint64_t since = p ? rproc(p)->own_since : 0;

	if (!since || s->time < since || ring_is_cpu(r) ||
	    (r->pid == (pid_t)s->pid && r->opened_ns >= since))
		return false;
	rec->fam.stale++;
	return true;
}

static struct proc *family_proc_of(struct recorder *rec,
				   const struct pj_sample *s)
{
	struct proc *p = procs_get(&rec->procs, (pid_t)s->pid);
	struct family *f = &rec->fam;
	unsigned int i;

	if (p || !family_on(rec) || (pid_t)s->pid <= 0)
		return p;
	if (f->live >= FAMILY_MAX_PROCS) {
		f->over++;
		return NULL;
	}
	f->late++;
	for (i = 0; i < f->late_n && f->late_v[i].pid != (pid_t)s->pid; i++)
		;
	if (i == f->late_n && i < FAMILY_LATE_MAX) {
		f->late_v[i].pid = (pid_t)s->pid;
		f->late_v[i].time = s->time;
		f->late_n++;
	}
	return NULL;
}

const struct sample_owner family_owner = {
	.elsewhere = family_stale,
	.proc_of = family_proc_of,
};

/* Whether ring r's events are carried by a task of process pid. */
static bool carries(const struct threads *th, const struct ring *r, pid_t pid)
{
	uint32_t i = 0;
	uint64_t k;
	union u64map_val *v;

	while (u64map_next(&th->carried, &i, &k, &v))
		if ((uint32_t)(v->u >> 32) == r->serial &&
		    (pid_t)(uint32_t)v->u == pid)
			return true;
	return false;
}

/*
 * p's threads that started before since get rings of their own; those
 * that started after (as the rings were replaced) are carried by their
 * creator's new ring: a ring of their own would sample them twice.
 */
static void own_threads(struct recorder *rec, struct proc *p, uint64_t since)
{
	char path[96];
	struct dirent *de;
	uint64_t tick, last = boot_ticks(since, &tick), ticks;
	unsigned int bad;
	DIR *d = opendir(proc_path(path, sizeof(path), p->pid, 0, "task"));

	while (d && (de = readdir(d)) != NULL) {
		pid_t tid = (pid_t)atoi(de->d_name);

		if (tid <= 0 || threads_find(&rec->th, tid) ||
		    (last && !proc_task_start_time(p->pid, tid, &ticks) &&
		     ticks > last + 1))
			continue;
		threads_add(&rec->th, p->pid, tid, &bad);
	}
	if (d)
		closedir(d);
}

bool family_inherits(const struct recorder *rec, const struct proc *p)
{
	bool any = false;

	for (unsigned int i = 0; i < rec->th.n; i++) {
		const struct ring *r = rec->th.v[i];

		if (r->pid != p->pid || r->retired)
			continue;
		if (!r->inherit)
			return false;
		any = true;
	}
	return any;
}

void family_promote(struct recorder *rec, struct proc *p)
{
	struct threads *th = &rec->th;
	unsigned int n = th->n, bad;
	uint64_t since = now_ns();

	if (!family_on(rec))
		return;
	rproc(p)->own_since = since;
	rproc(p)->follow = true;
	/* The rings whose events its tasks carry (its own, opened before;
	 * those of whoever started it) are replaced: their successors' are
	 * not its tasks', which get their own. The tasks of others they
	 * carry get theirs as each is closed (family_ring_gone). */
	for (unsigned int i = 0; i < n && i < th->n; i++) {
		struct ring *r = th->v[i];

		if (!r->retired && r->opened_ns < since &&
		    (r->pid == p->pid || carries(th, r, p->pid)))
			threads_replace(th, r, &bad);
	}
	own_threads(rec, p, since);
	rec->reap_soon = true;
}

void family_ring_gone(struct recorder *rec, struct ring *r)
{
	unsigned int before = rec->th.opened;

	if (!r->carrier)
		return;
	threads_adopt(&rec->th, r);
	rec->fam.adopted += rec->th.opened - before;
}

void family_tick(struct recorder *rec, uint64_t now)
{
	for (unsigned int i = 0; i < rec->fam.late_n; i++)
		family_proc(rec, rec->fam.late_v[i].pid,
			    rec->fam.late_v[i].time);
	rec->fam.late_n = 0;
	for (unsigned int i = 0; i < rec->procs.n;) {
		struct proc *p = rec->procs.v[i];

		if (rproc(p)->child && rproc(p)->exited_at && !p->agent &&
		    now > rproc(p)->exited_at + FORGET_NS) {
			procs_remove(&rec->procs, p);
			continue;
		}
		i++;
	}
}

void family_summary(const struct recorder *rec)
{
	const struct family *f = &rec->fam;

	if (rec->o.quiet || !f->procs)
		return;
	fprintf(stderr,
		"perfjava: %llu processes started by the target%s recorded",
		(unsigned long long)f->procs,
		rec->launch || rec->o.pids.n > 1 ? "s" : "");
	if (f->gone)
		fprintf(stderr,
			" (%llu gone when read: named by their records)",
			(unsigned long long)f->gone);
	if (f->jvms)
		fprintf(stderr, ", %llu JVM%s among them",
			(unsigned long long)f->jvms, f->jvms == 1 ? "" : "s");
	if (f->over)
		fprintf(stderr, "; %llu more not named",
			(unsigned long long)f->over);
	if (f->late)
		fprintf(stderr,
			"; %llu samples came before their process was "
			"announced (records lost): kept, unnamed until the "
			"loop's next tick made the process",
			(unsigned long long)f->late);
	fprintf(stderr, "\n");
}

void family_write_stats(const struct recorder *rec)
{
	const struct family *f = &rec->fam;

	if (!family_on(rec))
		return;
	pj_writer_stat(rec->w, "children", f->procs);
	pj_writer_stat(rec->w, "children_gone", f->gone);
	pj_writer_stat(rec->w, "children_jvms", f->jvms);
	pj_writer_stat(rec->w, "carried_adopted", f->adopted);
	pj_writer_stat(rec->w, "carried_stale", f->stale);
	pj_writer_stat(rec->w, "children_late", f->late);
	pj_writer_stat(rec->w, "carried_over", rec->th.carried_over + f->over);
	/* records of closed rings still in the CPUs' shared rings */
	pj_writer_stat(rec->w, "carried_orphans", ring_orphans());
}

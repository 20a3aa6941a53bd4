// SPDX-License-Identifier: GPL-2.0
/* The whole machine from per-CPU rings; see record/machine.h. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perf/event.h>

#include "lib/procfs.h"
#include "lib/u64map.h"
#include "profile/io.h"
#include "record/agents.h"
#include "record/family.h"
#include "record/header.h"
#include "record/idlist.h"
#include "record/machine.h"
#include "record/recorder.h"
#include "sym/maps.h"

/* Processes recorded at most (a fork bomb's are counted, not named). */
#define MACHINE_MAX_PROCS 8192
/* Processes unwound by CFI at once (each holds its root and the files it
 * maps open); beyond, their user frames are the kernel's chain. */
#define MACHINE_MAX_UNWINDERS 512
/* Threads named in a file at most (beyond: named as their pid's). */
#define MACHINE_MAX_NAMED 65536
#define PF_KTHREAD 0x00200000u
/* An exited process is forgotten this long after its exit record. */
#define FORGET_NS 1000000000ULL

struct machine {
	/* what it works with (machine_new) */
	struct procs *ps; /* the processes recorded; ps->w the current file */
	struct threads *th; /* threads with rings of their own */
	const struct idlist *cpus; /* -C: the CPUs recorded (none: all) */
	struct u64map named; /* tid + 1 -> 1: named in this file */
	bool idle_named;
	unsigned int procs, kthreads, unnamed; /* seen, of which, beyond max */
	unsigned int jvms, failed; /* JVMs found, not attached */
	uint64_t samples_unnamed; /* of processes beyond the max */
};

int machine_new(struct recorder *rec)
{
	rec->mach = calloc(1, sizeof(*rec->mach));
	if (!rec->mach) {
		fprintf(stderr, "perfjava: out of memory\n");
		return -1;
	}
	rec->mach->ps = &rec->procs;
	rec->mach->th = &rec->th;
	rec->mach->cpus = &rec->o.cpus;
	rec->procs.max_unw = MACHINE_MAX_UNWINDERS;
	rec->procs.lazy_unw = true;
	return 0;
}

void machine_follow(struct recorder *rec, struct proc *p)
{
	unsigned int bad;

	if (!p->java || !p->agent || rproc(p)->follow || rproc(p)->ended)
		return;
	rproc(p)->follow = true; /* FORK records and rescans from now on */
	threads_scan(&rec->th, p->pid, &bad);
}

int machine_open(struct recorder *rec, unsigned int *bad)
{
	struct idlist on = { 0 };
	const struct idlist *cpus = &rec->o.cpus;
	int err = 0;

	if (!cpus->n) { /* -a: every CPU online */
		if (idlist_online_cpus(&on))
			return -ENOENT;
		cpus = &on;
	}
	for (unsigned int i = 0; i < cpus->n && !err; i++)
		err = threads_add_cpu(&rec->th, cpus->v[i], bad);
	idlist_free(&on);
	return err;
}

/*
 * Whether the JVM pid is to get an agent. Tests only: on a machine shared
 * with others' JVMs, PERFJAVA_JVM_MATCH=TEXT leaves alone the JVMs whose
 * command line does not hold TEXT (recorded with native frames).
 */
static bool wanted_jvm(pid_t pid)
{
	const char *m = getenv("PERFJAVA_JVM_MATCH");

	return !m || !*m || proc_contains(pid, "cmdline", m);
}

/* Whether pid maps libjvm.so (and is wanted: wanted_jvm). */
static bool maps_jvm(pid_t pid)
{
	struct pj_maps maps;
	bool java = false;

	if (!wanted_jvm(pid) || maps_load(pid, &maps))
		return false;
	for (unsigned int i = 0; i < maps.n && !java; i++) {
		const char *s = strrchr(maps.v[i].path, '/');

		java = s && !strcmp(s, "/libjvm.so");
	}
	maps_free(&maps);
	return java;
}

/* Whether pid is a kernel thread (PF_KTHREAD in its stat's flags). */
static bool kthread(pid_t pid)
{
	char buf[1024];
	const char *p;
	unsigned long flags = 0;

	if (proc_read(pid, 0, "stat", buf, sizeof(buf)) ||
	    !(p = strrchr(buf, ')')))
		return false;
	/* ") S ppid pgrp session tty_nr tpgid flags" */
	if (sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %lu", &flags) != 1)
		return false;
	return flags & PF_KTHREAD;
}

/* p into the file: what it is, its command line and container; one gone
 * already (a short one is by its first sample), what its records said
 * (its comm, its program's path: record/family.h). */
static void name_proc(struct pj_writer *w, const struct proc *p)
{
	char comm[64], cmd[16];

	if (!rproc(p)->kthread) {
		proc_cmdline(p->pid, cmd, sizeof(cmd));
		if (!cmd[0] && (rproc(p)->comm[0] || rproc(p)->cmdline))
			pj_writer_process(
			    w, (uint32_t)p->pid,
			    p->java ? PJ_PROC_JVM : PJ_PROC_USER, 0,
			    rproc(p)->comm,
			    rproc(p)->cmdline ? rproc(p)->cmdline : "", "");
		else
			header_process(w, p->pid, p->java, false, false);
		return;
	}
	proc_comm(p->pid, 0, comm, sizeof(comm));
	pj_writer_process(w, (uint32_t)p->pid, PJ_PROC_KERNEL, 0, comm, "",
			  NULL);
}

/* p runs a JVM: its threads are to get rings of their own once it has its
 * agent, as a -p target's (held by its pidfd, not ending the recording). */
static void jvm_found(struct machine *m, struct proc *p)
{
	if (p->java)
		return;
	p->java = true;
	m->jvms++;
	if (!rproc(p)->tgt.pid && target_open(&rproc(p)->tgt, p->pid))
		rproc(p)->ended = true; /* gone already */
}

/* A process not seen before: recorded from now on, or NULL. */
static struct proc *add_proc(struct machine *m, pid_t pid)
{
	struct proc *p;

	if (m->ps->n >= MACHINE_MAX_PROCS) {
		m->unnamed++;
		return NULL;
	}
	p = procs_add(m->ps, pid);
	if (!p)
		return NULL;
	m->procs++;
	rproc(p)->kthread = kthread(pid);
	m->kthreads += rproc(p)->kthread;
	return p;
}

void machine_find_jvms(struct recorder *rec)
{
	DIR *d;
	struct dirent *de;

	if (rec->o.no_java || !(d = opendir("/proc")))
		return;
	while ((de = readdir(d)) != NULL) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		struct proc *p;

		if (*end || pid <= 0 || pid > 0x7fffffff || pid == getpid() ||
		    procs_get(&rec->procs, (pid_t)pid) || !maps_jvm((pid_t)pid))
			continue;
		p = add_proc(rec->mach, (pid_t)pid);
		if (p) {
			jvm_found(rec->mach, p);
			name_proc(rec->w, p);
			rproc(p)->named = true;
		}
	}
	closedir(d);
}

/* tid of pid named in this file, once. */
static void name_thread(struct machine *m, pid_t pid, pid_t tid)
{
	char comm[64];

	if (tid < 0 || u64map_find(&m->named, (uint64_t)tid + 1) ||
	    m->named.n >= MACHINE_MAX_NAMED)
		return;
	if (!pid)
		snprintf(comm, sizeof(comm), "swapper");
	else
		proc_comm(pid, tid, comm, sizeof(comm));
	pj_writer_thread(m->ps->w, (uint32_t)tid, (uint32_t)pid, comm);
	u64map_put(&m->named, (uint64_t)tid + 1, 1);
}

bool machine_elsewhere(const struct machine *m, const struct ring *r,
		       const struct pj_sample *s)
{
	return ring_is_cpu(r) ? threads_find(m->th, (pid_t)s->tid) != NULL
			      : m->cpus->n && !idlist_has(m->cpus, (int)s->cpu);
}

struct proc *machine_proc(struct machine *m, pid_t pid, pid_t tid)
{
	struct proc *p;

	if (pid <= 0) { /* the CPUs' idle tasks */
		if (!m->idle_named)
			pj_writer_process(m->ps->w, 0, PJ_PROC_IDLE, 0,
					  "swapper", "", NULL);
		m->idle_named = true;
		name_thread(m, 0, 0);
		return NULL;
	}
	p = procs_get(m->ps, pid);
	if (!p)
		p = add_proc(m, pid);
	if (p) /* (made lazily: most processes made are never sampled) */
		procs_unwinder(m->ps, p);
	if (p && !rproc(p)->named) {
		name_proc(m->ps->w, p);
		rproc(p)->named = true;
	}
	if (!p)
		m->samples_unnamed++;
	name_thread(m, pid, tid);
	return p;
}

void machine_mmap(struct recorder *rec, const struct perf_event_header *hdr)
{
	const struct perf_record_mmap2 *mm = (const void *)hdr;
	size_t off = offsetof(struct perf_record_mmap2, filename), n;
	struct proc *p;

	if (!rec->mach || rec->o.no_java || hdr->size <= off)
		return;
	n = strnlen(mm->filename, hdr->size - off);
	if (n < 10 || strncmp(mm->filename + n - 10, "/libjvm.so", 10) ||
	    !wanted_jvm((pid_t)mm->pid))
		return;
	p = procs_get(&rec->procs, (pid_t)mm->pid);
	if (!p && !(p = add_proc(rec->mach, (pid_t)mm->pid)))
		return;
	if (!p->java)
		rproc(p)->named = false; /* a JVM now: named again */
	jvm_found(rec->mach, p);
	rproc(p)->attach_at = 0;
}

void machine_exit(struct recorder *rec, pid_t pid, pid_t tid, uint64_t now)
{
	struct proc *p;

	if (!rec->mach || tid <= 0)
		return;
	/* its tid may come again as another's */
	u64map_del(&rec->mach->named, (uint64_t)tid + 1);
	/* a process whose leader exited is forgotten soon (machine_tick) */
	if (pid == tid && (p = procs_get(&rec->procs, pid)) &&
	    !rproc(p)->exited_at)
		rproc(p)->exited_at = now;
}

/*
 * Processes that exited a while ago (their last samples drained from the
 * CPUs' rings) are forgotten, their names and unwinder freed: at -a the
 * processes come and go by the thousand. Not a JVM's: its agent's answers
 * may still come (forgotten with the recording).
 */
static void forget_exited(struct recorder *rec, uint64_t now)
{
	for (unsigned int i = 0; i < rec->procs.n;) {
		struct proc *p = rec->procs.v[i];

		if (rproc(p)->exited_at &&
		    now > rproc(p)->exited_at + FORGET_NS && !p->java &&
		    !p->agent && !rproc(p)->follow) {
			procs_remove(&rec->procs, p);
			continue;
		}
		i++;
	}
}

void machine_comm(struct recorder *rec, pid_t pid, uint32_t tid,
		  const char *comm, bool exec)
{
	struct proc *p = procs_get(&rec->procs, pid);

	/* a process that execs is made now: gone by its first sample, it
	 * is named and its samples' frames are by what its records say */
	if (!p && exec && pid > 0)
		p = add_proc(rec->mach, pid);
	if (!p)
		return;
	if (exec) { /* another program: its names and command line */
		procs_exec(&rec->procs, p);
		rproc(p)->named = false;
		/* its program's path, when it is gone by then */
		rproc(p)->name_by_exe = true;
		family_names(p, comm, "");
	}
	/* named now: a short thread is gone from /proc by its first
	 * sample, whose name_thread finds it named */
	if (jnames_has(&rec->em.names, tid) ||
	    (!u64map_find(&rec->mach->named, (uint64_t)tid + 1) &&
	     rec->mach->named.n >= MACHINE_MAX_NAMED))
		return;
	pj_writer_thread(rec->w, tid, (uint32_t)p->pid, comm);
	u64map_put(&rec->mach->named, (uint64_t)tid + 1, 1);
}

void machine_tick(struct recorder *rec, uint64_t now)
{
	struct machine *m = rec->mach;
	char err[512];

	if (!m)
		return;
	forget_exited(rec, now);
	for (unsigned int i = 0; !rec->o.no_java && i < rec->procs.n; i++) {
		struct proc *p = rec->procs.v[i];
		int r;

		if (!p->java || p->agent || rproc(p)->java_failed ||
		    rproc(p)->ended)
			continue;
		r = agents_try(rec, p, now, ATTACH_RETRY_NS, ATTACH_TRIES, err,
			       sizeof(err));
		if (r > 0) {
			machine_follow(rec, p);
		} else if (r < 0) {
			m->failed++;
			if (!rec->o.quiet)
				fprintf(stderr,
					"\nperfjava: java frames unavailable "
					"for JVM %d: %s\n",
					p->pid, err);
		}
	}
}

void machine_new_file(struct recorder *rec)
{
	struct machine *m = rec->mach;

	if (!m)
		return;
	u64map_free(&m->named);
	m->idle_named = false;
	for (unsigned int i = 0; i < rec->procs.n; i++)
		rproc(rec->procs.v[i])->named = false;
}

void machine_summary(const struct recorder *rec)
{
	const struct machine *m = rec->mach;

	if (!m || rec->o.quiet)
		return;
	unsigned int attached = 0;

	for (unsigned int i = 0; i < rec->procs.n; i++)
		attached += rproc(rec->procs.v[i])->had_agent;
	fprintf(stderr,
		"perfjava: %u processes (%u kernel threads), %u JVMs: java "
		"frames for %u",
		m->procs, m->kthreads, m->jvms, attached);
	if (m->failed)
		fprintf(stderr, ", %u could not be attached", m->failed);
	if (m->unnamed)
		fprintf(stderr, "; %u more not named (%llu samples)",
			m->unnamed, (unsigned long long)m->samples_unnamed);
	fprintf(stderr, "\n");
}

void machine_free(struct machine *m)
{
	if (!m)
		return;
	u64map_free(&m->named);
	free(m);
}

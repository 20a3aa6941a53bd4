// SPDX-License-Identifier: GPL-2.0
/* The whole machine from per-CPU rings; see record/machine.h. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perf/event.h>

#include "lib/clock.h"
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

/* Processes recorded at most (a fork bomb's are counted, not named), and
 * of them those of one uid: a user's share, 1/MACHINE_UID_SHARE of the
 * table, so that one user's processes, however many, leave the others
 * theirs; beyond its share, a user's new processes are counted for it
 * (processes, samples), not named. Tests only: PERFJAVA_MACHINE_PROCS=N
 * makes the table N (from 16) without a machine's worth of processes. */
#define MACHINE_MAX_PROCS 8192
#define MACHINE_UID_SHARE 4
/* Processes unwound by CFI at once (each holds its root and the files it
 * maps open), a uid's share of them as above; beyond, their user frames
 * are the kernel's chain. */
#define MACHINE_MAX_UNWINDERS 512
/* Threads named in a file at most (beyond: named as their pid's). */
#define MACHINE_MAX_NAMED 65536
/* Processes beyond their uid's share remembered (their uid), so that their
 * samples are counted without reading /proc again; uids they are counted
 * for, each on its own (beyond: together, as uid -1). */
#define MACHINE_MAX_REFUSED 65536
#define MACHINE_UNNAMED_UIDS 64
/* A JVM found as it maps libjvm.so is first tried this much later. */
#define ATTACH_FIRST_NS 1000000000ULL
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
	unsigned int jvms; /* JVMs found */
	uint64_t samples_unnamed; /* of processes beyond the max */
	/* the shares (MACHINE_UID_SHARE): the table's size and a uid's
	 * share of it and of the unwinders; each uid's processes in the table
	 * (uid + 1 -> processes | unwinders << 16), the pids refused (pid + 1
	 * -> uid), and whose they were */
	unsigned int max_procs, uid_procs, uid_unw;
	struct u64map uids, refused;
	struct unnamed {
		uid_t uid;
		unsigned int procs;
		uint64_t samples;
	} by_uid[MACHINE_UNNAMED_UIDS];
	unsigned int nby_uid;
};

static const struct sample_owner machine_owner; /* (below) */

int machine_new(struct recorder *rec)
{
	const char *env = getenv("PERFJAVA_MACHINE_PROCS");
	struct machine *m;

	rec->mach = m = calloc(1, sizeof(*rec->mach));
	if (!m) {
		fprintf(stderr, "perfjava: out of memory\n");
		return -1;
	}
	rec->owner = &machine_owner;
	m->ps = &rec->procs;
	m->th = &rec->th;
	m->cpus = &rec->o.cpus;
	m->max_procs = MACHINE_MAX_PROCS;
	if (env && atoi(env) >= 16 && atoi(env) < MACHINE_MAX_PROCS)
		m->max_procs = (unsigned int)atoi(env);
	m->uid_procs = m->max_procs / MACHINE_UID_SHARE;
	m->uid_unw = MACHINE_MAX_UNWINDERS / MACHINE_UID_SHARE;
	rec->procs.max_unw = MACHINE_MAX_UNWINDERS;
	return 0;
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
	char comm[64], cmd[4096];

	if (!rproc(p)->kthread) {
		proc_cmdline(p->pid, cmd, sizeof(cmd));
		if (!cmd[0] && (rproc(p)->comm[0] || rproc(p)->cmdline))
			pj_writer_process(
			    w, (uint32_t)p->pid,
			    p->java ? PJ_PROC_JVM : PJ_PROC_USER, 0,
			    rproc(p)->comm,
			    rproc(p)->cmdline ? rproc(p)->cmdline : "", "");
		else
			header_process_cmd(w, p->pid, p->java, false, false,
					   cmd);
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

/* uid's processes in the table and unwinders, moved by d (+1, -1). */
static void uid_count(struct machine *m, uid_t uid, int d, bool unw)
{
	uint32_t v = 0;

	u64map_get(&m->uids, (uint64_t)uid + 1, &v);
	v += (uint32_t)d * (1u + (unw ? 1u << 16 : 0));
	if (v)
		u64map_put(&m->uids, (uint64_t)uid + 1, v);
	else
		u64map_del(&m->uids, (uint64_t)uid + 1);
}

/* A sample (of a process first seen when proc) of uid's beyond its share,
 * counted for it. */
static void count_unnamed(struct machine *m, uid_t uid, bool proc)
{
	unsigned int i;

	for (i = 0; i < m->nby_uid && m->by_uid[i].uid != uid; i++)
		;
	if (i == MACHINE_UNNAMED_UIDS) { /* the last: the others, together */
		i--;
		m->by_uid[i].uid = (uid_t)-1;
	} else if (i == m->nby_uid) {
		m->by_uid[m->nby_uid++] = (struct unnamed){ .uid = uid };
	}
	m->by_uid[i].procs += proc;
	m->by_uid[i].samples++;
	m->unnamed += proc;
	m->samples_unnamed++;
}

/*
 * A process not seen before: recorded from now on, or NULL (counted) when
 * the table is full or its uid has had its share (and without an unwinder
 * beyond its share of those). flags: procs_add's (PROCS_BY_RECORDS).
 */
static struct proc *add_proc(struct machine *m, pid_t pid, unsigned int flags)
{
	struct proc *p;
	uint32_t v = 0;
	uid_t uid = (uid_t)-1; /* unknown: gone already */
	int kt;

	if (u64map_get(&m->refused, (uint64_t)pid + 1, &v)) {
		count_unnamed(m, (uid_t)v, false);
		return NULL;
	}
	proc_uid_kthread(pid, &uid, &kt);
	u64map_get(&m->uids, (uint64_t)uid + 1, &v);
	if (m->ps->n >= m->max_procs || (v & 0xffff) >= m->uid_procs) {
		if (m->refused.n < MACHINE_MAX_REFUSED)
			u64map_put(&m->refused, (uint64_t)pid + 1, uid);
		count_unnamed(m, uid, true);
		return NULL;
	}
	p = procs_add(m->ps, pid, flags); /* its unwinder: first_sampled */
	if (!p)
		return NULL;
	m->procs++;
	rproc(p)->uid = uid;
	rproc(p)->uid_known = uid != (uid_t)-1;
	uid_count(m, uid, 1, p->unw != NULL);
	rproc(p)->kthread = kt >= 0 ? kt : kthread(pid);
	m->kthreads += rproc(p)->kthread;
	return p;
}

/* p's unwinder, made at its first sample (most processes made, from their
 * records, are never sampled), within its uid's share of them. */
static void first_sampled(struct machine *m, struct proc *p)
{
	uint32_t v = 0;

	if (p->unw_tried)
		return;
	u64map_get(&m->uids, (uint64_t)rproc(p)->uid + 1, &v);
	if (v >> 16 >= m->uid_unw)
		return;
	procs_unwinder(m->ps, p);
	if (p->unw)
		u64map_put(&m->uids, (uint64_t)rproc(p)->uid + 1,
			   v + (1u << 16));
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
		p = add_proc(rec->mach, (pid_t)pid, 0);
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

/* Whether sample s of ring r is recorded elsewhere: a thread with a ring
 * of its own (a JVM's) has its samples there; -C: those on the CPUs given. */
static bool machine_elsewhere(struct recorder *rec, const struct ring *r,
			      const struct pj_sample *s)
{
	const struct machine *m = rec->mach;

	return ring_is_cpu(r) ? threads_find(m->th, (pid_t)s->tid) != NULL
			      : m->cpus->n && !idlist_has(m->cpus, (int)s->cpu);
}

/* The process of sample s, made when first seen and its thread named;
 * NULL for none (pid 0, out of memory). */
static struct proc *machine_proc(struct recorder *rec,
				 const struct pj_sample *s)
{
	struct machine *m = rec->mach;
	pid_t pid = (pid_t)s->pid, tid = (pid_t)s->tid;
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
		p = add_proc(m, pid, 0);
	if (p) {
		first_sampled(m, p);
		rproc(p)->sampled = true;
	}
	if (p && !rproc(p)->named) {
		name_proc(m->ps->w, p);
		rproc(p)->named = true;
	}
	name_thread(m, pid, tid);
	return p;
}

static const struct sample_owner machine_owner = {
	.elsewhere = machine_elsewhere,
	.proc_of = machine_proc,
};

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
	if (!p && !(p = add_proc(rec->mach, (pid_t)mm->pid, 0)))
		return;
	if (!p->java)
		rproc(p)->named = false; /* a JVM now: named again */
	jvm_found(rec->mach, p);
	/* beside the poll loop, once it had a second to start */
	if (!rproc(p)->want)
		rproc(p)->attach_at = now_ns() + ATTACH_FIRST_NS;
	agents_want(rec, p);
}

void machine_exit(struct recorder *rec, pid_t pid, pid_t tid, uint64_t now)
{
	struct proc *p;

	if (!rec->mach || tid <= 0)
		return;
	/* its tid may come again as another's, its pid as another's
	 * process */
	u64map_del(&rec->mach->named, (uint64_t)tid + 1);
	if (pid == tid)
		u64map_del(&rec->mach->refused, (uint64_t)pid + 1);
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
			uid_count(rec->mach, rproc(p)->uid, -1, p->unw != NULL);
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
	bool made = false; /* made here, at its exec */

	/* a process that execs is made now: gone by its first sample, it
	 * is named and its samples' frames are by what its records say */
	if (!p && exec && pid > 0)
		made = (p = add_proc(rec->mach, pid, PROCS_BY_RECORDS)) != NULL;
	/* a thread named by itself (prctl) before its process is known here:
	 * its process's exec may be in another CPU's ring, not read yet */
	if (!p && (exec || pid <= 0 ||
		   u64map_find(&rec->mach->refused, (uint64_t)pid + 1)))
		return;
	if (exec) { /* another program: its names and command line */
		bool unw = p->unw != NULL;
		uid_t uid;

		/* (one made just now has its uid, and its maps come by the
		 * records of its exec: at a churn of short processes, most
		 * never sampled, each /proc read is a cost) */
		if (!made)
			procs_exec(&rec->procs, p);
		if (unw && !p->unw) { /* its uid's unwinders: one less */
			uid_count(rec->mach, rproc(p)->uid, -1, true);
			uid_count(rec->mach, rproc(p)->uid, 1, false);
		}
		rproc(p)->named = false;
		/* its program's path, when it is gone by then */
		rproc(p)->name_by_exe = true;
		family_names(p, comm, "");
		/* and maybe another user's (setpriv, su): its share */
		if (!made && !proc_uid(p->pid, &uid) && uid != rproc(p)->uid) {
			uid_count(rec->mach, rproc(p)->uid, -1, p->unw != NULL);
			uid_count(rec->mach, uid, 1, p->unw != NULL);
			rproc(p)->uid = uid;
			rproc(p)->uid_known = true;
		}
	}
	/* named now: a short thread is gone from /proc by its first
	 * sample, whose name_thread finds it named */
	if (jnames_has(&rec->em.names, tid) ||
	    (!u64map_find(&rec->mach->named, (uint64_t)tid + 1) &&
	     rec->mach->named.n >= MACHINE_MAX_NAMED))
		return;
	pj_writer_thread(rec->w, tid, (uint32_t)pid, comm);
	u64map_put(&rec->mach->named, (uint64_t)tid + 1, 1);
}

void machine_tick(struct recorder *rec, uint64_t now)
{
	if (rec->mach)
		forget_exited(rec, now);
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

/* The uids whose processes went unnamed, most samples first (three). */
static void say_unnamed(const struct machine *m)
{
	bool said[MACHINE_UNNAMED_UIDS] = { false };

	fprintf(stderr,
		"; %u more not named (%llu samples), beyond the table (%u) or "
		"their user's share (%u):",
		m->unnamed, (unsigned long long)m->samples_unnamed,
		m->max_procs, m->uid_procs);
	for (unsigned int k = 0; k < 3; k++) {
		int best = -1;

		for (unsigned int i = 0; i < m->nby_uid; i++)
			if (!said[i] &&
			    (best < 0 ||
			     m->by_uid[i].samples > m->by_uid[best].samples))
				best = (int)i;
		if (best < 0)
			break;
		said[best] = true;
		if (m->by_uid[best].uid == (uid_t)-1)
			fprintf(stderr, "%s others %u (%llu samples)",
				k ? "," : "", m->by_uid[best].procs,
				(unsigned long long)m->by_uid[best].samples);
		else
			fprintf(stderr, "%s uid %u: %u (%llu samples)",
				k ? "," : "", (unsigned int)m->by_uid[best].uid,
				m->by_uid[best].procs,
				(unsigned long long)m->by_uid[best].samples);
	}
	if (m->nby_uid > 3)
		fprintf(stderr, ", ...");
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
	if (rec->ag.failed)
		fprintf(stderr, ", %u could not be attached", rec->ag.failed);
	if (m->unnamed || m->samples_unnamed)
		say_unnamed(m);
	fprintf(stderr, "\n");
}

void machine_write_stats(struct recorder *rec)
{
	const struct machine *m = rec->mach;
	char buf[MACHINE_UNNAMED_UIDS * 40] = "";
	size_t n = 0;

	if (!m)
		return;
	pj_writer_stat(rec->w, "procs_unnamed", m->unnamed);
	for (unsigned int i = 0; i < m->nby_uid && n < sizeof(buf); i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%d %u %llu",
				      i ? "," : "", (int)m->by_uid[i].uid,
				      m->by_uid[i].procs,
				      (unsigned long long)m->by_uid[i].samples);
	if (m->nby_uid)
		pj_writer_meta(rec->w, "procs_unnamed_uids", buf);
}

void machine_free(struct machine *m)
{
	if (!m)
		return;
	u64map_free(&m->named);
	u64map_free(&m->uids);
	u64map_free(&m->refused);
	free(m);
}

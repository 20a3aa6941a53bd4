// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's poll loop (record/run.h): one poll over every ring, the
 * agents' sockets, the signals and the launched command; each pass drains
 * for a bounded time, then looks at the clock (-d), the signals, the
 * targets (gone, exec'd, new threads), the agents and the --loop file.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "events/spec.h"
#include "lib/clock.h"
#include "lib/grow.h"
#include "lib/procfs.h"
#include "pipeline/jevents.h"
#include "pipeline/wall.h"
#include "record/agents.h"
#include "record/family.h"
#include "record/header.h"
#include "record/hotpath.h"
#include "record/launch.h"
#include "record/loop.h"
#include "record/machine.h"
#include "record/recorder.h"
#include "record/rescan.h"
#include "record/run.h"
#include "record/summary.h"
#include "rings/benchturn.h"

/* Rings in watermark mode hold FORK records (a new thread's events open
 * when its creator's ring is drained) and the samples waiting for their
 * walk: drained every DRAIN_NS, or every DRAIN_PERIODS sampling periods up
 * to DRAIN_MAX_NS when the period is long (drain_interval) */
#define DRAIN_MIN_NS 1000000ULL
#define DRAIN_NS 10000000ULL
#define DRAIN_MAX_NS 200000000ULL
#define DRAIN_PERIODS 50
#define FAMILY_DRAIN_NS 20000000ULL
#define TICK_NS 100000000ULL /* progress, flush, expiry */
#define RESCAN_NS 500000000ULL
/* A pass of the loop drains for at most PASS_NS before it looks at the
 * signals, -d and the target again, whatever the target makes the rings
 * cost; the last drain after the stop takes at most STOP_DRAIN_NS. */
#define PASS_NS 20000000ULL
#define STOP_DRAIN_NS 300000000ULL
#define DRAIN_STEP 16

static void progress(struct recorder *rec, uint64_t now)
{
	fprintf(stderr,
		"\rperfjava: %6.1fs  %llu samples  %u threads  %llu lost   ",
		(now - rec->start_ns) / 1e9,
		(unsigned long long)rec->em.st.samples, rec->th.n,
		(unsigned long long)rec->lost);
}

/*
 * Each wake-up of the reader preempts a sampled thread when every CPU runs
 * one: two context switches, and that thread's caches refilled after the
 * reader. So the reader wakes no more often than the rings and a new
 * thread need: every DRAIN_PERIODS sampling periods (a new thread's first
 * samples wait as long for its creator's FORK record), within DRAIN_NS and
 * DRAIN_MAX_NS, and before a thread sampled at every period fills half its
 * ring with samples as large as the largest seen yet, written by as many
 * threads at once as it carries, up to the CPUs (DRAIN_MIN_NS at the
 * least). With clock events alone (timer_paced), or samples that signal
 * the thread, the rings are not polled: their half-full wake-up would come
 * each time half a ring was written, read or not, one thread's after
 * another's. At the default 10 ms that is every 200 ms; at 1 kHz with the
 * default 16 pages and a 1 KiB stack copy, about every 25 ms (make bench:
 * bench_wakeups.sh). The events' periods in ns are known for -F and for
 * the clock events with -c; anything else (a count of cycles, a
 * tracepoint, the JVM's own events, off-CPU waits whose switch records
 * wait in the rings, -a) keeps DRAIN_NS.
 */
static uint64_t drain_interval(const struct recorder *rec)
{
	uint64_t ns = DRAIN_MAX_NS, fill;
	double rate = 0; /* bytes per ns into a thread's ring, at most */

	if (rec->wall || rec->mach || !rec->nevents)
		return DRAIN_NS;
	for (unsigned int i = 0; i < rec->nevents; i++) {
		const struct pj_event *ev = &rec->evs[i];
		uint64_t period = ev->freq ? 1000000000ULL / ev->freq
				  : event_is_clock(ev) ? ev->period
						       : 0;

		if (!period)
			return DRAIN_NS;
		if (period < ns / DRAIN_PERIODS) /* no product to overflow */
			ns = period * DRAIN_PERIODS;
		rate += (double)rec->sample_max / (double)period;
	}
	/* a ring that carries tasks (rings/threads.h) takes their samples
	 * too, as many at once as there are CPUs */
	rate *= 1 + (rec->th.carried.n < rec->cpus ? rec->th.carried.n
						   : rec->cpus - 1);
	if (ns < DRAIN_NS)
		ns = DRAIN_NS;
	/* the processes the targets start are named from /proc while they
	 * live (record/family.h): read their records soon */
	if (rec->fam.live && ns > FAMILY_DRAIN_NS)
		ns = FAMILY_DRAIN_NS;
	fill =
	    (uint64_t)((double)rec->th.opts.pages * getpagesize() / 2 / rate);
	if (fill < ns) /* past 1 ms, the rings are too small: -m */
		ns = fill < DRAIN_MIN_NS ? DRAIN_MIN_NS : fill;
	return ns;
}

/* Whether the timer alone can pace the rings (drain_interval): every event
 * is a clock, which samples a thread once a period at most. */
static bool timer_paced(const struct recorder *rec)
{
	if (rec->wall || rec->mach || !rec->nevents)
		return false;
	for (unsigned int i = 0; i < rec->nevents; i++)
		if (!event_is_clock(&rec->evs[i]))
			return false;
	return true;
}

/* Drains r until it is empty (true) or until is passed: records are taken
 * DRAIN_STEP at a time between looks at the clock. */
static bool drain_ring(struct recorder *rec, struct ring *r, uint64_t until)
{
	unsigned int n;

	do
		n = ring_drain_max(r, record_on_record, rec, DRAIN_STEP);
	while (n == DRAIN_STEP && now_ns() < until);
	return n < DRAIN_STEP;
}

/* Drains every ring, round robin from where the last pass stopped, until
 * until; false when time ran out first. */
static bool drain_all(struct recorder *rec, uint64_t until)
{
	unsigned int n = rec->th.n;

	/* -a: what each task is (its exec, its maps), from every CPU's ring,
	 * before its samples, read from each ring in turn (rings/ring.h) */
	for (unsigned int i = 0; rec->mach && i < n; i++)
		if (ring_is_cpu(rec->th.v[i]))
			ring_peek(rec->th.v[i], record_on_record, rec);

	for (unsigned int k = 0; k < n && k < rec->th.n; k++) {
		unsigned int i = (rec->drain_at + k) % rec->th.n;

		if (now_ns() >= until ||
		    !drain_ring(rec, rec->th.v[i], until)) {
			rec->drain_at = i;
			return false;
		}
	}
	return true;
}

/* Counts the sample records still in the rings when there is no time left
 * to take them (the stop's bound): they are lost, and said so. */
static void count_not_drained(void *ctx, struct ring *r,
			      const struct perf_event_header *hdr)
{
	struct recorder *rec = ctx;

	if (hdr->type == PERF_RECORD_SAMPLE)
		rec->lost++;
}

/* Closes the rings of threads that have exited, and those replaced, after
 * draining them (in this pass's time: a ring not emptied waits for the
 * next); the tasks one still carries get rings of their own first. */
static void reap_threads(struct recorder *rec, bool check_proc, uint64_t until)
{
	for (unsigned int i = 0; i < rec->th.n;) {
		struct ring *r = rec->th.v[i];

		if (check_proc && !r->exited && !ring_is_cpu(r))
			r->exited = !proc_exists(r->pid, r->tid);
		if ((r->exited || r->retired) && drain_ring(rec, r, until)) {
			family_ring_gone(rec, r);
			if (!r->retired) { /* (its successor's otherwise) */
				jnames_forget(&rec->em.names, (uint32_t)r->tid);
				switchcost_thread_gone(&rec->sc,
						       (uint32_t)r->tid);
			}
			threads_remove(&rec->th, r);
			continue;
		}
		i++;
	}
}

/* Whether p has no ring left. */
static bool no_rings(const struct recorder *rec, const struct proc *p)
{
	for (unsigned int i = 0; i < rec->th.n; i++)
		if (rec->th.v[i]->pid == p->pid)
			return false;
	return true;
}

/* A target's events all ended, it exited or it exec'd: why, said once;
 * the recording ends with the last. */
static void target_ended(struct recorder *rec, struct proc *p, bool tty,
			 const char *why)
{
	char msg[600];
	unsigned int left = 0;

	rproc(p)->ended = true;
	rproc(p)->end_reason =
	    why ? why : target_end(&rproc(p)->tgt, msg, sizeof(msg));
	for (unsigned int i = 0; i < rec->procs.n; i++)
		left += rproc(rec->procs.v[i])->target &&
			!rproc(rec->procs.v[i])->ended;
	if (!why && msg[0])
		fprintf(stderr, "%sperfjava: %s%s\n", tty ? "\n" : "", msg,
			left ? "; recording the others" : "");
	else if (left && !rec->o.quiet)
		fprintf(stderr,
			"%sperfjava: process %d: %s; recording the "
			"others\n",
			tty ? "\n" : "", p->pid, rproc(p)->end_reason);
	if (left)
		return;
	rec->stop = true;
	rec->stop_reason = rproc(p)->end_reason;
}

/* Targets whose rings all closed, or that exec'd, end. */
static void end_targets(struct recorder *rec, bool tty)
{
	for (unsigned int i = 0; i < rec->procs.n && !rec->stop; i++) {
		struct proc *p = rec->procs.v[i];

		if (rproc(p)->target && !rproc(p)->ended &&
		    (rproc(p)->exec || no_rings(rec, p)))
			target_ended(rec, p, tty, NULL);
	}
}

static int flush_output(struct recorder *rec)
{
	if (rec->write_failed || !pj_writer_flush(rec->w))
		return 0;
	rec->write_failed = true;
	fprintf(stderr, "\nperfjava: cannot write %s: %s; stopping\n",
		rec->o.output, pj_writer_error(rec->w));
	rec->stop = true;
	rec->stop_reason = "write error";
	return -1;
}

/* What a polled fd is: a ring, a target's pidfd, an agent's socket, an
 * attach in flight (its place + 1), one of the hook's fds (1 + its index). */
struct polled {
	struct ring *ring;
	struct proc *target, *agent;
	unsigned int attach, hook;
};

/* The fds to poll: signals, each target's pidfd, a launched JVM's agent to
 * come, each agent, and the rings not walked at the sample. */
static int poll_set(struct recorder *rec, int sigfd, struct pollfd **pfd,
		    struct polled **what, unsigned int *cap, unsigned int *n)
{
	unsigned int need =
	    rec->th.n + 2 * rec->procs.n + 2 + AGENTS_ATTACHING + RUN_HOOK_FDS;
	int lfd = launch_agent_fd(rec->launch);
	bool paced = timer_paced(rec);

	if (need > *cap) {
		struct pollfd *np = realloc(*pfd, need * sizeof(**pfd));
		struct polled *nw = np ? realloc(*what, need * sizeof(**what))
				       : NULL;

		if (np)
			*pfd = np;
		if (!nw)
			return -1;
		*what = nw;
		*cap = need;
	}
	*n = 0;
#define ADD(f, r, t, a, at)                                                  \
	do {                                                                 \
		(*pfd)[*n] = (struct pollfd){ (f), POLLIN, 0 };              \
		(*what)[(*n)++] = (struct polled){ (r), (t), (a), (at), 0 }; \
	} while (0)
	ADD(sigfd, NULL, NULL, NULL, 0);
	for (unsigned int i = 0; rec->hook && i < RUN_HOOK_FDS; i++) {
		if (rec->hook->fd[i] < 0)
			continue;
		ADD(rec->hook->fd[i], NULL, NULL, NULL, 0);
		(*what)[*n - 1].hook = i + 1;
	}
	if (lfd >= 0) /* a launched JVM's agent, to come */
		ADD(lfd, NULL, NULL, NULL, 0);
	for (unsigned int i = 0; i < AGENTS_ATTACHING; i++)
		if (agents_attach_fd(rec, i) >= 0) /* done when readable */
			ADD(agents_attach_fd(rec, i), NULL, NULL, NULL, i + 1);
	for (unsigned int i = 0; i < rec->procs.n; i++) {
		struct proc *p = rec->procs.v[i];

		/* readable once the target exited */
		if (rproc(p)->target && !rproc(p)->ended &&
		    target_fd(&rproc(p)->tgt) >= 0)
			ADD(target_fd(&rproc(p)->tgt), NULL, p, NULL, 0);
		if (p->agent)
			ADD(agent_fd(p->agent), NULL, NULL, p, 0);
	}
	for (unsigned int i = 0; i < rec->th.n; i++) {
		struct ring *r = rec->th.v[i];
		struct proc *p = procs_get(&rec->procs, r->pid);

		/* paced by the timer, or walked at the sample by F_SETSIG
		 * (a wake-up at each sample): read on the timer; but a ring
		 * that carries the tasks its thread started takes theirs
		 * too, as many as they are: read when half full, as perf
		 * reads its rings, and at its thread's end (POLLHUP), when
		 * they need rings of their own (family_ring_gone) */
		if ((paced || (p && ksig_quiet(&p->ks, r))) && !r->carrier)
			continue;
		ADD(r->fd, r, NULL, NULL, 0);
	}
#undef ADD
	return 0;
}

/* Each JVM's walks taken at the sample, before the rings' samples... */
void run_collect_walks(struct recorder *rec)
{
	for (unsigned int i = 0; i < rec->procs.n; i++)
		if (rec->procs.v[i]->agent)
			ksig_collect(&rec->procs.v[i]->ks,
				     rec->procs.v[i]->agent);
}

/* ... matched with them after. */
static void match_walks(struct recorder *rec)
{
	for (unsigned int i = 0; i < rec->procs.n; i++) {
		struct proc *p = rec->procs.v[i];

		ksig_match(&p->ks);
		jevents_tick(rec->jev, p->agent, p->pid);
	}
}

/* The agents' sockets are flushed; every rescan, what a JVM's agent
 * needs now and then. */
static void tend_agents(struct recorder *rec, uint64_t now, bool rescan)
{
	for (unsigned int i = 0; i < rec->procs.n; i++) {
		struct proc *p = rec->procs.v[i];

		if (!p->agent)
			continue;
		rproc(p)->out_queued = agent_flush(p->agent) > 0;
		if (now) /* its code, to label its frames */
			self_find(&p->self, p->pid, now);
		if (rescan)
			ksig_check_queue(&p->ks);
	}
}

/* What came on a polled fd other than a ring's. */
static void on_polled(struct recorder *rec, const struct polled *w, int fd,
		      int sigfd, bool tty)
{
	struct signalfd_siginfo si;
	struct proc *p = w->agent;

	if (w->target) {
		target_ended(rec, w->target, tty, "target exited");
	} else if (w->attach) {
		family_agent_in(rec, agents_attach_done(rec, w->attach - 1));
	} else if (fd == sigfd) {
		if (read(sigfd, &si, sizeof(si)) > 0 &&
		    !(rec->launch && launch_signal(rec, &si))) {
			rec->stop = true;
			rec->stop_reason = strsignal((int)si.ssi_signo);
		}
	} else if (!p) {
		launch_agent_ready(rec);
	} else if (agent_process(p->agent, cpuwalk_done, &rec->cw)) {
		/* a JVM that exits takes its agent */
		if (agent_dropped(p->agent))
			fprintf(stderr,
				"%sperfjava: JVM %d: its agent dropped: its "
				"user's JVMs' agents hold their share of the "
				"reader's memory; recording native frames "
				"only\n",
				tty ? "\n" : "", (int)p->pid);
		else if (!proc_gone(p->pid))
			fprintf(stderr,
				"%sperfjava: the agent disconnected%s; "
				"recording native frames only\n",
				tty ? "\n" : "",
				rec->procs.n > 1 ? " from a JVM" : "");
		agents_stopped(rec, p, "the agent disconnected");
	} else if (agent_thread_started(p->agent)) {
		rescan_soon(p, now_ns());
	}
}

int run_loop(struct recorder *rec, int sigfd)
{
	struct pollfd *pfd = NULL;
	struct polled *what = NULL;
	unsigned int npfd = 0, pfd_cap = 0;
	uint64_t end = rec->o.duration > 0
			   ? rec->start_ns + (uint64_t)(rec->o.duration * 1e9)
			   : UINT64_MAX;
	uint64_t next_tick = rec->start_ns + TICK_NS,
		 next_scan = rec->start_ns + RESCAN_NS,
		 next_drain = rec->start_ns + drain_interval(rec);
	bool tty = isatty(2) && !rec->o.quiet && !rec->launch && !rec->hook;
	bool busy = false; /* records left in the rings by the last pass */
	unsigned int ready; /* the hook's fds that are readable */
	bool reap = false; /* a thread carrying others ended (POLLHUP) */
	unsigned int rot = 0;
	/* make bench (rings/benchturn.h): the rings' next turn */
	uint64_t next_alt = rec->th.opts.alt ? 0 : UINT64_MAX;
	uint64_t next_soon = UINT64_MAX; /* a JVM's new thread: rescan_due */

	rec->th.changed = true;
	while (!rec->stop) {
		uint64_t now = now_ns(), pass_end, wake;
		int timeout, n;

		if (rec->th.changed) {
			rec->th.changed = false;
			if (poll_set(rec, sigfd, &pfd, &what, &pfd_cap, &npfd))
				break;
		}
		/* wake for the drain even when no ring signals, and at -d */
		wake = next_drain < end ? next_drain : end;
		wake = next_alt < wake ? next_alt : wake;
		wake = next_soon < wake ? next_soon : wake;
		if (rec->hook && rec->hook->due < wake)
			wake = rec->hook->due;
		timeout = (int)((wake > now ? wake - now : 0) / 1000000);
		n = poll(pfd, npfd, busy ? 0 : timeout + 1);
		if (n < 0 && errno != EINTR)
			break;
		/* make bench: a turn due, before this pass's drain */
		bench_turn(&rec->th, now_ns(), &next_alt);
		pass_end = now_ns() + PASS_NS;
		busy = false;
		/* from a place that moves, so that a ring that fills as fast
		 * as it is read does not keep the others waiting */
		rot = npfd ? (rot + 1) % npfd : 0;
		ready = 0;
		for (unsigned int k = 0; n > 0 && k < npfd; k++) {
			unsigned int i = (k + rot) % npfd;

			if (!pfd[i].revents)
				continue;
			if (what[i].hook) {
				ready |= 1u << (what[i].hook - 1);
			} else if (!what[i].ring) {
				on_polled(rec, &what[i], pfd[i].fd, sigfd, tty);
			} else if (!busy) {
				busy = !drain_ring(rec, what[i].ring, pass_end);
				if (pfd[i].revents & (POLLHUP | POLLERR)) {
					what[i].ring->exited = true;
					reap |= what[i].ring->carrier;
				}
			}
		}
		if (reap || rec->reap_soon) { /* a carrier's end, or rings
						* replaced: their tasks' now */
			reap = rec->reap_soon = false;
			reap_threads(rec, false, pass_end);
		}
		now = now_ns();
		next_soon = rescan_due(rec, now);
		/* make bench (rings/benchturn.h): alt-all's reader sleeps
		 * through the odd periods */
		if (bench_turn(&rec->th, now, &next_alt) && now >= next_drain)
			next_drain = next_alt;
		if (now >= next_drain) {
			next_drain = now + drain_interval(rec);
			run_collect_walks(rec);
			busy |= !drain_all(rec, pass_end);
			match_walks(rec);
		}
		offjava_ask(&rec->oj, &rec->procs); /* the rings are drained */
		tend_agents(rec, 0, false);
		/* what a socket does not take now goes on POLLOUT */
		for (unsigned int i = 0; i < npfd; i++)
			if (what[i].agent && what[i].agent->agent)
				pfd[i].events = rproc(what[i].agent)->out_queued
						    ? POLLIN | POLLOUT
						    : POLLIN;
		if (now >= next_tick) {
			bool rescan = now >= next_scan;

			next_tick = now + TICK_NS;
			pending_expire(&rec->pend, now, false);
			if (loop_tick(rec, now)) { /* --loop: the next file */
				rec->stop = rec->write_failed = true;
				rec->stop_reason = "write error";
			}
			/* before exited threads go */
			switchcost_tick(&rec->sc, &rec->th, now);
			tend_agents(rec, now, rescan);
			agents_tick(rec, now); /* attaches due, or late */
			machine_tick(rec, now); /* processes gone */
			family_tick(rec, now);
			reap_threads(rec, rescan, pass_end);
			if (rescan) {
				next_scan = now + RESCAN_NS;
				rescan_all(rec);
			}
			if (tty)
				progress(rec, now);
			flush_output(rec);
		} else if (pj_writer_pending(rec->w) > (4u << 20)) {
			flush_output(rec);
		}
		if (!rec->stop)
			end_targets(rec, tty);
		if (now >= end) {
			rec->stop = true;
			rec->stop_reason = "duration reached";
		}
		if (rec->hook && !rec->stop && (ready || now >= rec->hook->due))
			rec->hook->call(rec->hook->ctx, ready, now);
	}
	if (tty)
		fprintf(stderr, "\n");
	free(pfd);
	free(what);
	return 0;
}

void run_drain_last(struct recorder *rec)
{
	if (!drain_all(rec, now_ns() + STOP_DRAIN_NS))
		for (unsigned int i = 0; i < rec->th.n; i++)
			ring_drain(rec->th.v[i], count_not_drained, rec);
}

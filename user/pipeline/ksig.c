// SPDX-License-Identifier: GPL-2.0
/* Java walks taken at the instant of the sample; see pipeline/ksig.h. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/clock.h"
#include "lib/grow.h"
#include "lib/procfs.h"
#include "profile/javaloss.h"
#include "perfjava/walk_ring.h"
#include "pipeline/ksig.h"
#include "pipeline/pending.h"
#include "rings/threads.h"

/*
 * The walk ring: a second of walks (WALK_BYTES each, a deep Java stack's)
 * at the most the eligible events can sample (each CPU at each event's
 * rate), a power of two between RING_MIN and RING_MAX: 1 MiB at the
 * default 100 Hz on a few CPUs, not 8 MiB of the reader's memory for the
 * walks of 1 kHz on many. An event of counts (cycles, faults) has no
 * known rate: RING_MAX.
 */
#define RING_MIN (1u << 20)
#define RING_MAX (8u << 20)
#define WALK_BYTES 2048u
#define READY_WAIT_NS 20000000000ULL

bool ksig_event_ok(const struct pj_event *ev)
{
	if (ev->tracepoint || ev->attr.type == PERF_TYPE_TRACEPOINT)
		return false;
	if (ev->attr.type != PERF_TYPE_SOFTWARE)
		return true; /* hardware, cache, raw, breakpoints: in the thread */
	switch (ev->attr.config) {
	case PERF_COUNT_SW_CPU_CLOCK:
	case PERF_COUNT_SW_TASK_CLOCK:
	case PERF_COUNT_SW_PAGE_FAULTS:
	case PERF_COUNT_SW_PAGE_FAULTS_MIN:
	case PERF_COUNT_SW_PAGE_FAULTS_MAJ:
	case PERF_COUNT_SW_ALIGNMENT_FAULTS:
	case PERF_COUNT_SW_EMULATION_FAULTS:
	case PERF_COUNT_SW_DUMMY: /* never samples: nothing to route */
		return true;
	default: /* context switches, migrations: the thread is not running */
		return false;
	}
}

/* The kernel's rule for a signal of an fd's owner (sigio_perm): root, or
 * our uid or euid is the target's real or saved uid. */
static bool may_signal(pid_t pid)
{
	unsigned int r, e, s, f;
	char buf[128];
	uid_t me = geteuid(), ru = getuid();

	if (me == 0)
		return true;
	if (proc_status_field(pid, 0, "Uid:", buf, sizeof(buf)) ||
	    sscanf(buf, "%u %u %u %u", &r, &e, &s, &f) != 4)
		return false;
	return me == r || me == s || ru == r || ru == s;
}

/* Whether thread tid has signo in the signal mask field key ("SigBlk:",
 * "SigPnd:") of its status. */
static bool sig_in(pid_t pid, pid_t tid, const char *key, int signo)
{
	char buf[64];

	if (proc_status_field(pid, tid, key, buf, sizeof(buf)))
		return false;
	return (strtoull(buf, NULL, 16) >> (signo - 1)) & 1;
}

/*
 * SIGTRAP is no real-time signal: while one is pending for a thread the
 * kernel drops the next (legacy_queue), so of two events that overflow
 * together (-e cpu-clock --wall: two clocks) one would signal, and the
 * other's sample lose its walk. One event sends it, the lowest eligible;
 * the others are routed a queued signal of their own, or on an inherited
 * ring (whose routed signal goes to its owner) walked on request.
 */
uint32_t ksig_traps(const struct ksig *k, const struct agent *a)
{
	return !k->why && agent_ring_traps(a) ? k->eligible & -k->eligible : 0;
}

void ksig_thread_opened(struct ksig *k, struct ring *r)
{
	uint32_t want = k->eligible;
	unsigned int i;
	int err;

	if (k->signo <= 0 || r->exited)
		return;
	/* a routed signal goes to the event's owner: the tasks the thread
	 * started, which carry its events, would signal it for theirs (the
	 * events without SIGTRAP then walk on request) */
	if (r->inherit)
		want &= r->trapped;
	if (!want)
		return;
	for (i = 0; i < r->nevents; i++) {
		if (!(want & (1u << i)))
			continue;
		if (r->trapped & (1u << i)) { /* signals since its open */
			if (!r->routed)
				r->routed_at = now_ns();
			r->routed |= 1u << i;
			continue;
		}
		err = ring_route(r, i, k->signo);
		if (err) {
			for (i = 0; i < r->nevents; i++)
				if (r->routed & (1u << i))
					ring_route(r, i, 0);
			/* a thread that exited since its open is no refusal:
			 * F_SETOWN_EX finds no such tid (ESRCH) */
			k->refused += err != -ESRCH;
			return;
		}
	}
	k->routed++;
	k->trapped += r->trapped != 0;
	k->one_trap += want != k->eligible;
}

static uint32_t ring_bytes(const struct pj_event *evs, unsigned int n,
			   uint32_t eligible)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t rate = 0, want;
	uint32_t size = RING_MIN;

	for (unsigned int i = 0; i < n; i++) {
		uint64_t r = eligible & (1u << i) ? event_max_rate(&evs[i]) : 0;

		if (r > 1000000000ull)
			return RING_MAX;
		rate += r;
	}
	want = rate * (uint64_t)(cpus > 0 ? cpus : 1) * WALK_BYTES;
	while (size < RING_MAX && size < want)
		size <<= 1;
	return size;
}

void ksig_prepare(struct ksig *k, const struct pj_event *evs, unsigned int n,
		  pid_t pid, agent_walk_cb done, void *ctx)
{
	const char *env = getenv("PERFJAVA_WALK");
	unsigned int i;

	k->pid = pid;
	k->nevents = n;
	k->done = done;
	k->done_ctx = ctx;
	for (i = 0; i < n; i++)
		if (ksig_event_ok(&evs[i]))
			k->eligible |= 1u << i;
	k->ring_bytes = ring_bytes(evs, n, k->eligible);
	/* (a why given by the caller stays: -a) */
	if (!k->why && env && !strcmp(env, "request"))
		k->why = "PERFJAVA_WALK=request";
	else if (!k->why && !k->eligible)
		k->why = "no event samples a running thread";
	else if (!k->why && !may_signal(pid))
		k->why = "the kernel may not signal the target for this user";
	agent_offer_rings(!k->why);
}

void ksig_setup(struct ksig *k, struct agent *a)
{
	int r;

	if (!a)
		return;
	if (!k->why && agent_flush(a))
		k->why = "the agent takes no walk ring";
	else if (!k->why && (r = agent_ring_offer(a, k->ring_bytes)))
		k->why = r == -2 ? "the agents' memory budget has no room for "
				   "its walk ring"
				 : "the agent takes no walk ring";
	if (k->why) {
		agent_flush(a);
		agent_ring_decline(a);
		return;
	}
	/* the agent answers before its replay of code and threads; until
	 * then (and if it never does), walks are on request */
	k->offered = now_ns() + READY_WAIT_NS;
	ksig_collect(k, a);
}

/* The agent's handler is installed and its ring mapped: route. */
static void activate(struct ksig *k, int sig)
{
	unsigned int i;

	k->offered = 0;
	k->signo = sig;
	k->ran = sig;
	for (i = 0; i < k->th->n; i++)
		if (k->th->v[i]->pid == k->pid) /* this JVM's */
			ksig_thread_opened(k, k->th->v[i]);
	/* (tracepoints and context switches stay on request: not eligible;
	 * no why, which would keep SIGTRAP from the threads opened later) */
	k->th->changed = true; /* poll the routed rings no more */
}

bool ksig_quiet(const struct ksig *k, const struct ring *r)
{
	return k->signo > 0 && r->nevents &&
	       r->routed == (1u << r->nevents) - 1;
}

bool ksig_sample_routed(const struct ksig *k, const struct ring *r,
			const struct pj_sample *s)
{
	if (s->event >= r->nevents)
		return false;
	/* SIGTRAP signals from the open, and the agent's handler walks from
	 * its ring's offer on, before the reader reads its answer: a sample
	 * from then waits (asked for if the ring is refused: ask_waiting) */
	if ((r->trapped & (1u << s->event)) && (k->signo > 0 || k->offered))
		return true;
	/* a sample from before the routing signalled no one */
	return k->signo > 0 && (r->routed & (1u << s->event)) &&
	       s->time > r->routed_at;
}

void ksig_wait(struct ksig *k, uint64_t cookie)
{
	if (GROW(k->wait, k->capwait, k->nwait + 1))
		return; /* it expires at its deadline */
	k->wait[k->nwait++] = cookie;
}

/* What on_walk works with. */
struct walk_ctx {
	struct ksig *k;
	struct agent *a;
	uint64_t now;
};

static void on_walk(void *ctx, const struct ring_walk *w)
{
	struct walk_ctx *c = ctx;
	struct ksig *k = c->k;
	struct ksig_walk *kw;

	if (w->ev && w->ev->kind != PJW_EV_CPU) {
		/* an event of the JVM's own */
		if (k->event)
			k->event(k->event_ctx, c->a, k->pid, w);
		return;
	}
	if (GROW(k->walks, k->capwalks, k->nwalks + 1) ||
	    GROW(k->pool, k->cappool, k->npool + w->n))
		return; /* its sample ends without it */
	kw = &k->walks[k->nwalks++];
	kw->tid = w->tid;
	kw->fd = w->fd;
	kw->time = w->time;
	kw->status = w->status;
	kw->n = w->n;
	kw->vthread = w->ev ? w->ev->vthread : 0;
	kw->seen = c->now;
	kw->off = k->npool;
	if (w->n) { /* k->pool is NULL until a walk with frames came */
		memcpy(k->pool + k->npool, w->frames,
		       w->n * sizeof(*w->frames));
		k->npool += w->n;
	}
}

/* The samples of SIGTRAP events that waited for the agent's answer to the
 * ring's offer, which refused it: no walk was taken for them, asked for. */
static void ask_waiting(struct ksig *k, struct agent *a)
{
	for (size_t i = 0; i < k->nwait; i++) {
		struct held *h = pending_get(k->pend, k->wait[i]);

		if (!h)
			continue; /* expired */
		h->flag = false; /* (not at the sample after all) */
		if (agent_request(a, (pid_t)h->smp.s.tid, h->smp.s.time,
				  k->wait[i]) < 0)
			k->done(k->done_ctx, k->wait[i], AGENT_WALK_LOST, NULL,
				0, 0);
	}
	k->nwait = 0;
}

void ksig_collect(struct ksig *k, struct agent *a)
{
	struct walk_ctx c = { k, a, now_ns() };
	int sig;

	if (!a || (k->signo <= 0 && !k->offered))
		return;
	/* the names of the walks' methods came first, on the socket */
	if (agent_process(a, k->done, k->done_ctx))
		return; /* gone: the loop sees it on the socket */
	if (k->offered) {
		sig = agent_ring_signal(a);
		if (sig > 0) {
			activate(k, sig);
		} else if (sig < 0 || now_ns() > k->offered) {
			k->offered = 0;
			k->why = "the agent did not take the walk ring";
			ask_waiting(k, a);
		}
		return;
	}
	agent_ring_drain(a, on_walk, &c, k->last);
	agent_ring_get_stats(a, &k->rs);
	k->copies = (uint64_t)agent_copies(a);
}

void ksig_await(struct ksig *k, struct agent *a, int ms)
{
	uint64_t end = now_ns() + (uint64_t)ms * 1000000;
	struct pollfd p = { agent_fd(a), POLLIN, 0 };

	while (k->offered && p.fd >= 0) {
		uint64_t now = now_ns();

		if (now >= end)
			return;
		if (poll(&p, 1, (int)((end - now + 999999) / 1000000)) < 0 &&
		    errno != EINTR)
			return;
		ksig_collect(k, a);
		if (p.revents & (POLLHUP | POLLERR))
			return; /* gone: the poll loop says so */
	}
}

/* The JVM's routed threads that block the signal their events send, one
 * of which waits for them (SigBlk and SigPnd): no walk comes from those. */
static uint64_t count_blocking(const struct ksig *k)
{
	uint64_t n = 0;

	for (unsigned int i = 0; i < k->th->n; i++) {
		const struct ring *r = k->th->v[i];
		int sig = r->trapped ? SIGTRAP : k->signo;

		if (r->pid == k->pid && r->routed && !r->exited &&
		    sig_in(k->pid, r->tid, "SigBlk:", sig) &&
		    sig_in(k->pid, r->tid, "SigPnd:", sig))
			n++;
	}
	return n;
}

void ksig_off(struct ksig *k, const char *why)
{
	unsigned int i, e;

	if (k->signo <= 0)
		return;
	k->blocking = count_blocking(k);
	for (i = 0; i < k->th->n; i++)
		for (e = 0; e < k->th->v[i]->nevents; e++)
			if (k->th->v[i]->pid == k->pid &&
			    (k->th->v[i]->routed & (1u << e)))
				ring_route(k->th->v[i], e, 0);
	k->signo = 0;
	k->why = why;
	k->nwait = 0; /* the waiting samples expire at their deadline */
	k->nwalks = 0;
	k->npool = 0;
}

/*
 * A thread that blocks the signal queues one per sample, until the queue
 * overflows and the kernel falls back to SIGIO, whose default action ends
 * the process. (Its mask at routing time says nothing: a thread in one of
 * our handlers blocks the signal for that while.) So the signals queued for
 * the target's user are checked every rescan: when they pile up, the threads
 * that hold ours pending go back to walks on request, long before the queue
 * can overflow.
 */
void ksig_check_queue(struct ksig *k)
{
	unsigned int queued = 0, limit = 0, i, e;
	char buf[64];

	if (k->signo <= 0 ||
	    proc_status_field(k->pid, 0, "SigQ:", buf, sizeof(buf)) ||
	    sscanf(buf, "%u/%u", &queued, &limit) != 2 || queued < 1000)
		return;
	for (i = 0; i < k->th->n; i++) {
		struct ring *r = k->th->v[i];

		if (r->pid != k->pid || !r->routed ||
		    !sig_in(k->pid, r->tid, "SigPnd:", k->signo))
			continue;
		for (e = 0; e < r->nevents; e++)
			if (r->routed & (1u << e))
				ring_route(r, e, 0);
		k->refused++;
		k->th->changed = true; /* poll it again */
	}
}

void ksig_free(struct ksig *k)
{
	free(k->wait);
	free(k->walks);
	free(k->pool);
	memset(k, 0, sizeof(*k));
}

void ksig_add(struct ksig *sum, const struct ksig *k)
{
	struct agent_ring_stats *s = &sum->rs;
	const struct agent_ring_stats *r = &k->rs;
	bool first = !sum->ran && k->ran;

	if (!sum->ran) {
		sum->ran = k->ran;
		sum->nevents = k->nevents;
		sum->signo = k->signo;
		sum->why = k->why;
	}
	sum->eligible |= k->eligible;
	sum->routed += k->routed;
	sum->refused += k->refused;
	sum->trapped += k->trapped;
	sum->one_trap += k->one_trap;
	sum->matched += k->matched;
	sum->missed += k->missed;
	sum->orphans += k->orphans;
	s->walks += r->walks;
	s->held += r->held;
	s->bad += r->bad;
	s->full += r->full;
	s->busy += r->busy;
	s->timed += r->timed;
	s->own += r->own;
	for (unsigned int i = 0; i < PJW_PARTS; i++) {
		s->part_ns[i] += r->part_ns[i];
		if (r->part_med_ns[i] > s->part_med_ns[i]) /* the slowest's */
			s->part_med_ns[i] = r->part_med_ns[i];
	}
	s->pumped += r->pumped;
	s->pump_ns += r->pump_ns;
	s->checked += r->checked;
	s->check_same += r->check_same;
	if (k->copies > sum->copies)
		sum->copies = k->copies;
	sum->blocking += k->blocking;
	if (!k->ran)
		return;
	/* the agents' own account: summed, the worst of each, the first
	 * owner named */
	s->sig_taken += r->sig_taken;
	s->sig_off += r->sig_off;
	s->sig_passed += r->sig_passed;
	if (first || r->trap_first < s->trap_first)
		s->trap_first = r->trap_first;
	if (!s->trap_owner[0])
		memcpy(s->trap_owner, r->trap_owner, sizeof(s->trap_owner));
	if (r->idle_ns > s->idle_ns)
		s->idle_ns = r->idle_ns;
	if (r->stuck_ns > s->stuck_ns)
		s->stuck_ns = r->stuck_ns;
}

void ksig_loss(const struct ksig *k, struct pj_java_loss *l)
{
	const struct agent_ring_stats *r = &k->rs;

	l->signal = (uint64_t)(k->ran > 0 ? k->ran : 0);
	l->matched = k->matched;
	l->missed = k->missed;
	l->orphans = k->orphans;
	l->pumped = r->pumped;
	l->full = r->full;
	l->busy = r->busy;
	if (k->copies)
		l->copies = k->copies;
	if (!k->ran)
		return; /* on request: nothing of the agent's handler */
	l->blocking = k->blocking;
	if (r->trap_first > 1)
		return; /* an agent that does not keep its account */
	l->sig_taken = r->sig_taken;
	l->sig_off = r->sig_off;
	l->sig_passed = r->sig_passed;
	l->idle_ns = r->idle_ns;
	l->stuck_ns = r->stuck_ns;
	if (!k->trapped)
		return; /* its own signal: whose SIGTRAP's is, no matter */
	l->trap_first = (uint64_t)r->trap_first;
	if (!r->trap_first)
		snprintf(l->trap_owner, sizeof(l->trap_owner), "%s",
			 r->trap_owner);
}

void ksig_summary(const struct ksig *k, bool agent, pid_t pid)
{
	char who[32] = "";

	if (pid)
		snprintf(who, sizeof(who), "JVM %d: ", (int)pid);
	if (!k->ran) {
		if (agent || k->why)
			fprintf(stderr,
				"perfjava: %sjava walks on request: %s\n", who,
				k->why ? k->why : "no agent");
		return;
	}
	fprintf(
	    stderr,
	    "perfjava: %sjava walks at the sample (signal %d routed to %llu "
	    "threads",
	    who, k->ran, (unsigned long long)k->routed);
	if (k->trapped)
		fprintf(stderr, ", %llu of them by SIGTRAP from the sample",
			(unsigned long long)k->trapped);
	if (k->one_trap) /* ksig_traps */
		fprintf(stderr,
			", %llu by it for one event alone (SIGTRAP is not "
			"queued): the others on request",
			(unsigned long long)k->one_trap);
	else if (k->copies > 1) /* jvm/walkring.c: agent_ring_traps */
		fprintf(stderr,
			"; the JVM holds %llu perfjava agents: no SIGTRAP",
			(unsigned long long)k->copies);
	fprintf(stderr, "%s%s)", k->refused ? ", refused for some" : "",
		k->eligible != (1u << k->nevents) - 1
		    ? "; on request for tracepoints and context switches"
		    : "");
	if (k->signo <= 0 && k->why)
		fprintf(stderr, "; stopped: %s", k->why);
	fprintf(stderr,
		": %llu matched, %llu lost their walk (agent ring full "
		"%llu, busy %llu)",
		(unsigned long long)k->matched, (unsigned long long)k->missed,
		(unsigned long long)k->rs.full, (unsigned long long)k->rs.busy);
	if (k->orphans || k->rs.bad)
		fprintf(stderr, ", %llu walks without a sample, %llu refused",
			(unsigned long long)k->orphans,
			(unsigned long long)k->rs.bad);
	fprintf(stderr, "\n");
}

/* "walk_agent_PART_ns" (the sum) and "walk_agent_PART_med_ns" */
static const char *const part_name[PJW_PARTS] = {
	[PJW_PART_ENTRY] = "entry",	[PJW_PART_WALK] = "walk",
	[PJW_PART_RECOVER] = "recover", [PJW_PART_TYPE] = "type",
	[PJW_PART_RING] = "ring",
};

void ksig_write_stats(const struct ksig *k, struct pj_writer *w)
{
	unsigned int i;

	pj_writer_stat(w, "walk_at_sample_signal", (uint64_t)k->ran);
	if (!k->ran)
		return;
	pj_writer_stat(w, "walk_at_sample_threads", k->routed);
	pj_writer_stat(w, "walk_at_sample_matched", k->matched);
	pj_writer_stat(w, "walk_at_sample_missed", k->missed);
	pj_writer_stat(w, "walk_at_sample_orphans", k->orphans);
	pj_writer_stat(w, "walk_ring_full", k->rs.full);
	pj_writer_stat(w, "walk_ring_busy", k->rs.busy);
	pj_writer_stat(w, "walk_ring_bad", k->rs.bad);
	pj_writer_stat(w, "walk_ring_held", k->rs.held);
	/* the agent's own cost, its numbers (untrusted: shown, never used) */
	pj_writer_stat(w, "walk_agent_timed", k->rs.timed);
	pj_writer_stat(w, "walk_agent_own", k->rs.own);
	for (i = 0; i < PJW_PARTS; i++) {
		char key[64];

		snprintf(key, sizeof(key), "walk_agent_%s_ns", part_name[i]);
		pj_writer_stat(w, key, k->rs.part_ns[i]);
		snprintf(key, sizeof(key), "walk_agent_%s_med_ns",
			 part_name[i]);
		pj_writer_stat(w, key, k->rs.part_med_ns[i]);
	}
	pj_writer_stat(w, "walk_agent_pumped", k->rs.pumped);
	pj_writer_stat(w, "walk_agent_pump_ns", k->rs.pump_ns);
	if (k->rs.checked) { /* tests: PERFJAVA_AGENT_WALKCHECK */
		pj_writer_stat(w, "walk_check_walks", k->rs.checked);
		pj_writer_stat(w, "walk_check_same", k->rs.check_same);
	}
}

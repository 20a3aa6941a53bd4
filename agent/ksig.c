// SPDX-License-Identifier: GPL-2.0
/*
 * The agent's own signal, and the walk at the sample.
 *
 * One real-time signal that nobody in the JVM has a handler for is chosen
 * once when the agent is set up and kept for the life of the JVM (a signal
 * still in flight after a session must find our handler). Both ways of
 * asking for a walk use it: the session thread's tgkill (si_code SI_TKILL,
 * walk.c) and the kernel itself on a sample of a perf event that the reader
 * routed to the sampled thread (F_SETOWN_EX, F_SETSIG; si_code POLL_IN,
 * si_fd the reader's event fd).
 *
 * Not SIGPROF: the application or another profiler (async-profiler signals
 * SIGPROF from its own perf events and re-arms each event from its handler)
 * may use it, and a standard signal that is already pending swallows the
 * next one, so a walk request could silently cost the other profiler its
 * event. A real-time signal queues and never merges with theirs.
 *
 * At the sample, the handler walks its own thread (stackwalk_here) into a
 * walk buffer of a fixed pool and appends a record (perfjava/walk_ring.h)
 * to a private lock-free ring: reserve with a compare-and-swap on head,
 * copy, then publish with a release store of the record's first word. The
 * session thread reads that ring (ksig_take), names the frames and passes
 * them to the reader's shared ring (wring.c) every 10 to 400 ms. Nothing here
 * allocates or locks; the one system call is the write to pja.wake_fd that
 * wakes the session thread early when the ring passes a quarter full (once
 * until it has taken what is there: a burst of walks after a quiet spell).
 */
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "pja.h"
#include "clock.h"
#include "ksig.h"
#include "mounted.h"
#include "stackwalk.h"
#include "vmwalk.h"
#include "perfjava/walk_ring.h"

#define NBUF 32 /* walks at once (one per running thread) */
#define PRIV_SIZE (4u << 20)

static struct {
	atomic_int used;
	struct asgct_frame *frames; /* PJA_MAX_SLOTS entries */
} bufs[NBUF];

static char *priv; /* PRIV_SIZE bytes of records */
static _Atomic uint64_t priv_head, priv_tail;
static atomic_int on; /* a session takes walks at the sample */
static atomic_int inflight; /* handlers between their check of on and end */
static _Atomic uint64_t n_full, n_busy;
/* signals at a sample this session: taken while walks were on, come while
 * they were off, tagged SIGTRAPs passed to the handler before ours */
static _Atomic uint64_t n_taken, n_off, n_passed;
/* the private ring's oldest record, unpublished since (session thread) */
static uint64_t stuck_pos = UINT64_MAX, stuck_since;
static int signo; /* our real-time signal, chosen once */
static int traps; /* our SIGTRAP handler is installed */
static atomic_int kicked; /* the session thread was woken, has not taken */

/* Searched from the top: SIGRTMIN and the ones just above it are the ones
 * libraries and applications pick first. */
static int pick(void)
{
	int s;

	for (s = SIGRTMAX - 1; s > SIGRTMIN + 2; s--) {
		struct sigaction sa;

		if (sigaction(s, NULL, &sa))
			continue;
		if (!(sa.sa_flags & SA_SIGINFO) && sa.sa_handler == SIG_DFL)
			return s;
	}
	return -1;
}

/*
 * When a thread's queue of our signal overflows (a thread that blocks it,
 * under RLIMIT_SIGPENDING), the kernel sends SIGIO instead, and SIGIO's
 * default action ends the process. The reader watches SigQ and stops routing
 * long before; this is the net below it: a SIGIO nobody handles is ignored.
 * A handler the application installs later replaces it as usual.
 */
static void sigio_net(void)
{
	struct sigaction sa;

	if (sigaction(SIGIO, NULL, &sa) || sa.sa_flags & SA_SIGINFO ||
	    sa.sa_handler != SIG_DFL)
		return;
	sa.sa_handler = SIG_IGN;
	sigaction(SIGIO, &sa, NULL);
}

int ksig_signo(void)
{
	return signo;
}

int ksig_init(void)
{
	unsigned int i;

	signo = pick();
	if (signo < 0)
		return -1;
	sigio_net();
	/* its pages mapped now: one the handlers touched first would fault
	 * in them */
	priv = mmap(NULL, PRIV_SIZE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (priv == MAP_FAILED) {
		priv = NULL;
		return -1;
	}
	/* and written once now: under a hypervisor the first write through
	 * each page's mapping can still cost microseconds (no fault the
	 * process sees), which at 100 Hz the handlers paid for most samples
	 * during the ring's first pass: 15 us a 200-frame record (make
	 * bench: bench_walk_split.sh with PJ_BENCH_SPLIT_MS=10) */
	memset(priv, 0, PRIV_SIZE);
	for (i = 0; i < NBUF; i++) {
		bufs[i].frames =
		    calloc(PJA_MAX_SLOTS, sizeof(struct asgct_frame));
		if (!bufs[i].frames)
			return -1;
	}
	return 0;
}

/* Reserves len bytes of the private ring; UINT64_MAX when full. */
static uint64_t reserve(uint64_t len)
{
	uint64_t h = atomic_load(&priv_head);

	do {
		if (h + len - atomic_load(&priv_tail) > PRIV_SIZE)
			return UINT64_MAX;
	} while (!atomic_compare_exchange_weak(&priv_head, &h, h + len));
	return h;
}

/* A record of the private ring: the shared ring's record, then the
 * handler's time by part (ticks, enum pjw_part; 0 for a part not run),
 * then the record's extension (an event's, jevents.c), then the frames. */
struct priv_rec {
	struct pjw_rec r;
	uint32_t ticks[PJW_PARTS];
	uint32_t pad;
};

static uint32_t ticks32(uint64_t t)
{
	return t > UINT32_MAX ? UINT32_MAX : (uint32_t)t;
}

/* Reserves room for p, then ext (extlen bytes, a multiple of 8), then the
 * frames, and writes all but p's head; the position, or UINT64_MAX when the
 * ring is full (counted). */
static uint64_t put_body(const struct priv_rec *p, const void *ext,
			 uint32_t extlen, const struct asgct_frame *frames)
{
	uint64_t fbytes = (uint64_t)p->r.nframes * sizeof(*frames);
	uint64_t pos = reserve(sizeof(*p) + extlen + fbytes);

	if (pos == UINT64_MAX) {
		atomic_fetch_add(&n_full, 1);
		return pos;
	}
	pjw_put(priv, PRIV_SIZE, pos + sizeof(*p), ext, extlen);
	pjw_put(priv, PRIV_SIZE, pos + sizeof(*p) + extlen, frames, fbytes);
	if (pos + sizeof(*p) + extlen + fbytes - atomic_load(&priv_tail) >
		PRIV_SIZE / 4 &&
	    !atomic_load(&kicked) && !atomic_exchange(&kicked, 1)) {
		uint64_t one = 1;
		int saved = errno;

		if (write(pja.wake_fd, &one, sizeof(one)) < 0) {
			/* full counter: the session thread is awake */
		}
		errno = saved;
	}
	return pos;
}

/* Writes p's head at pos and publishes the record. */
static void put_head(const struct priv_rec *p, uint64_t pos, uint32_t extlen)
{
	uint64_t len = sizeof(*p) + extlen +
		       (uint64_t)p->r.nframes * sizeof(struct asgct_frame);

	pjw_put(priv, PRIV_SIZE, pos + 8, (const char *)p + 8, sizeof(*p) - 8);
	atomic_store_explicit(
	    (_Atomic uint64_t *)(priv + (pos & (PRIV_SIZE - 1))),
	    len << 32 | pjw_seal(pos), memory_order_release);
}

static void append(const struct pja_walk *w, int fd, uint64_t start,
		   uint32_t flags)
{
	unsigned int n = w->status == PJA_WALK_OK && w->num > 0 ? w->num : 0;
	uint64_t prev = start, now, pos;
	struct pjw_event ev = { .kind = PJW_EV_CPU };
	uint32_t extlen = 0;
	struct priv_rec p = {
	    .r = {
		.time = w->time,
		.pc = w->pc,
		.tid = (uint32_t)w->tid,
		.fd = fd,
		.status = w->status,
		.asgct = w->asgct,
		.nframes = n,
		.flags = (n >= w->depth || w->truncated ? PJA_WALK_TRUNCATED
							 : 0) |
			 (w->raw ? PJA_WALK_RAW : 0) | flags |
			 (w->how & 0xffu) << PJA_WALK_HOW_SHIFT,
	    },
	};
	unsigned int i;

	/* a carrier's sample says which virtual thread it ran */
	ev.vthread = mounted_vthread(w->tid);
	if (ev.vthread) {
		p.r.flags |= PJW_REC_EVENT;
		extlen = sizeof(ev);
	}
	pos = put_body(&p, &ev, extlen, w->frames);
	if (pos == UINT64_MAX)
		return;
	/* each part from the end of the one run before it */
	for (i = 0; i < PJW_PART_RING; i++)
		if (w->mark[i] >= prev) {
			p.ticks[i] = ticks32(w->mark[i] - prev);
			prev = w->mark[i];
		}
	now = pja_ticks();
	p.ticks[PJW_PART_RING] = ticks32(now > prev ? now - prev : 0);
	put_head(&p, pos, extlen);
}

int ksig_put_event(const struct pjw_rec *r, const void *ext, uint32_t extlen,
		   const struct asgct_frame *frames)
{
	struct priv_rec p = { .r = *r };
	uint64_t pos = UINT64_MAX;

	atomic_fetch_add(&inflight, 1);
	if (atomic_load(&on) && extlen <= KSIG_EXT_MAX && !(extlen & 7) &&
	    (pos = put_body(&p, ext, extlen, frames)) != UINT64_MAX)
		put_head(&p, pos, extlen);
	atomic_fetch_sub(&inflight, 1);
	return pos == UINT64_MAX ? -1 : 0;
}

/* Tests and benchmarks (testhooks.c): NULL in a user's JVM. */
static void (*sample_hook)(int fd, void *uc, uint64_t start);

void ksig_hook(void (*fn)(int fd, void *uc, uint64_t start))
{
	sample_hook = fn;
}

static inline void walk_sample(int fd, void *uc, uint64_t start, int twin)
{
	struct pja_walk w = { 0 };
	unsigned int i;

	for (i = 0; i < NBUF; i++) {
		int free_buf = 0;

		if (atomic_compare_exchange_strong(&bufs[i].used, &free_buf, 1))
			break;
	}
	if (i == NBUF) {
		atomic_fetch_add(&n_busy, 1);
		return;
	}
	w.frames = bufs[i].frames;
	w.depth = pja.depth;
	w.slots = PJA_MAX_SLOTS;
	stackwalk_here(uc, &w);
	append(&w, fd, start, 0);
	if (twin && w.raw) {
		uint64_t t = w.time;

		w.asgct_only = 1;
		stackwalk_here(uc, &w);
		w.time = t; /* the twin's key: its thread and time */
		append(&w, fd, start, PJA_WALK_CHECK);
	}
	atomic_store(&bufs[i].used, 0);
}

void ksig_walk(int fd, void *uc, uint64_t start, int twin)
{
	walk_sample(fd, uc, start, twin);
}

int ksig_on_sample(int fd, void *uc)
{
	uint64_t start = pja_ticks();
	int saved = errno, ret = 0;

	atomic_fetch_add(&inflight, 1);
	if (!atomic_load(&on)) {
		atomic_fetch_add(&n_off, 1);
		ret = -1;
		goto out;
	}
	atomic_fetch_add(&n_taken, 1);
	if (sample_hook) /* tests and benchmarks only */
		sample_hook(fd, uc, start);
	else
		walk_sample(fd, uc, start, 0);
out:
	atomic_fetch_sub(&inflight, 1);
	errno = saved;
	return ret;
}

/*
 * perf_event_attr.sigtrap (Linux 5.13+): the kernel itself sends the
 * sampled thread SIGTRAP (si_code TRAP_PERF, the event's sig_data) on its
 * way back to user mode after the sample; since Linux 6.10 through task
 * work, where an F_SETSIG signal goes through an interrupt the CPU sends
 * itself (irq_work), which under a hypervisor costs the thread more than
 * the rest of the walk. The reader opens such events only once this
 * handler is installed (PJA_HELLO_SIGTRAP), and tags sig_data with
 * PJA_TRAP_TAG and the event's fd; any other SIGTRAP goes to the handler
 * that was there before.
 */
#ifndef TRAP_PERF
#define TRAP_PERF 6
#endif
#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000 /* the kernel's, which glibc sets */
#endif

/* The kernel's siginfo of a TRAP_PERF signal, which glibc does not name. */
struct perf_siginfo {
	int signo, err, code, pad;
	void *addr;
	uint64_t data;
	uint32_t type, flags;
};
_Static_assert(sizeof(siginfo_t) >= sizeof(struct perf_siginfo),
	       "TRAP_PERF siginfo layout");

static struct sigaction prev_trap;

/* Whether prev is a handler (not a default action or ignore). */
static int is_handler(const struct sigaction *prev)
{
	if (prev->sa_flags & SA_SIGINFO)
		return prev->sa_sigaction != NULL;
	return prev->sa_handler != SIG_DFL && prev->sa_handler != SIG_IGN;
}

/*
 * A tagged perf SIGTRAP is perfjava's, but not necessarily this copy's: a
 * JVM may hold two copies of the agent (two builds of perfjava, or a copy
 * the reader put in the JVM's /tmp), each with its handler, the later one
 * in front of the other. One whose walks are off passes the signal on to
 * the handler before it (the copy whose reader routed it), never to a
 * default action, which would end the JVM.
 */
static void on_trap(int sig, siginfo_t *si, void *uc)
{
	const struct perf_siginfo *p = (const void *)si;

	if (si->si_code == TRAP_PERF && p->data >> 32 == PJA_TRAP_TAG) {
		if (!ksig_on_sample((int)(uint32_t)p->data, uc) ||
		    !is_handler(&prev_trap))
			return;
		atomic_fetch_add(&n_passed, 1);
	}
	pja_chain(&prev_trap, sig, si, uc);
}

int ksig_trap_first(char *owner, size_t len)
{
	struct sigaction sa;
	Dl_info dl;
	const char *name;

	if (len)
		owner[0] = 0;
	if (!traps || sigaction(SIGTRAP, NULL, &sa))
		return 0;
	if ((sa.sa_flags & SA_SIGINFO) && sa.sa_sigaction == on_trap)
		return 1;
	if (!len)
		return 0;
	if (!is_handler(&sa))
		snprintf(owner, len, "%s",
			 sa.sa_handler == SIG_IGN ? "ignored" : "default");
	else if (dladdr((sa.sa_flags & SA_SIGINFO) ? (void *)sa.sa_sigaction
						   : (void *)sa.sa_handler,
			&dl) &&
		 dl.dli_fname) {
		name = strrchr(dl.dli_fname, '/');
		snprintf(owner, len, "%s", name ? name + 1 : dl.dli_fname);
	} else {
		snprintf(owner, len, "unknown");
	}
	return 0;
}

int ksig_trap_init(void)
{
	struct sigaction sa;

	if (pja_install(SIGTRAP, on_trap, &prev_trap))
		return -1;
	traps = 1;
	/* the return of every handler glibc installed: a signal frame's
	 * mark on the stack (vmwalk.c) */
	if (!sigaction(SIGTRAP, NULL, &sa) && (sa.sa_flags & SA_RESTORER))
		vmwalk_restorer((uintptr_t)sa.sa_restorer);
	return 0;
}

void ksig_start(void)
{
	atomic_store(&n_full, 0);
	atomic_store(&n_busy, 0);
	atomic_store(&n_taken, 0);
	atomic_store(&n_off, 0);
	atomic_store(&n_passed, 0);
	stuck_pos = UINT64_MAX;
	atomic_store(&on, 1);
}

void ksig_stop(void)
{
	struct timespec ts = { 0, 1000000 };
	int i;

	atomic_store(&on, 0);
	for (i = 0; i < 100 && atomic_load(&inflight); i++)
		nanosleep(&ts, NULL);
	/* what the handlers left is for no one now */
	if (!atomic_load(&inflight))
		atomic_store(&priv_tail, atomic_load(&priv_head));
}

int ksig_take(struct pjw_rec *r, uint32_t *ticks, void *ext, uint32_t *extlen,
	      struct asgct_frame *frames, unsigned int max)
{
	uint64_t pos = atomic_load(&priv_tail), word, len, fbytes;
	struct priv_rec p;

	if (pos == atomic_load(&priv_head))
		return 0;
	word = atomic_load_explicit(
	    (_Atomic uint64_t *)(priv + (pos & (PRIV_SIZE - 1))),
	    memory_order_acquire);
	if ((uint32_t)word != pjw_seal(pos)) { /* not published yet */
		if (stuck_pos != pos) {
			stuck_pos = pos;
			stuck_since = pja_now();
		}
		return 0;
	}
	len = word >> 32;
	pjw_get(priv, PRIV_SIZE, pos, &p, sizeof(p));
	*r = p.r;
	memcpy(ticks, p.ticks, sizeof(p.ticks));
	fbytes = (uint64_t)r->nframes * sizeof(*frames);
	*extlen = (uint32_t)(len - sizeof(p) - fbytes); /* as put wrote */
	if (*extlen > KSIG_EXT_MAX)
		*extlen = 0; /* cannot happen: put bounds it */
	pjw_get(priv, PRIV_SIZE, pos + sizeof(p), ext, *extlen);
	if (r->nframes > max)
		r->nframes = max; /* cannot happen: depth <= max */
	pjw_get(priv, PRIV_SIZE, pos + sizeof(p) + *extlen, frames,
		(uint64_t)r->nframes * sizeof(*frames));
	atomic_store(&priv_tail, pos + len);
	return 1;
}

void ksig_rearm(void)
{
	atomic_store(&kicked, 0);
}

uint64_t ksig_taken(void)
{
	return atomic_load(&priv_tail);
}

uint64_t ksig_ring_bytes(void)
{
	return PRIV_SIZE;
}

void ksig_counts(uint64_t *full, uint64_t *busy)
{
	*full = atomic_load(&n_full);
	*busy = atomic_load(&n_busy);
}

void ksig_signals(uint64_t *taken, uint64_t *off, uint64_t *passed)
{
	*taken = atomic_load(&n_taken);
	*off = atomic_load(&n_off);
	*passed = atomic_load(&n_passed);
}

uint64_t ksig_stuck_ns(void)
{
	uint64_t now = pja_now();

	if (stuck_pos != atomic_load(&priv_tail) || now < stuck_since)
		return 0;
	return now - stuck_since;
}

void ksig_clear_full(uint64_t counted)
{
	atomic_fetch_sub(&n_full, counted);
}

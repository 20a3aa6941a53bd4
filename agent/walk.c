// SPDX-License-Identifier: GPL-2.0
/*
 * The walk: the session thread sends our real-time signal (ksig_signo, see
 * ksig.c) to one thread with tgkill; that
 * thread's handler runs AsyncGetCallTrace on its own ucontext into a
 * preallocated slot and publishes the result with an atomic store and a futex
 * wake. The session thread waits for it with a bound. A batch of walks is
 * signalled at once (walk_begin) and then collected (walk_end), so that the
 * threads run their handlers in parallel instead of queueing behind each
 * other; a batch holds one walk per thread, because two signals to a thread
 * may arrive as one.
 *
 * Slots: a 32-bit word holds a token and a state (FREE, PENDING, RUNNING,
 * DONE). Only the handler of the addressed thread can move PENDING to
 * RUNNING (compare-and-swap), and the session thread only reuses a slot that
 * is not RUNNING, so a late handler never writes into a slot that was given
 * to another request. A request that timed out before its handler started is
 * taken back (PENDING to FREE); the signal still in flight is remembered and
 * swallowed when it arrives.
 *
 * Signals: ours are ksig_signo's with si_code SI_TKILL from our own pid, for a
 * thread that has a pending slot or an outstanding stale signal. Everything
 * else goes to the handler that was installed before (SIG_DFL and SIG_IGN are
 * not applied: a stray signal must not end the JVM). SIGPROF is left alone.
 *
 * The walk itself, with its fault protection, is stackwalk.c. Handlers are
 * installed once and never removed: a late signal must always find them.
 * Nothing in the handler allocates, locks or calls unsafe functions.
 */
#include <errno.h>
#include <stdbool.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "pja.h"
#include "clock.h"
#include "ksig.h"
#include "stackwalk.h"
#include "walk.h"

#define NSLOTS PJA_WALK_SLOTS
#define NSTALE 16
#define LATE_WAIT_NS 100000000ull /* a started handler gets 100 ms more */

enum { S_FREE = 0, S_PENDING = 1, S_RUNNING = 2, S_DONE = 3 };
enum { K_WALK = 0, K_PROBE = 1 };

struct slot {
	_Atomic uint32_t word; /* token << 2 | state */
	pid_t tid;
	int kind;
	/* the session thread's own bookkeeping, never read by handlers */
	bool owned; /* part of a batch not collected yet */
	uint32_t token;
	uint64_t deadline;
	/* results; walk.frames is PJA_MAX_SLOTS entries, never freed */
	struct pja_walk walk;
	JNIEnv *env;
};

static struct slot slots[NSLOTS];
static struct {
	atomic_int tid;
	atomic_int count;
} stale[NSTALE];
static uint32_t next_token;
static struct sigaction prev_sig;

static void do_walk(struct slot *s, void *uc)
{
	JNIEnv *env = NULL;

	if (s->kind == K_WALK) {
		stackwalk_here(uc, &s->walk);
		return;
	}
	if ((*pja.vm)->GetEnv(pja.vm, (void **)&env, JNI_VERSION_1_6) != JNI_OK)
		env = NULL;
	s->env = env;
	s->walk.status = env ? PJA_WALK_OK : PJA_WALK_NOT_JAVA;
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;

	if (si->si_code == POLL_IN) { /* the kernel, on a sample */
		ksig_on_sample(si->si_fd, uc);
		return;
	}
	if (si->si_code == SI_TKILL && si->si_pid == getpid()) {
		pid_t me = pja_gettid();
		unsigned int i;

		for (i = 0; i < NSLOTS; i++) {
			struct slot *s = &slots[i];
			uint32_t w = atomic_load(&s->word);

			if ((w & 3) != S_PENDING || s->tid != me)
				continue;
			if (!atomic_compare_exchange_strong(
				&s->word, &w, (w & ~3u) | S_RUNNING))
				continue;
			do_walk(s, uc);
			atomic_store(&s->word, (w & ~3u) | S_DONE);
			syscall(SYS_futex, &s->word, FUTEX_WAKE, 1, NULL, NULL,
				0);
			errno = saved;
			return;
		}
		for (i = 0; i < NSTALE; i++) {
			int c;

			if (atomic_load(&stale[i].tid) != me)
				continue;
			c = atomic_load(&stale[i].count);
			while (c > 0 && !atomic_compare_exchange_weak(
					    &stale[i].count, &c, c - 1))
				;
			if (c > 0) {
				errno = saved;
				return;
			}
		}
	}
	errno = saved;
	pja_chain(&prev_sig, sig, si, uc);
}

int walk_init(void)
{
	unsigned int i;

	for (i = 0; i < NSLOTS; i++) {
		slots[i].walk.frames =
		    calloc(PJA_MAX_SLOTS, sizeof(struct asgct_frame));
		if (!slots[i].walk.frames)
			return -1;
	}
	if (ksig_init() || stackwalk_init() ||
	    pja_install(ksig_signo(), on_signal, &prev_sig))
		return -1;
	ksig_trap_init(); /* without it, the real-time signal */
	return 0;
}

static void remember_stale(pid_t tid)
{
	unsigned int i;

	for (i = 0; i < NSTALE; i++)
		if (atomic_load(&stale[i].tid) == tid) {
			atomic_fetch_add(&stale[i].count, 1);
			return;
		}
	for (i = 0; i < NSTALE; i++)
		if (atomic_load(&stale[i].count) == 0) {
			atomic_store(&stale[i].tid, tid);
			atomic_fetch_add(&stale[i].count, 1);
			return;
		}
}

/* Waits until s leaves state (token, st) or until deadline (monotonic). */
static uint32_t wait_word(struct slot *s, uint32_t cur, uint64_t deadline)
{
	for (;;) {
		uint32_t w = atomic_load(&s->word);
		uint64_t now;
		struct timespec ts;

		if (w != cur)
			return w;
		now = pja_now();
		if (now >= deadline)
			return w;
		ts.tv_sec = (deadline - now) / 1000000000ull;
		ts.tv_nsec = (deadline - now) % 1000000000ull;
		syscall(SYS_futex, &s->word, FUTEX_WAIT, cur, &ts, NULL, 0);
	}
}

/* Claims a free slot for tid and signals it; NULL with *status on failure. */
static struct slot *start(pid_t tid, int kind, unsigned int depth, int *status)
{
	struct slot *s = NULL;
	uint32_t w, token;
	unsigned int i;

	for (i = 0; i < NSLOTS && !s; i++) {
		if (slots[i].owned)
			continue; /* in this batch, not collected yet */
		w = atomic_load(&slots[i].word);
		if ((w & 3) == S_DONE)
			atomic_compare_exchange_strong(&slots[i].word, &w,
						       w & ~3u);
		if ((atomic_load(&slots[i].word) & 3) == S_FREE)
			s = &slots[i];
	}
	if (!s) {
		*status =
		    PJA_WALK_TIMEOUT; /* every slot held by a stuck walk */
		return NULL;
	}
	token = ++next_token & 0x3fffffff;
	s->tid = tid;
	s->kind = kind;
	s->walk.depth = depth;
	s->walk.slots = PJA_MAX_SLOTS;
	s->walk.status = PJA_WALK_NOT_JAVA;
	s->walk.num = 0;
	s->token = token;
	/* probes (thread names at attach) may wait longer than walks */
	s->deadline = pja_now() + (kind == K_PROBE ? 100000000ull
						   : pja.timeout_us * 1000ull);
	w = token << 2 | S_PENDING;
	atomic_store(&s->word, w);
	if (syscall(SYS_tgkill, getpid(), tid, ksig_signo())) {
		atomic_store(&s->word, token << 2 | S_FREE);
		*status = PJA_WALK_GONE;
		return NULL;
	}
	s->owned = true;
	return s;
}

/* Waits (bounded) for the handler of s; NULL with *status when it did not
 * finish in time (the slot is then given up, or left to its late handler). */
static struct slot *finish(struct slot *s, int *status)
{
	uint32_t token = s->token, w;

	s->owned = false;
	w = wait_word(s, token << 2 | S_PENDING, s->deadline);
	if ((w & 3) == S_PENDING) {
		uint32_t exp = w;

		if (atomic_compare_exchange_strong(&s->word, &exp,
						   token << 2 | S_FREE)) {
			remember_stale(s->tid);
			*status = PJA_WALK_TIMEOUT;
			return NULL;
		}
		w = exp;
	}
	if ((w & 3) == S_RUNNING)
		w = wait_word(s, token << 2 | S_RUNNING,
			      pja_now() + LATE_WAIT_NS);
	if ((w & 3) != S_DONE) {
		/* still running: the slot stays held until it finishes */
		*status = PJA_WALK_TIMEOUT;
		return NULL;
	}
	*status = s->walk.status;
	return s;
}

/* Runs one request through a free slot; fills the slot's results. */
static struct slot *run(pid_t tid, int kind, unsigned int depth, int *status)
{
	struct slot *s = start(tid, kind, depth, status);

	return s ? finish(s, status) : NULL;
}

static void release(struct slot *s)
{
	uint32_t w = atomic_load(&s->word);

	if ((w & 3) == S_DONE)
		atomic_store(&s->word, w & ~3u);
}

void *walk_begin(pid_t tid, unsigned int depth, int *status)
{
	return start(tid, K_WALK, depth, status);
}

int walk_end(void *walk, struct pja_walk *out)
{
	int status;
	struct slot *s = finish(walk, &status);
	struct asgct_frame *frames = out->frames;

	if (!s) {
		memset(out, 0, sizeof(*out));
		out->frames = frames;
		out->status = status;
		return status;
	}
	*out = s->walk;
	out->frames = frames;
	if (status == PJA_WALK_OK && s->walk.num > 0)
		memcpy(frames, s->walk.frames, s->walk.num * sizeof(*frames));
	release(s);
	return status;
}

JNIEnv *walk_probe_env(pid_t tid)
{
	int status;
	struct slot *s = run(tid, K_PROBE, 0, &status);
	JNIEnv *env;

	if (!s)
		return NULL;
	env = s->env;
	release(s);
	return env;
}

void walk_quiesce(void)
{
	uint64_t deadline = pja_now() + LATE_WAIT_NS;
	unsigned int i;

	for (i = 0; i < NSLOTS; i++) {
		uint32_t w = atomic_load(&slots[i].word);

		if ((w & 3) == S_RUNNING)
			wait_word(&slots[i], w, deadline);
	}
}

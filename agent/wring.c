// SPDX-License-Identifier: GPL-2.0
/*
 * The session's side of the walk ring (perfjava/walk_ring.h): the reader's
 * shared memory, mapped on PJA_RING, and the pump that moves the walks the
 * signal handlers took (ksig.c) into it. Off the hot path, on the session
 * thread: the pump names each frame's type from the code map, sends every
 * method the reader has not seen (PJA_METHOD, over the socket, flushed
 * before the walks naming it are published), then appends the records. The
 * session thread is the shared ring's only writer, so unmapping it at the end
 * of the session cannot pull memory from under a handler.
 */
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pja.h"
#include "clock.h"
#include "cost.h"
#include "jevents.h"
#include "ksig.h"
#include "methods.h"
#include "out.h"
#include "wring.h"
#include "perfjava/walk_ring.h"

_Static_assert(sizeof(struct asgct_frame) == 16, "walk record frame size");
_Static_assert(sizeof(struct pja_frame) == 16, "walk record frame size");

#define STAGE_BYTES (1u << 20)

static char *shm;
static uint64_t shm_size, whead;
static struct pjw_head *hd;
static char stage[STAGE_BYTES];
static size_t stage_len;
static struct asgct_frame raw[PJA_MAX_SLOTS];
static struct pja_frame named[PJA_MAX_DEPTH];
static char ext[KSIG_EXT_MAX];
/*
 * Each pump costs the session thread a wake-up (hundreds of us of the
 * target's CPU under a hypervisor, H2 at 100 Hz) whatever it moves: with few
 * walks coming it waits longer, up to PUMP_MAX_MS, as long as the records
 * expected meanwhile (at the last pump's rate) fill at most an eighth of the
 * private ring and stay under PUMP_WALKS (the reader holds their samples
 * until they come, a second at most: pipeline/cpuwalk.h; at its end it asks
 * for the last ones, PJA_PUMP). A burst that fills a quarter of it sooner
 * wakes the thread from the handler (ksig.c).
 */
#define PUMP_MIN_MS 10
#define PUMP_MAX_MS 400
#define PUMP_WALKS 512

static uint64_t last_cpu; /* the session thread's CPU at the last pump */
/* the last pump: when, and the private ring's position then; the wait it
 * chose before the next */
static uint64_t last_ns, last_taken;
static int interval_ms;
static uint32_t extlen;
/* Tests and benchmarks (testhooks.c): NULL in a user's JVM. */
static const struct wring_hooks *hooks;

void wring_hook(const struct wring_hooks *h)
{
	hooks = h;
}

int wring_attach(int fd, const struct pja_ring *req)
{
	uint64_t size = req->size;
	struct stat st;
	void *p;

	if (shm || size < PJW_MIN_SIZE || size > PJW_MAX_SIZE ||
	    (size & (size - 1)) || fstat(fd, &st) ||
	    (uint64_t)st.st_size != PJW_HEAD_BYTES + size)
		return -1;
	/* its pages mapped now, not one fault at a time while walks are
	 * moved (the memfd's pages are new: each first touch zeroes one) */
	p = mmap(NULL, PJW_HEAD_BYTES + size, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_POPULATE, fd, 0);
	if (p == MAP_FAILED)
		return -1;
	hd = p;
	if (hd->magic != PJW_MAGIC || hd->version != PJW_VERSION ||
	    hd->size != size) {
		munmap(p, PJW_HEAD_BYTES + size);
		hd = NULL;
		return -1;
	}
	shm = p;
	shm_size = size;
	whead = __atomic_load_n(&hd->head, __ATOMIC_ACQUIRE);
	stage_len = 0;
	cost_reset();
	last_cpu = 0;
	last_ns = 0;
	interval_ms = PUMP_MIN_MS;
	pja_ticks_ns(0); /* the clocks' calibration starts */
	ksig_start();
	return 0;
}

int wring_interval_ms(void)
{
	if (!shm)
		return 1000;
	return hooks ? hooks->interval(interval_ms) : interval_ms;
}

static void next_interval(uint64_t recs)
{
	uint64_t now = pja_now(), taken = ksig_taken();
	uint64_t dt = now - last_ns, ms = PUMP_MAX_MS;

	if (last_ns && dt) {
		uint64_t bytes = taken - last_taken;

		/* ms such that ms * rate <= the bound, rate per ns */
		if (bytes && ksig_ring_bytes() / 8 * dt / bytes / 1000000 < ms)
			ms = ksig_ring_bytes() / 8 * dt / bytes / 1000000;
		if (recs && PUMP_WALKS * dt / recs / 1000000 < ms)
			ms = PUMP_WALKS * dt / recs / 1000000;
	} else {
		ms = PUMP_MIN_MS;
	}
	interval_ms = ms < PUMP_MIN_MS ? PUMP_MIN_MS : (int)ms;
	last_ns = now;
	last_taken = taken;
}

void wring_tick(void)
{
	if (!shm || pja_gettid() != atomic_load(&pja.sess_tid) ||
	    pja_now() - last_ns < (uint64_t)interval_ms * 1000000)
		return;
	/* (a socket that fails is seen again by the loop, and ends it) */
	if (!wring_pump())
		out_flush();
}

int wring_active(void)
{
	return shm != NULL;
}

/* r as staged: its extension and frames follow it. */
static void publish(const struct pjw_rec *r)
{
	uint64_t len = pjw_rec_len_ext(r->nframes, r->flags);
	uint64_t tail = __atomic_load_n(&hd->tail, __ATOMIC_ACQUIRE);
	char *data = shm + PJW_HEAD_BYTES;

	if (whead - tail > shm_size || whead + len - tail > shm_size) {
		__atomic_fetch_add(&hd->full, 1, __ATOMIC_RELAXED);
		return;
	}
	pjw_put(data, shm_size, whead + 8, (const char *)r + 8, len - 8);
	__atomic_store_n((uint64_t *)(data + (whead & (shm_size - 1))),
			 len << 32 | pjw_seal(whead), __ATOMIC_RELEASE);
	whead += len;
	__atomic_store_n(&hd->head, whead, __ATOMIC_RELEASE);
	__atomic_fetch_add(&hd->walks, 1, __ATOMIC_RELAXED);
}

/* The methods of the staged walks are on the socket: publish them. */
static int flush_stage(void)
{
	size_t off = 0;

	if (out_flush())
		return -1;
	while (off < stage_len) {
		const struct pjw_rec *r = (const void *)(stage + off);

		publish(r);
		off += pjw_rec_len_ext(r->nframes, r->flags);
	}
	stage_len = 0;
	return 0;
}

/* What became of the signals at a sample, and whether the JVM's SIGTRAP
 * handler is still ours (another library may have put its own in front
 * since the session began). */
static void put_signals(void)
{
	uint64_t taken, off, passed;
	char owner[sizeof(hd->trap_owner)];
	int first = ksig_trap_first(owner, sizeof(owner));

	ksig_signals(&taken, &off, &passed);
	__atomic_store_n(&hd->sig_taken, taken, __ATOMIC_RELAXED);
	__atomic_store_n(&hd->sig_off, off, __ATOMIC_RELAXED);
	__atomic_store_n(&hd->sig_passed, passed, __ATOMIC_RELAXED);
	__atomic_store_n(&hd->trap_first, (uint64_t)first, __ATOMIC_RELAXED);
	memcpy(hd->trap_owner, owner, sizeof(owner));
	__atomic_store_n(&hd->stuck_ns, ksig_stuck_ns(), __ATOMIC_RELAXED);
	__atomic_store_n(&hd->pump_at_ns, pja_now(), __ATOMIC_RELAXED);
}

/* The session thread's CPU time (not its wall time: it may be preempted). */
static uint64_t cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

int wring_pump(void)
{
	uint64_t full, busy, now, pumped = 0, moved = 0;
	uint32_t ticks[PJW_PARTS];
	struct pjw_rec r;
	int ret;

	if (!shm)
		return 0;
	ksig_rearm(); /* before taking: a later fill wakes it again */
	while (ksig_take(&r, ticks, ext, &extlen, raw, PJA_MAX_SLOTS)) {
		struct pjw_event ev;
		int own = !!(r.flags & PJA_WALK_RAW);
		unsigned int n;
		uint64_t len;

		moved++;
		if (hooks && hooks->take(&r, raw, hd))
			continue; /* tests and benchmarks: taken, not moved */
		/* an event's class named first (PJA_CLASS) */
		if (!(r.flags & PJW_REC_EVENT) ||
		    jevents_name(ext, extlen, &ev))
			r.flags &= ~PJW_REC_EVENT;
		/* the most a record can take: its depth, named */
		if (stage_len + pjw_rec_len_ext(pja.depth, r.flags) >
			STAGE_BYTES &&
		    flush_stage())
			return -1;
		n = r.nframes =
		    walk_frames(r.pc, &r.flags, raw, r.nframes, named);
		len = pjw_rec_len_ext(n, r.flags);
		memcpy(stage + stage_len, &r, sizeof(r));
		if (r.flags & PJW_REC_EVENT)
			memcpy(stage + stage_len + sizeof(r), &ev, sizeof(ev));
		memcpy(stage + stage_len + len - n * sizeof(named[0]), named,
		       n * sizeof(named[0]));
		stage_len += len;
		if (!(r.flags & PJW_REC_EVENT) || ev.kind == PJW_EV_CPU) {
			cost_walk(ticks, own); /* a walk at a sample */
			pumped++;
		}
	}
	if (jevents_report())
		return -1;
	ksig_counts(&full, &busy);
	__atomic_store_n(&hd->busy, busy, __ATOMIC_RELAXED);
	if (full) /* the private ring's drops, added once */
		__atomic_fetch_add(&hd->full, full, __ATOMIC_RELAXED);
	ksig_clear_full(full);
	ret = stage_len ? flush_stage() : 0;
	/* the session thread's CPU since the last pump: its wake-ups, the
	 * reader's messages and this, all the agent's thread does for walks
	 * at the sample */
	now = cpu_now();
	cost_pump(last_cpu ? now - last_cpu : 0, pumped);
	last_cpu = now;
	next_interval(moved);
	cost_put(hd);
	put_signals();
	return ret;
}

void wring_detach(void)
{
	if (!shm)
		return;
	ksig_stop();
	munmap(shm, PJW_HEAD_BYTES + shm_size);
	shm = NULL;
	hd = NULL;
}

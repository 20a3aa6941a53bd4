// SPDX-License-Identifier: GPL-2.0
/*
 * The agent's benchmark and test switches, in one place: read once per
 * session, from the reader's bench= option and the JVM's environment, and
 * handed to the production files as hooks that stay NULL while no switch
 * is on (each file tests its hook at one call site, a branch that never
 * turns in a user's JVM):
 *
 * - bench=signal: the handler of a walk at the sample returns at once (the
 *   kernel's signal alone); bench=walk: walks are taken, then dropped by the
 *   pump (nothing moved to the reader): `make bench`'s split of the walk's
 *   cost (selftests/bench/bench_walk_parts.sh). bench=alt: as shipped in the
 *   even periods of PJA_BENCH_ALT_NS of CLOCK_MONOTONIC (the JVM's
 *   System.nanoTime), as bench=signal in the odd ones; bench=alt-all: the
 *   session thread sleeps through the odd periods, where the reader samples
 *   nothing (PERFJAVA_BENCH=alt-all), its wake-ups counted in the even ones
 *   only (bench_walk_alt.sh). ksig.c, wring.c.
 * - PERFJAVA_AGENT_TESTFAULT=N: every Nth walk reads a bad address inside
 *   the walk's fault protection (stackwalk.c), and so does each read of a
 *   compiled method's level (events.c): both must be survived.
 * - PERFJAVA_AGENT_WALKER=asgct: every walk left to AsyncGetCallTrace and
 *   its recoveries (stackwalk.c).
 * - PERFJAVA_AGENT_WALKCHECK: each walk the agent takes itself is taken
 *   again by AsyncGetCallTrace at the same signal (ksig.c) and the two are
 *   compared once named (wring.c's pump, walkcheck.c).
 * - PERFJAVA_AGENT_TESTREPLAY=MS: the session's replay of the code map and
 *   the threads lasts at least MS ms, the walks moved meanwhile (events.c).
 */
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pja.h"
#include "clock.h"
#include "events.h"
#include "ksig.h"
#include "methods.h"
#include "stackwalk.h"
#include "testhooks.h"
#include "walkcheck.h"
#include "wring.h"

#define BENCH_SIGNAL 1
#define BENCH_WALK 2
#define BENCH_ALT 3
#define BENCH_ALT_ALL 4

static int bench, testfault, testreplay, walkcheck, asgct_only;
static atomic_uint fault_count;
/* an address the faults read: unmapped */
static volatile uintptr_t bad_addr = 16;

/* the session thread's copy of a walk, named for walkcheck.c */
static struct pjw_rec copy;
static struct asgct_frame copy_raw[PJA_MAX_SLOTS];
static struct pja_frame copy_named[PJA_MAX_DEPTH];

/* A number from the environment, 0 when unset or out of 0..max. */
static int env_int(const char *v, int max)
{
	int n = v ? atoi(v) : 0;

	return n < 0 || n > max ? 0 : n;
}

/* ksig.c, at a sample: bench=signal and bench=alt's odd periods walk not;
 * PERFJAVA_AGENT_WALKCHECK takes AsyncGetCallTrace's twin. */
static void on_sample(int fd, void *uc, uint64_t start)
{
	if (bench == BENCH_SIGNAL ||
	    (bench == BENCH_ALT && pja_now() / PJA_BENCH_ALT_NS & 1))
		return;
	ksig_walk(fd, uc, start, walkcheck);
}

/* stackwalk.c, inside the walk's fault protection: the fault, and whether
 * the walk is left to AsyncGetCallTrace. */
static int on_walk(void)
{
	if (testfault &&
	    atomic_fetch_add(&fault_count, 1) % (unsigned int)testfault == 0)
		(void)*(volatile const long *)bad_addr;
	return asgct_only;
}

/* wring.c's pump, a record taken before it is named: 1 when it goes no
 * further (bench=walk; a walk check's twin, compared here). An own walk
 * is named here too, for the comparison with its twin to come. */
static int on_take(const struct pjw_rec *r, const struct asgct_frame *raw,
		   struct pjw_head *hd)
{
	unsigned int n;

	if (bench == BENCH_WALK)
		return 1;
	if (!walkcheck || !(r->flags & (PJA_WALK_CHECK | PJA_WALK_RAW)) ||
	    r->nframes > PJA_MAX_SLOTS)
		return 0;
	copy = *r;
	copy.flags &= ~PJA_WALK_CHECK;
	memcpy(copy_raw, raw, r->nframes * sizeof(*raw));
	n = walk_frames(copy.pc, &copy.flags, copy_raw, copy.nframes,
			copy_named);
	copy.nframes = n;
	if (r->flags & PJA_WALK_CHECK)
		walkcheck_twin(&copy, copy_named, n);
	else
		walkcheck_keep(&copy, copy_named, n);
	walkcheck_put(hd);
	return !!(r->flags & PJA_WALK_CHECK);
}

/* wring.c: bench=alt-all's session thread sleeps through the odd periods */
static int on_interval(int ms)
{
	uint64_t now = pja_now();

	if (bench == BENCH_ALT_ALL && now / PJA_BENCH_ALT_NS & 1)
		return (int)((PJA_BENCH_ALT_NS - now % PJA_BENCH_ALT_NS) /
			     1000000) +
		       1;
	return ms;
}

/* events.c, after the replay of the code map: a replay as long as a big
 * code cache's on a loaded machine, the walks moved meanwhile as they
 * are. */
static void on_replay(void)
{
	uint64_t end = pja_now() + (uint64_t)testreplay * 1000000;
	struct timespec ts = { 0, 5000000 };

	while (testreplay && pja_now() < end) {
		nanosleep(&ts, NULL);
		wring_tick();
	}
}

/* events.c, inside the protected read of a compiled method's level */
static void on_level(void)
{
	if (testfault)
		(void)*(volatile const long *)bad_addr;
}

static const struct wring_hooks pump_hooks = { on_take, on_interval };
static const struct events_hooks replay_hooks = { on_replay, on_level };

void testhooks_session(const char *bench_opt)
{
	const char *wk = getenv("PERFJAVA_AGENT_WALKER");

	bench = !strcmp(bench_opt, "signal")	? BENCH_SIGNAL
		: !strcmp(bench_opt, "walk")	? BENCH_WALK
		: !strcmp(bench_opt, "alt")	? BENCH_ALT
		: !strcmp(bench_opt, "alt-all") ? BENCH_ALT_ALL
						: 0;
	testfault = env_int(getenv("PERFJAVA_AGENT_TESTFAULT"), INT_MAX);
	testreplay = env_int(getenv("PERFJAVA_AGENT_TESTREPLAY"), 60000);
	walkcheck = getenv("PERFJAVA_AGENT_WALKCHECK") != NULL;
	asgct_only = wk && !strcmp(wk, "asgct");
	walkcheck_reset();
	ksig_hook(bench == BENCH_SIGNAL || bench == BENCH_ALT || walkcheck
		      ? on_sample
		      : NULL);
	stackwalk_hook(testfault || asgct_only ? on_walk : NULL);
	wring_hook(bench == BENCH_WALK || bench == BENCH_ALT_ALL || walkcheck
		       ? &pump_hooks
		       : NULL);
	events_hook(testreplay || testfault ? &replay_hooks : NULL);
}

int testhooks_testfault(void)
{
	return testfault != 0;
}

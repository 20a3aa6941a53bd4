// SPDX-License-Identifier: GPL-2.0
/* Why a thread was off CPU; see pipeline/offstate.h. */
#include <string.h>

#include "jvm/types.h"
#include "perfjava/agent_proto.h"
#include "pipeline/offstate.h"
#include "pipeline/sample.h"
#include "profile/io.h"
#include "sym/ksource.h"

static const char *const state_name[WALL_NSTATES] = {
	[WALL_BLOCKED] = "[off-cpu: blocked]",
	[WALL_SLEEP] = "[off-cpu: sleep]",
	[WALL_IO] = "[off-cpu: io]",
	[WALL_LOCK] = "[off-cpu: lock]",
	[WALL_RUNNABLE] = "[off-cpu: runnable]",
	[WALL_WAIT] = "[off-cpu: wait]",
};

int offstate_of_function(const char *name)
{
	static const struct {
		const char *part;
		enum wall_state st;
	} by_name[] = {
		{ "futex", WALL_LOCK },
		{ "nanosleep", WALL_SLEEP },
		{ "hrtimer_nanosleep", WALL_SLEEP },
		{ "io_schedule", WALL_IO },
		{ "folio_wait", WALL_IO },
		{ "blk_", WALL_IO },
		{ "pipe_", WALL_IO },
		{ "sock_", WALL_IO },
		{ "tcp_", WALL_IO },
		{ "unix_stream", WALL_IO },
		{ "ep_poll", WALL_IO },
		{ "do_poll", WALL_IO },
		{ "do_select", WALL_IO },
		{ "n_tty_read", WALL_IO },
		{ "vfs_read", WALL_IO },
		{ "vfs_write", WALL_IO },
	};

	for (size_t i = 0; name && i < sizeof(by_name) / sizeof(*by_name); i++)
		if (strstr(name, by_name[i].part))
			return by_name[i].st;
	return -1;
}

static bool starts(const char *s, const char *prefix)
{
	return s && !strncmp(s, prefix, strlen(prefix));
}

/* How far above a park its caller's frames are looked at */
#define PARK_CALLERS 8

/* Whether a park (f[0]) waits to acquire a lock: a ReentrantLock's,
 * ReentrantReadWriteLock's, StampedLock's or a Semaphore's frames come
 * before any condition's await (as the agent's -e lock decides it from the
 * park's blocker, agent/jrec.c). */
static bool park_acquires(const struct java_frame *f, unsigned int n)
{
	for (unsigned int i = 1; i < n && i <= PARK_CALLERS; i++) {
		const char *m = f[i].name;

		if (starts(m, "java.util.concurrent.locks.AbstractQueued") &&
		    strstr(m, "$ConditionObject."))
			return false;
		if (starts(m, "java.util.concurrent.locks.Reentrant") ||
		    starts(m, "java.util.concurrent.locks.StampedLock.") ||
		    starts(m, "java.util.concurrent.Semaphore"))
			return true;
	}
	return false;
}

int offstate_of_java(int st, const struct java_frame *f, unsigned int n,
		     uint32_t tstate)
{
	const char *top = n ? f[0].name : NULL;

	if (st != WALL_LOCK && st != WALL_BLOCKED)
		return st;
	/* a JVM sleeps on a futex, as it waits for a lock: its state tells,
	 * or the method it blocked in (Thread.sleep, sleep0, sleepNanos0) */
	if ((tstate & PJA_TSTATE_SLEEPING) ||
	    starts(top, "java.lang.Thread.sleep"))
		return WALL_SLEEP;
	if (starts(top, "java.lang.Object.wait"))
		return WALL_WAIT;
	if (starts(top, "jdk.internal.misc.Unsafe.park"))
		return park_acquires(f, n) ? WALL_LOCK : WALL_WAIT;
	return st;
}

/* What the kernel's side says: prev_state, then the blocking function. */
enum wall_state offstate_of(struct ksource *k, const struct sample *smp)
{
	const char *ps;

	if (smp->tp && (ps = strstr(smp->tp, "prev_state="))) {
		ps += strlen("prev_state=");
		if (*ps == 'R')
			return WALL_RUNNABLE;
		if (*ps == 'D')
			return WALL_IO;
	}
	if (k->kind == KSOURCE_NONE || !smp->kips)
		return WALL_BLOCKED;
	for (unsigned int i = 0; i < smp->nk; i++) {
		const char *mod;
		int st =
		    offstate_of_function(ksource_lookup(k, smp->kips[i], &mod));

		if (st >= 0)
			return st;
	}
	return WALL_BLOCKED;
}

uint32_t offstate_leaf(struct offstate *o, struct pj_writer *w, int st)
{
	if (!o->leaf[st])
		o->leaf[st] = pj_writer_frame(w, PJ_FRAME_MARKER,
					      state_name[st], "", NULL, 0) +
			      1;
	return o->leaf[st];
}

void offstate_forget(struct offstate *o)
{
	memset(o, 0, sizeof(*o));
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The agent's own signal: one real-time signal that nobody in the JVM has a
 * handler for, chosen once when the agent is set up and kept for the life of
 * the JVM (a signal still in flight after a session must find our handler).
 * Both ways of asking for a walk use it: the session thread's tgkill (si_code
 * SI_TKILL, walk.c) and the kernel itself on a sample of a perf event the
 * reader routed to the sampled thread (si_code POLL_IN).
 *
 * Not SIGPROF: the application or another profiler (async-profiler signals
 * SIGPROF from its own perf events and re-arms each event from its handler)
 * may use it, and a standard signal that is already pending swallows the
 * next one, so a walk request could silently cost the other profiler its
 * event. A real-time signal queues and never merges with theirs.
 */
#include <signal.h>
#include <string.h>

#include "pja.h"

/* Searched from the top: SIGRTMIN and the ones just above it are the ones
 * libraries and applications pick first. */
int ksig_pick(void)
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

// SPDX-License-Identifier: GPL-2.0
/* Why a thread was off CPU; see pipeline/offstate.h. */
#include <string.h>

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

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PJ_AGENT_WRING_H
#define PJ_AGENT_WRING_H

#include "pja.h"

/* wring.c: the reader's shared walk ring, fed by the session thread. */
struct pja_ring;
int wring_attach(int fd, const struct pja_ring *req);
int wring_active(void);
/* Moves taken walks to the shared ring; -1 when the socket failed. */
int wring_pump(void);
/* How long the session thread may wait before the next pump, ms. */
int wring_interval_ms(void);
/* On the session thread while it replays the code map and the threads
 * (long in a JVM with a big code cache, on a loaded machine): moves the
 * walks at the sample when they are due, as its loop would. */
void wring_tick(void);
void wring_detach(void);
/* Tests and benchmarks (testhooks.c), NULL in a user's JVM: take sees each
 * record the pump takes, before it is named (1: it goes no further);
 * interval gives the wait before the next pump from the pump's own. */
struct wring_hooks {
	int (*take)(const struct pjw_rec *r, const struct asgct_frame *raw,
		    struct pjw_head *hd);
	int (*interval)(int ms);
};
void wring_hook(const struct wring_hooks *h);

#endif

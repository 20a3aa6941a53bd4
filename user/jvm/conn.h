/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One agent connection (jvm/conn.c), what every part of jvm/ and the
 * recorder use of it: the queue of requests to the agent and the thread ids
 * as the target sees them. Its state is jvm/conn_internal.h's.
 */
#ifndef PJ_USER_JVM_CONN_H
#define PJ_USER_JVM_CONN_H

#include <sys/types.h>

struct agent;

/* Sends queued requests without waiting: 0 when all are sent, 1 when the
 * agent is not reading (they stay queued), -1 when it is gone. */
int agent_flush(struct agent *a);
/* tid (the reader's) as the target sees it; <= 0 when unknown. */
pid_t agent_target_tid(struct agent *a, pid_t tid);

#endif

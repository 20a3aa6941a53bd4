/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One agent connection (jvm/conn.c), what every part of jvm/ and the
 * recorder use of it: the queue of requests to the agent and the thread ids
 * as the target sees them. Its state is jvm/conn_internal.h's.
 */
#ifndef PJ_USER_JVM_CONN_H
#define PJ_USER_JVM_CONN_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct agent;

#define AGENT_DEAF_NS 1000000000ULL

/* Sends queued requests without waiting: 0 when all are sent, 1 when the
 * agent is not reading (they stay queued), -1 when it is gone. */
int agent_flush(struct agent *a);
/* True when requests have waited in a's queue for AGENT_DEAF_NS (1 s) and
 * more with not a byte of them taken: it has stopped reading, and will not
 * answer what it was asked. */
bool agent_deaf(const struct agent *a, uint64_t now);
/* tid (the reader's) as the target sees it; <= 0 when unknown. */
pid_t agent_target_tid(struct agent *a, pid_t tid);

#endif

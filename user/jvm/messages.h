/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The agent's messages as the reader takes them in (jvm/messages.c), for
 * jvm/client.c (and the tests that feed it bytes): the HELLO checked, a
 * connection's state made and freed, a stream's messages taken in.
 */
#ifndef PJ_USER_JVM_MESSAGES_H
#define PJ_USER_JVM_MESSAGES_H

#include <stddef.h>
#include <sys/types.h>

#include "jvm/types.h"

struct agent;
struct pja_hdr;
struct pja_hello;

/* 0 when h and hello open a stream we speak; -1 another protocol, -2 a
 * depth out of range. */
int agent_check_hello(const struct pja_hdr *h, const struct pja_hello *hello);
/* A connection's state for a checked hello, fd -1; NULL when out of memory. */
struct agent *agent_alloc(pid_t pid, const struct pja_hello *hello);
/* Takes in the complete messages of buf[0..len): the bytes used, or -1
 * when the stream is broken (nothing after can be trusted). */
long agent_consume(struct agent *a, const char *buf, size_t len,
		   agent_walk_cb cb, void *ctx);
/* Reports every pending walk as AGENT_WALK_LOST. */
void agent_lose_pending(struct agent *a, agent_walk_cb cb, void *ctx);
/* Frees a's state (not its fd). */
void agent_free(struct agent *a);

#endif

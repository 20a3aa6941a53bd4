/* SPDX-License-Identifier: GPL-2.0 */
/* The agent's parser of the reader's messages (agent/input.c); no JVMTI. */
#ifndef PJ_AGENT_INPUT_H
#define PJ_AGENT_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "perfjava/agent_proto.h"

/*
 * Calls on_req for each walk request of the complete messages in
 * buf[0..len), and on_msg (when not NULL) for every other message but STOP.
 * Returns the bytes used, or -1 on STOP, a length over PJA_MAX_MSG or when a
 * callback returns non-zero.
 */
long pja_parse_input(const char *buf, size_t len,
		     int (*on_req)(void *ctx, const struct pja_walk_req *r),
		     int (*on_msg)(void *ctx, uint32_t type, const char *p,
				   uint32_t plen),
		     void *ctx);
/* Whether tid can name a thread (non-zero, a positive pid_t). */
int pja_valid_tid(uint32_t tid);

#endif

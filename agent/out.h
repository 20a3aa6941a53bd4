/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PJ_AGENT_OUT_H
#define PJ_AGENT_OUT_H

#include "pja.h"

/* out.c: the outgoing message queue, written by any thread, sent by the
 * session thread. */
void out_reset(void);
/* Appends a message made of up to three parts. -1 when the queue is over its
 * limit (the reader is not reading). */
int out_msg(uint32_t type, const void *a, size_t alen, const void *b,
	    size_t blen, const void *c, size_t clen);
/* On the session thread: on (1), what it queues itself does not wake it;
 * off (0) when its loop ends. */
void out_sender(int on);
/* Writes what is queued to pja.fd. -1 when the socket failed. */
int out_flush(void);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PJ_AGENT_COPYWALK_H
#define PJ_AGENT_COPYWALK_H

#include "pja.h"

/* copywalk.c: the Java frames in a copy of a thread's stack
 * (PJA_STACK_COPY). Answers the request in p; -1 when the socket failed. */
int copywalk_answer(const char *p, uint32_t len);

#endif

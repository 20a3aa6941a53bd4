/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PJ_AGENT_BLOCKED_H
#define PJ_AGENT_BLOCKED_H

#include "pja.h"

/* blocked.c: the Java stacks of blocked threads (PJA_STACK), by JVMTI
 * GetStackTrace on the session thread. */
/* Answers the requests of a PJA_STACK message; -1 when the socket failed. */
int blocked_answer(JNIEnv *env, const char *p, uint32_t len);

#endif

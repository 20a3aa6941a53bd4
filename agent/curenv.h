/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PJ_AGENT_CURENV_H
#define PJ_AGENT_CURENV_H

#include "pja.h"

/* curenv.c: finds HotSpot's pthread key of Thread* from the calling
 * thread's own (self), once, not in a handler. */
void curenv_init(const void *self);
/* The calling thread's JNIEnv, NULL when it is no Java thread; safe in a
 * signal handler (GetEnv when the key or the thread's class is unknown). */
JNIEnv *curenv(void);

#endif

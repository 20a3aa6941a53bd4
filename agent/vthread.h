/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PJ_AGENT_VTHREAD_H
#define PJ_AGENT_VTHREAD_H

#include "pja.h"

/* vthread.c: virtual threads (JDK 21+). */
/* The id of thread t when it is a virtual thread, else 0. */
uint64_t vthread_id(JNIEnv *env, jthread t);
/* Mount and unmount events on (PJA_EV_VTHREADS), and off. 0 when on. */
int vthread_start(JNIEnv *env);
void vthread_stop(void);
/* The name of virtual thread t (when named) queued as PJA_VTHREAD once. */
void vthread_name(JNIEnv *env, jthread t, uint64_t id);
/* The session thread: forgets the names sent. */
void vthread_reset(void);

#endif

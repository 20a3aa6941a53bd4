/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PJ_AGENT_JTHREADS_H
#define PJ_AGENT_JTHREADS_H

#include "pja.h"

/* jthreads.c: the JVM's threads by tid (thread objects for JVMTI calls),
 * kept from ThreadStart and the replay of the threads at attach (events.c). */
void jthreads_start(JNIEnv *env, jthread t, pid_t tid);
void jthreads_end(JNIEnv *env, pid_t tid);
/* The session's start (before ThreadStart is enabled) and its end: threads
 * are kept only in between. */
void jthreads_open(void);
void jthreads_reset(JNIEnv *env);
/* Whether tid was seen starting (ThreadStart): named already. */
int jthreads_known(pid_t tid);
/* A local reference to thread tid, or NULL when it is not known. */
jthread jthreads_ref(JNIEnv *env, pid_t tid);
/* The tids known now, at most max into tids; how many. */
size_t jthreads_tids(pid_t *tids, size_t max);

#endif

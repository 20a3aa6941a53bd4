/* SPDX-License-Identifier: GPL-2.0 */
/* lock.c: lock contention: contended monitors and parks to acquire a lock. */
#ifndef PJ_AGENT_LOCK_H
#define PJ_AGENT_LOCK_H

#include "pja.h"

/* JVMTI thread-local storage of a wait (lock.c, vthread.c): its start in
 * ns above TLS_SHIFT, what it is in TLS_KIND. */
#define TLS_SHIFT 8
#define TLS_KIND 3u
#define TLS_MONITOR 1u /* entering a contended monitor */
#define TLS_PARK 2u /* a virtual thread unmounted */
#define TLS_UNMOUNTED 4u /* a monitor wait that unmounted (JDK 24+) */
/* the session (vthread_tag) that has its virtual thread's name: kept
 * through the waits */
#define TLS_TAGS 0x78u

/* The callbacks of contended monitors (enter, entered). */
void JNICALL lock_enter(jvmtiEnv *j, JNIEnv *env, jthread t, jobject o);
void JNICALL lock_entered(jvmtiEnv *j, JNIEnv *env, jthread t, jobject o);
/* Rebinds Unsafe.park to the hook (it stays, inert, when no session
 * records locks), again if another agent bound it since. 0 when in place. */
int lock_park_hook(JNIEnv *env);

#endif

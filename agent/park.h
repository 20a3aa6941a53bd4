/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PJ_AGENT_PARK_H
#define PJ_AGENT_PARK_H

#include "pja.h"

/* park.c: Unsafe.park bound to a hook of the agent's, beside other agents.
 * park_bind: bound (learning the JDK's park the first time), or again when
 * another agent bound park since; 0 when it is. park_check: the same while
 * a session records locks. park_call: the park the hook wraps, called on
 * (another agent's hook bound before, or the JDK's park; the JDK's when
 * called back from it, park_nested). park_announce: PJA_PARK queued. */
typedef void(JNICALL *park_fn)(JNIEnv *, jobject, jboolean, jlong);
int park_bind(JNIEnv *env, park_fn hook);
void park_check(JNIEnv *env);
void park_call(JNIEnv *env, jobject u, jboolean abs, jlong time);
int park_nested(void);
int park_announce(void);

#endif

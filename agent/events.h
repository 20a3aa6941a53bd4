/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PJ_AGENT_EVENTS_H
#define PJ_AGENT_EVENTS_H

#include "pja.h"

/* events.c: JVMTI set up once (capabilities, callbacks); per session its
 * events enabled, the code map and the threads replayed and streamed. */
int events_init(JavaVM *vm);
void events_callbacks(jvmtiEventCallbacks *cb);
int events_start(JNIEnv *env); /* enable events, replay code and threads */
void events_stop(void);
/* Tests (testhooks.c), NULL otherwise: after the replay of the code map,
 * and inside the protected read of a compiled method's level. */
struct events_hooks {
	void (*replay)(void);
	void (*level)(void);
};
void events_hook(const struct events_hooks *h);

#endif

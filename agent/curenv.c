// SPDX-License-Identifier: GPL-2.0
/*
 * The sampled thread's JNIEnv in the signal handler, without GetEnv.
 *
 * GetEnv runs through libjvm's JNI entry, its exported-interface and JVMTI
 * version checks and a virtual call: at 100 Hz a handler finds all of it
 * cold, and it was more than half of the walk's entry (about 2 of 3.7 us,
 * timed with the TSC around each step of it). HotSpot keeps each of
 * its threads' Thread* under a pthread key of its own (ThreadLocalStorage,
 * the async-signal-safe twin of its compiler TLS; set when the thread
 * attaches, cleared when it detaches). That key is found once, on the
 * session thread, as the one that holds its own Thread* (Thread.eetop).
 *
 * In the handler: the key's value (none: no thread of the JVM's), then
 * its class by its vtable pointer, the object's first word, which every
 * Thread has: a JavaThread's env is at env_offset from it. A class is
 * learnt from GetEnv's answer the first time one of its threads is
 * sampled, and kept (a thread's class decides is_Java_thread, and no
 * other read is made of an object whose class is not known). Lock-free:
 * a class is published by a compare-and-swap on its slot; glibc's
 * pthread_getspecific reads the thread's own key block and the key's
 * sequence number, no lock, no allocation (async-profiler relies on it in
 * its handler too). Without HotSpot's structures (env_offset), GetEnv.
 */
#include <limits.h>
#include <pthread.h>

#include "pja.h"
#include "curenv.h"
#include "vmstructs.h"

#define NCLASS 32 /* thread classes of each kind: a JVM has a dozen */

static int key = -1;
static struct {
	_Atomic(const void *) vt[NCLASS];
} kinds[2]; /* [1] JavaThread's classes, [0] the others' */

void curenv_init(const void *self)
{
	int found = -1, n = 0;

	/* glibc's keys: 0 to PTHREAD_KEYS_MAX - 1, an unused one reads NULL */
	for (int k = 0; k < PTHREAD_KEYS_MAX && self; k++)
		if (pthread_getspecific((pthread_key_t)k) == self) {
			found = k;
			n++;
		}
	key = n == 1 ? found : -1;
}

static int known(int java, const void *vt)
{
	for (int i = 0; i < NCLASS; i++) {
		const void *v = atomic_load(&kinds[java].vt[i]);

		if (!v)
			return 0;
		if (v == vt)
			return 1;
	}
	return 0;
}

static void learn(int java, const void *vt)
{
	for (int i = 0; i < NCLASS; i++) {
		const void *v = NULL;

		if (atomic_compare_exchange_strong(&kinds[java].vt[i], &v,
						   vt) ||
		    v == vt)
			return;
	}
}

JNIEnv *curenv(void)
{
	const char *t = NULL;
	const void *vt = NULL;
	JNIEnv *env = NULL;

	if (key >= 0 && pja_vm.env_offset >= 0) {
		t = pthread_getspecific((pthread_key_t)key);
		if (!t)
			return NULL; /* not attached to the JVM */
		vt = *(const void *const *)t;
		if (known(1, vt))
			return (JNIEnv *)(t + pja_vm.env_offset);
		if (known(0, vt))
			return NULL;
	}
	if ((*pja.vm)->GetEnv(pja.vm, (void **)&env, JNI_VERSION_1_6) != JNI_OK)
		env = NULL;
	/* its class, when GetEnv agrees on which thread this is */
	if (vt && (!env || (const char *)env - pja_vm.env_offset == t))
		learn(env != NULL, vt);
	return env;
}

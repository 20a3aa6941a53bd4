// SPDX-License-Identifier: GPL-2.0
/*
 * Waits for locks (PJA_EV_LOCK), each with the stack where the thread
 * waited, the lock's class and the time waited, when at least the
 * session's threshold:
 *
 * - synchronized: JVMTI MonitorContendedEnter stamps the start in the
 *   thread's JVMTI local storage (a virtual thread has its own, so a wait
 *   that a virtual thread starts on one carrier and ends on another, JDK
 *   24+, is timed whole), MonitorContendedEntered takes the stack there.
 * - java.util.concurrent locks: Unsafe.park is bound to a hook (park.c)
 *   that times the park around the call when the thread parks to acquire
 *   a lock or a semaphore (its park blocker's class, jrec_lock_class; a
 *   condition's await, as an idle pool's workers wait in their queue's
 *   take or poll, is no contention and is not recorded), and names the
 *   thread that held the lock then (AbstractOwnableSynchronizer's
 *   exclusiveOwnerThread: a ReentrantLock's, a write lock's; a semaphore
 *   has none, and a monitor's owner HotSpot gives only at a safepoint,
 *   JVMTI GetObjectMonitorUsage, which the agent does not stop the JVM
 *   for). A virtual thread parks on its carrier only when pinned
 *   (flagged); an unpinned one unmounts instead, and its wait is timed
 *   from unmount to mount (vthread.c).
 *
 * The hook stays bound for the JVM's life (it calls the park it wraps at
 * once when no session records locks); park.c keeps it bound beside other
 * agents.
 */
#include <stdio.h>

#include "pja.h"
#include "clock.h"
#include "jrec.h"
#include "lock.h"
#include "park.h"
#include "vthread.h"
#include "perfjava/walk_ring.h"

#define OWNER_CHARS 48 /* of the owner's name, at most (UTF-16 units) */

static jclass aos_class; /* AbstractOwnableSynchronizer, a global ref */
static jfieldID blocker_field, owner_field, name_field, tid_field;
static int learnt;

void JNICALL lock_enter(jvmtiEnv *j, JNIEnv *env, jthread t, jobject o)
{
	void *p = NULL;

	if (!jrec_on(PJA_EV_LOCK)) {
		jrec_stray();
		return;
	}
	(*j)->GetThreadLocalStorage(j, NULL, &p);
	(*j)->SetThreadLocalStorage(
	    j, NULL,
	    (void *)(uintptr_t)(pja_now() << TLS_SHIFT | TLS_MONITOR |
				((uintptr_t)p & TLS_TAGS)));
}

void JNICALL lock_entered(jvmtiEnv *j, JNIEnv *env, jthread t, jobject o)
{
	struct pjw_event ev = { .kind = PJW_EV_MONITOR };
	void *p = NULL;
	uint64_t v, now = pja_now(), start;
	jclass k;

	if (!jrec_on(PJA_EV_LOCK) || (*j)->GetThreadLocalStorage(j, NULL, &p) ||
	    !p)
		return;
	v = (uintptr_t)p;
	(*j)->SetThreadLocalStorage(j, NULL, (void *)(v & TLS_TAGS));
	start = v >> TLS_SHIFT;
	if ((v & TLS_KIND) != TLS_MONITOR || now < start ||
	    start < jrec_since() || !jrec_wait_kept(now - start, &ev.value))
		return;
	ev.vthread = vthread_id(env, t);
	/* a virtual thread that never left its carrier held it */
	if (ev.vthread && jrec_on(PJA_EV_VTHREADS) && !(v & TLS_UNMOUNTED))
		ev.flags |= PJW_EVF_PINNED;
	k = (*env)->GetObjectClass(env, o);
	jrec_record(env, &ev, k, start, 0, NULL);
	if (k)
		(*env)->DeleteLocalRef(env, k);
}

/* Whether the park blocker b is a lock: its class in *k (a local
 * reference, NULL when none). */
static int is_lock(JNIEnv *env, jobject b, jclass *k)
{
	*k = (*env)->GetObjectClass(env, b);
	return jrec_lock_class(*k);
}

static void clear(JNIEnv *env)
{
	if ((*env)->ExceptionCheck(env))
		(*env)->ExceptionClear(env);
}

/* Java string s (its first OWNER_CHARS units) in UTF-8 into buf (len at
 * least 3 * OWNER_CHARS + 1); a surrogate is '?'. */
static const char *utf8(JNIEnv *env, jstring s, char *buf, size_t len)
{
	jchar c[OWNER_CHARS];
	jsize n = (*env)->GetStringLength(env, s);
	size_t o = 0;

	if (n > OWNER_CHARS)
		n = OWNER_CHARS;
	if (n < 0 || len < 3 * OWNER_CHARS + 1)
		return NULL;
	(*env)->GetStringRegion(env, s, 0, n, c);
	if ((*env)->ExceptionCheck(env))
		return NULL;
	for (jsize i = 0; i < n; i++) {
		if (c[i] < 0x80) {
			buf[o++] = (char)c[i];
		} else if (c[i] < 0x800) {
			buf[o++] = (char)(0xc0 | c[i] >> 6);
			buf[o++] = (char)(0x80 | (c[i] & 0x3f));
		} else if (c[i] >= 0xd800 && c[i] < 0xe000) {
			buf[o++] = '?';
		} else {
			buf[o++] = (char)(0xe0 | c[i] >> 12);
			buf[o++] = (char)(0x80 | ((c[i] >> 6) & 0x3f));
			buf[o++] = (char)(0x80 | (c[i] & 0x3f));
		}
	}
	buf[o] = 0;
	return buf;
}

/* The thread holding lock b (an owned synchronizer's exclusive owner): its
 * name into buf, "#ID" when it has none (a virtual thread's); NULL when
 * no thread holds b exclusively (a semaphore, a read lock's readers). */
static const char *owner_of(JNIEnv *env, jobject b, char *buf, size_t len)
{
	jobject t;
	jstring s = NULL;
	const char *r = NULL;

	if (!aos_class || !(*env)->IsInstanceOf(env, b, aos_class) ||
	    !(t = (*env)->GetObjectField(env, b, owner_field)))
		return NULL;
	if (name_field && (s = (*env)->GetObjectField(env, t, name_field)))
		r = utf8(env, s, buf, len);
	if ((!r || !*r) && tid_field && len > 24) {
		snprintf(buf, len, "#%lld",
			 (long long)(*env)->GetLongField(env, t, tid_field));
		r = buf;
	}
	clear(env);
	if (s)
		(*env)->DeleteLocalRef(env, s);
	(*env)->DeleteLocalRef(env, t);
	return r;
}

static void JNICALL park_hook(JNIEnv *env, jobject u, jboolean abs, jlong time)
{
	jvmtiEnv *jv = pja.jvmti;
	struct pjw_event ev = { .kind = PJW_EV_PARK };
	char name[3 * OWNER_CHARS + 1];
	const char *owner;
	jthread t = NULL;
	jobject b = NULL;
	jclass k = NULL;
	uint64_t start, end;

	/* called back from another agent's hook that ours called: counted
	 * once, by the outer one */
	if (park_nested() || !jrec_on(PJA_EV_LOCK) ||
	    (*jv)->GetCurrentThread(jv, &t) || !t ||
	    !(b = (*env)->GetObjectField(env, t, blocker_field)) ||
	    !is_lock(env, b, &k)) {
		park_call(env, u, abs, time);
		goto out;
	}
	owner = owner_of(env, b, name, sizeof(name));
	start = pja_now();
	park_call(env, u, abs, time);
	end = pja_now();
	if (jrec_wait_kept(end - start, &ev.value)) {
		ev.vthread = vthread_id(env, t);
		if (ev.vthread) /* parked on its carrier */
			ev.flags |= PJW_EVF_PINNED;
		jrec_record(env, &ev, k, start, 0, owner);
	}
out:
	if (k)
		(*env)->DeleteLocalRef(env, k);
	if (b)
		(*env)->DeleteLocalRef(env, b);
	if (t)
		(*env)->DeleteLocalRef(env, t);
}

/* The fields the hook reads, once: 0, or -1 without the park blocker. */
static int learn(JNIEnv *env)
{
	jclass tc = (*env)->FindClass(env, "java/lang/Thread");
	jclass ac = (*env)->FindClass(
	    env, "java/util/concurrent/locks/AbstractOwnableSynchronizer");

	clear(env);
	if (tc) {
		blocker_field = (*env)->GetFieldID(env, tc, "parkBlocker",
						   "Ljava/lang/Object;");
		clear(env);
		name_field =
		    (*env)->GetFieldID(env, tc, "name", "Ljava/lang/String;");
		clear(env);
		tid_field = (*env)->GetFieldID(env, tc, "tid", "J");
		clear(env);
		(*env)->DeleteLocalRef(env, tc);
	}
	if (ac) {
		owner_field = (*env)->GetFieldID(
		    env, ac, "exclusiveOwnerThread", "Ljava/lang/Thread;");
		clear(env);
		if (owner_field)
			aos_class = (*env)->NewGlobalRef(env, ac);
		(*env)->DeleteLocalRef(env, ac);
	}
	return blocker_field ? 0 : -1;
}

int lock_park_hook(JNIEnv *env)
{
	if (!learnt)
		learnt = learn(env) ? -1 : 1;
	if (learnt < 0)
		return -1;
	return park_bind(env, park_hook);
}

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
 * - java.util.concurrent locks (a park whose blocker is a lock, condition
 *   or semaphore of java.util.concurrent): Unsafe.park is rebound to a hook
 *   that times the original around the call. A virtual thread parks on its
 *   carrier only when pinned (flagged); an unpinned one unmounts instead,
 *   and its wait is timed from unmount to mount (vthread.c).
 *
 * The original park is learnt the way HotSpot gives it: Unsafe's
 * registerNatives is called again with RegisterNatives in the JNI function
 * table swapped for ours, which keeps park's entry and registers nothing.
 * The hook stays bound for the JVM's life (it calls the original at once
 * when no session records locks): binding the original back while threads
 * may be parked in the hook is what async-profiler also avoids.
 *
 * HotSpot warns on the application's stdout ("Re-registering of platform
 * native method") when a boot class's native is bound by code whose caller
 * is not of the boot loader, as the agent's own thread is. So the hook is
 * bound from a Java frame of a class of our own defined in the boot loader
 * (perfjava.Bind, a few bytes below: go() calls the native bind(), which
 * binds park); where that class cannot be defined, bound directly (and the
 * JVM warns).
 */
#include <string.h>

#include "pja.h"
#include "perfjava/walk_ring.h"

typedef void(JNICALL *park_fn)(JNIEnv *, jobject, jboolean, jlong);
typedef jint(JNICALL *regnat_fn)(JNIEnv *, jclass, const JNINativeMethod *,
				 jint);

static park_fn orig_park;
static regnat_fn orig_regnat;
static jclass unsafe_class;
static jfieldID blocker_field;
static int hooked;

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
	    !jrec_wait_kept(now - start, &ev.value))
		return;
	ev.vthread = vthread_id(env, t);
	/* a virtual thread that never left its carrier held it */
	if (ev.vthread && jrec_on(PJA_EV_VTHREADS) && !(v & TLS_UNMOUNTED))
		ev.flags |= PJW_EVF_PINNED;
	k = (*env)->GetObjectClass(env, o);
	jrec_record(env, &ev, k, start, 0);
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

static void JNICALL park_hook(JNIEnv *env, jobject u, jboolean abs, jlong time)
{
	jvmtiEnv *jv = pja.jvmti;
	struct pjw_event ev = { .kind = PJW_EV_PARK };
	jthread t = NULL;
	jobject b = NULL;
	jclass k = NULL;
	uint64_t start, end;

	if (!jrec_on(PJA_EV_LOCK) || (*jv)->GetCurrentThread(jv, &t) || !t ||
	    !(b = (*env)->GetObjectField(env, t, blocker_field)) ||
	    !is_lock(env, b, &k)) {
		orig_park(env, u, abs, time);
		goto out;
	}
	start = pja_now();
	orig_park(env, u, abs, time);
	end = pja_now();
	if (jrec_wait_kept(end - start, &ev.value)) {
		ev.vthread = vthread_id(env, t);
		if (ev.vthread) /* parked on its carrier */
			ev.flags |= PJW_EVF_PINNED;
		jrec_record(env, &ev, k, start, 0);
	}
out:
	if (k)
		(*env)->DeleteLocalRef(env, k);
	if (b)
		(*env)->DeleteLocalRef(env, b);
	if (t)
		(*env)->DeleteLocalRef(env, t);
}

/* RegisterNatives while Unsafe registers its natives again: park's entry
 * kept, nothing registered. */
static jint JNICALL regnat_spy(JNIEnv *env, jclass c, const JNINativeMethod *m,
			       jint n)
{
	if (!(*env)->IsSameObject(env, c, unsafe_class))
		return orig_regnat(env, c, m, n);
	for (jint i = 0; i < n; i++)
		if (!strcmp(m[i].name, "park") &&
		    !strcmp(m[i].signature, "(ZJ)V"))
			orig_park = (park_fn)m[i].fnPtr;
	return 0;
}

static void clear(JNIEnv *env)
{
	if ((*env)->ExceptionCheck(env))
		(*env)->ExceptionClear(env);
}

static const JNINativeMethod park_method = { "park", "(ZJ)V",
					     (void *)park_hook };
static jint bound = -1; /* RegisterNatives' answer in bind() */

/* perfjava.Bind (class file version 52): private static native void
 * bind(); public static void go() { bind(); } */
static const char bind_class[] =
    "\xca\xfe\xba\xbe\0\0\0\x34\0\x0b" /* version 52, 10 constants */
    "\x01\0\x0dperfjava/Bind" /* 1 */
    "\x07\0\x01" /* 2: class #1 */
    "\x01\0\x10java/lang/Object" /* 3 */
    "\x07\0\x03" /* 4: class #3 */
    "\x01\0\x04"
    "bind" /* 5 */
    "\x01\0\x03()V" /* 6 */
    "\x01\0\x02go" /* 7 */
    "\x01\0\x04"
    "Code" /* 8 */
    "\x0c\0\x05\0\x06" /* 9: bind ()V */
    "\x0a\0\x02\0\x09" /* 10: Bind.bind ()V */
    "\0\x31\0\x02\0\x04\0\0\0\0" /* final, super; no fields */
    "\0\x02"
    "\x01\x0a\0\x05\0\x06\0\0" /* private static native bind */
    "\0\x09\0\x07\0\x06\0\x01" /* public static go, Code: */
    "\0\x08\0\0\0\x10\0\0\0\0\0\0\0\x04"
    "\xb8\0\x0a\xb1" /* invokestatic bind; return */
    "\0\0\0\0" /* no exceptions, no attributes */
    "\0\0"; /* no class attributes */

/* perfjava.Bind.bind: the caller is go(), of the boot loader as Unsafe */
static void JNICALL boot_bind(JNIEnv *env, jclass c)
{
	bound = (*env)->RegisterNatives(env, unsafe_class, &park_method, 1);
}

/* Binds the hook from a boot class's frame: 0, or -1 when it could not */
static int bind_from_boot(JNIEnv *env)
{
	JNINativeMethod m = { "bind", "()V", (void *)boot_bind };
	jclass b = (*env)->DefineClass(env, "perfjava/Bind", NULL,
				       (const jbyte *)bind_class,
				       (jsize)sizeof(bind_class) - 1);
	jmethodID go;

	clear(env);
	if (!b)
		return -1;
	if (!(*env)->RegisterNatives(env, b, &m, 1) &&
	    (go = (*env)->GetStaticMethodID(env, b, "go", "()V")))
		(*env)->CallStaticVoidMethod(env, b, go);
	clear(env);
	(*env)->DeleteLocalRef(env, b);
	return bound ? -1 : 0;
}

int lock_park_hook(JNIEnv *env)
{
	jvmtiEnv *jv = pja.jvmti;
	jniNativeInterface *fns = NULL;
	jclass c, tc;
	jmethodID reg;

	if (hooked)
		return hooked > 0 ? 0 : -1;
	hooked = -1; /* tried once */
	c = (*env)->FindClass(env, "jdk/internal/misc/Unsafe");
	tc = (*env)->FindClass(env, "java/lang/Thread");
	clear(env);
	if (!c || !tc)
		return -1;
	blocker_field =
	    (*env)->GetFieldID(env, tc, "parkBlocker", "Ljava/lang/Object;");
	reg = (*env)->GetStaticMethodID(env, c, "registerNatives", "()V");
	clear(env);
	unsafe_class = (*env)->NewGlobalRef(env, c);
	if (!blocker_field || !reg || !unsafe_class ||
	    (*jv)->GetJNIFunctionTable(jv, &fns))
		return -1;
	orig_regnat = fns->RegisterNatives;
	fns->RegisterNatives = regnat_spy;
	if (!(*jv)->SetJNIFunctionTable(jv, fns)) {
		(*env)->CallStaticVoidMethod(env, c, reg);
		clear(env);
		fns->RegisterNatives = orig_regnat;
		(*jv)->SetJNIFunctionTable(jv, fns);
	}
	(*jv)->Deallocate(jv, (unsigned char *)fns);
	if (!orig_park || (bind_from_boot(env) &&
			   (*env)->RegisterNatives(env, c, &park_method, 1))) {
		clear(env);
		return -1;
	}
	hooked = 1;
	return 0;
}

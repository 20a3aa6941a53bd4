// SPDX-License-Identifier: GPL-2.0
/*
 * Virtual threads (JDK 21+, PJA_EV_VTHREADS): which one each carrier runs,
 * and their parks.
 *
 * HotSpot's extension events com.sun.hotspot.events.VirtualThreadMount and
 * VirtualThreadUnmount (with can_support_virtual_threads) are posted on the
 * carrier as a virtual thread mounts and unmounts, and VirtualThreadStart
 * and End as it begins and ends. Each carrier's mounted virtual thread is
 * kept in mounted.c's table, which the handler of a sample reads (ksig.c).
 *
 * A virtual thread that parks unmounts: its wait is timed from unmount to
 * its next mount, stamped in its own JVMTI local storage (lock.c's
 * encoding), and recorded at the mount with its stack there, which is the
 * stack where it parked: a park on a lock as PJW_EV_PARK (-e lock), any
 * other as PJW_EV_VPARK (--wall). A monitor wait that unmounts (JDK 24+)
 * stays lock.c's, marked as having left its carrier.
 *
 * With the capability on, every mount and unmount of the JVM calls into the
 * VM (HotSpot never turns that off again once on): make bench measures it.
 */
#include <string.h>

#include "pja.h"
#include "clock.h"
#include "jrec.h"
#include "jthreads.h"
#include "lock.h"
#include "mounted.h"
#include "out.h"
#include "vthread.h"
#include "perfjava/walk_ring.h"

#define NTIDS 4096 /* carriers scanned at the start, at most */

static jclass vt_class;
static jfieldID tid_field, name_field, blocker_field;
static jint ext_mount = -1, ext_unmount = -1;
/* com.sun.hotspot.functions.GetVirtualThread: a carrier's mounted one */
static jvmtiExtensionFunction get_vthread;
static int started;
static uintptr_t tag; /* this session's in TLS_TAGS */

uint64_t vthread_id(JNIEnv *env, jthread t)
{
	jthread cur = NULL;
	uint64_t id = 0;

	if (!vt_class || !env)
		return 0;
	if (!t && !(*pja.jvmti)->GetCurrentThread(pja.jvmti, &cur))
		t = cur;
	if (t && (*env)->IsInstanceOf(env, t, vt_class))
		id = (uint64_t)(*env)->GetLongField(env, t, tid_field);
	if (cur)
		(*env)->DeleteLocalRef(env, cur);
	return id;
}

void vthread_name(JNIEnv *env, jthread t, uint64_t id)
{
	struct pja_vthread m = { .id = id };
	jstring s = (*env)->GetObjectField(env, t, name_field);
	const char *c;

	if (!s)
		return; /* unnamed: "#id" */
	c = (*env)->GetStringUTFChars(env, s, NULL);
	if (c && *c) { /* "": unnamed too */
		m.name_len = strnlen(c, 256);
		out_msg(PJA_VTHREAD, &m, sizeof(m), c, m.name_len, NULL, 0);
	}
	if (c)
		(*env)->ReleaseStringUTFChars(env, s, c);
	(*env)->DeleteLocalRef(env, s);
}

void vthread_reset(void)
{
}

#ifdef JNI_VERSION_21 /* headers of JDK 21+ */
static void JNICALL on_start(jvmtiEnv *j, JNIEnv *env, jthread t)
{
	uint64_t id = vthread_id(env, t);

	mounted_set(id);
	if (id) {
		vthread_name(env, t, id);
		(*j)->SetThreadLocalStorage(j, t, (void *)tag);
	}
}

static void JNICALL on_end(jvmtiEnv *j, JNIEnv *env, jthread t)
{
	mounted_set(0);
}

static void JNICALL on_unmount(jvmtiEnv *j, JNIEnv *env, jthread t)
{
	void *p = NULL;
	uintptr_t v;

	mounted_set(0);
	if (!jrec_on(PJA_EV_LOCK | PJA_EV_WALL) ||
	    (*j)->GetThreadLocalStorage(j, t, &p))
		return;
	v = (uintptr_t)p;
	if ((v & TLS_KIND) == TLS_MONITOR)
		v |= TLS_UNMOUNTED; /* lock.c times it whole */
	else
		v = pja_now() << TLS_SHIFT | TLS_PARK | (v & TLS_TAGS);
	(*j)->SetThreadLocalStorage(j, t, (void *)v);
}

static void JNICALL on_mount(jvmtiEnv *j, JNIEnv *env, jthread t)
{
	struct pjw_event ev = { .kind = PJW_EV_VPARK };
	uint64_t id = vthread_id(env, t), now = pja_now(), start;
	jobject b = NULL;
	jclass k = NULL;
	void *p = NULL;
	uintptr_t v;

	mounted_set(id);
	if ((*j)->GetThreadLocalStorage(j, t, &p))
		return;
	v = (uintptr_t)p;
	if ((v & TLS_TAGS) != tag) { /* named once a session */
		vthread_name(env, t, id);
		v = (v & ~(uintptr_t)TLS_TAGS) | tag;
		if ((v & TLS_KIND) != TLS_PARK)
			(*j)->SetThreadLocalStorage(j, t, (void *)v);
	}
	if ((v & TLS_KIND) != TLS_PARK)
		return;
	(*j)->SetThreadLocalStorage(j, t, (void *)(uintptr_t)tag);
	start = v >> TLS_SHIFT;
	if (now < start || start < jrec_since())
		return;
	b = (*env)->GetObjectField(env, t, blocker_field);
	if (b)
		k = (*env)->GetObjectClass(env, b);
	if (k && jrec_on(PJA_EV_LOCK) && jrec_lock_class(k)) {
		ev.kind = PJW_EV_PARK;
	} else if (!jrec_on(PJA_EV_WALL)) {
		ev.kind = PJW_EV_MAX;
	}
	if (ev.kind != PJW_EV_MAX && jrec_wait_kept(now - start, &ev.value)) {
		ev.vthread = id;
		jrec_record(env, &ev, k, start, 0, NULL);
	}
	if (k)
		(*env)->DeleteLocalRef(env, k);
	if (b)
		(*env)->DeleteLocalRef(env, b);
}

/* The virtual threads mounted when the session starts: each carrier's, so
 * that its samples name it before its next mount. */
static void scan_mounted(JNIEnv *env)
{
	static pid_t tids[NTIDS];
	size_t n = jthreads_tids(tids, NTIDS);

	for (size_t i = 0; get_vthread && i < n; i++) {
		jthread c = jthreads_ref(env, tids[i]), v = NULL;
		uint64_t id;

		if (c && !get_vthread(pja.jvmti, c, &v) && v &&
		    (id = vthread_id(env, v)) && !mounted_first(tids[i], id)) {
			vthread_name(env, v, id);
			(*pja.jvmti)
			    ->SetThreadLocalStorage(pja.jvmti, v, (void *)tag);
		}
		if (v)
			(*env)->DeleteLocalRef(env, v);
		if (c)
			(*env)->DeleteLocalRef(env, c);
	}
}

static void find_function(void)
{
	jvmtiEnv *jv = pja.jvmti;
	jvmtiExtensionFunctionInfo *f = NULL;
	jint n = 0;

	if ((*jv)->GetExtensionFunctions(jv, &n, &f))
		return;
	for (jint i = 0; i < n; i++) {
		if (!strcmp(f[i].id,
			    "com.sun.hotspot.functions.GetVirtualThread"))
			get_vthread = f[i].func;
		for (jint k = 0; k < f[i].param_count; k++)
			(*jv)->Deallocate(jv,
					  (unsigned char *)f[i].params[k].name);
		(*jv)->Deallocate(jv, (unsigned char *)f[i].params);
		(*jv)->Deallocate(jv, (unsigned char *)f[i].errors);
		(*jv)->Deallocate(jv, (unsigned char *)f[i].id);
		(*jv)->Deallocate(jv, (unsigned char *)f[i].short_description);
	}
	(*jv)->Deallocate(jv, (unsigned char *)f);
}

/* The indexes of the two extension events. */
static int find_ext(void)
{
	jvmtiEnv *jv = pja.jvmti;
	jvmtiExtensionEventInfo *ev = NULL;
	jint n = 0;

	if ((*jv)->GetExtensionEvents(jv, &n, &ev))
		return -1;
	for (jint i = 0; i < n; i++) {
		if (!strcmp(ev[i].id,
			    "com.sun.hotspot.events.VirtualThreadMount"))
			ext_mount = ev[i].extension_event_index;
		if (!strcmp(ev[i].id,
			    "com.sun.hotspot.events.VirtualThreadUnmount"))
			ext_unmount = ev[i].extension_event_index;
		/* the strings are the JVM's allocations too */
		for (jint k = 0; k < ev[i].param_count; k++)
			(*jv)->Deallocate(
			    jv, (unsigned char *)ev[i].params[k].name);
		(*jv)->Deallocate(jv, (unsigned char *)ev[i].params);
		(*jv)->Deallocate(jv, (unsigned char *)ev[i].id);
		(*jv)->Deallocate(jv, (unsigned char *)ev[i].short_description);
	}
	(*jv)->Deallocate(jv, (unsigned char *)ev);
	return ext_mount >= 0 && ext_unmount >= 0 ? 0 : -1;
}

/*
 * java.lang.VirtualThread, loaded but not initialized: JNI's FindClass
 * would run its static initializer, whose scheduler and unparker thread an
 * application that never made a virtual thread would then have for good
 * (Class.forName(name, false, null) leaves it as it is). NULL when none.
 */
static jclass vthread_class(JNIEnv *env)
{
	jclass cls = (*env)->FindClass(env, "java/lang/Class");
	jmethodID for_name =
	    cls ? (*env)->GetStaticMethodID(
		      env, cls, "forName",
		      "(Ljava/lang/String;ZLjava/lang/ClassLoader;)Ljava/lang/Class;")
		: NULL;
	jstring name =
	    for_name ? (*env)->NewStringUTF(env, "java.lang.VirtualThread")
		     : NULL;
	jclass v = name ? (jclass)(*env)->CallStaticObjectMethod(
			      env, cls, for_name, name, JNI_FALSE, NULL)
			: NULL;

	if ((*env)->ExceptionCheck(env)) {
		(*env)->ExceptionClear(env);
		v = NULL;
	}
	if (name)
		(*env)->DeleteLocalRef(env, name);
	if (cls)
		(*env)->DeleteLocalRef(env, cls);
	return v;
}

int vthread_start(JNIEnv *env)
{
	jvmtiEnv *jv = pja.jvmti;
	jvmtiCapabilities c;
	jvmtiEventCallbacks cb;
	jclass tc;
	jint ver = 0;

	if ((*jv)->GetVersionNumber(jv, &ver) || ver < JVMTI_VERSION_21)
		return -1;
	if (!vt_class) {
		jclass v = vthread_class(env);

		tc = (*env)->FindClass(env, "java/lang/Thread");
		if ((*env)->ExceptionCheck(env))
			(*env)->ExceptionClear(env);
		if (!v || !tc)
			return -1;
		tid_field = (*env)->GetFieldID(env, tc, "tid", "J");
		name_field =
		    (*env)->GetFieldID(env, tc, "name", "Ljava/lang/String;");
		blocker_field = (*env)->GetFieldID(env, tc, "parkBlocker",
						   "Ljava/lang/Object;");
		if ((*env)->ExceptionCheck(env))
			(*env)->ExceptionClear(env);
		if (!tid_field || !name_field || !blocker_field)
			return -1;
		vt_class = (*env)->NewGlobalRef(env, v);
	}
	memset(&c, 0, sizeof(c));
	c.can_support_virtual_threads = 1;
	if (!vt_class || find_ext() || (*jv)->AddCapabilities(jv, &c))
		return -1;
	cb = pja.callbacks;
	cb.VirtualThreadStart = on_start;
	cb.VirtualThreadEnd = on_end;
	if ((*jv)->SetEventCallbacks(jv, &cb, sizeof(cb)) ||
	    (*jv)->SetExtensionEventCallback(jv, ext_mount,
					     (jvmtiExtensionEvent)on_mount) ||
	    (*jv)->SetExtensionEventCallback(jv, ext_unmount,
					     (jvmtiExtensionEvent)on_unmount))
		return -1;
	started = 1;
	mounted_on();
	tag = ((tag >> 3) % 15 + 1) << 3;
	(*jv)->SetEventNotificationMode(jv, JVMTI_ENABLE,
					JVMTI_EVENT_VIRTUAL_THREAD_START, NULL);
	(*jv)->SetEventNotificationMode(jv, JVMTI_ENABLE,
					JVMTI_EVENT_VIRTUAL_THREAD_END, NULL);
	(*jv)->SetEventNotificationMode(jv, JVMTI_ENABLE, ext_mount, NULL);
	(*jv)->SetEventNotificationMode(jv, JVMTI_ENABLE, ext_unmount, NULL);
	if (!get_vthread)
		find_function();
	scan_mounted(env);
	return 0;
}

void vthread_stop(void)
{
	jvmtiEnv *jv = pja.jvmti;
	jvmtiCapabilities c;

	if (!started)
		return;
	(*jv)->SetEventNotificationMode(jv, JVMTI_DISABLE, ext_mount, NULL);
	(*jv)->SetEventNotificationMode(jv, JVMTI_DISABLE, ext_unmount, NULL);
	(*jv)->SetEventNotificationMode(jv, JVMTI_DISABLE,
					JVMTI_EVENT_VIRTUAL_THREAD_START, NULL);
	(*jv)->SetEventNotificationMode(jv, JVMTI_DISABLE,
					JVMTI_EVENT_VIRTUAL_THREAD_END, NULL);
	memset(&c, 0, sizeof(c));
	c.can_support_virtual_threads = 1;
	(*jv)->RelinquishCapabilities(jv, &c);
	started = 0;
	mounted_off();
}
#else
int vthread_start(JNIEnv *env)
{
	return -1;
}

void vthread_stop(void)
{
}
#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * JVMTI: set up once (capabilities, callbacks); per session the events are
 * enabled, the method ids of loaded classes preloaded (AsyncGetCallTrace
 * needs jmethodIDs and the ClassLoad hook), the code map and thread names
 * replayed, and everything streamed to the reader as it changes.
 *
 * Enabling CompiledMethodLoad also makes HotSpot record debug information at
 * non-safepoint pcs for code compiled from then on (debugInfoRec.cpp,
 * compute_recording_non_safepoints: DebugNonSafepoints defaults to true when
 * JVMTI wants compiled-method-load events), so inlined frames are exact.
 *
 * Thread ids: JVMTI knows threads only as objects. A new thread's ThreadStart
 * runs on that thread, so gettid() names it. For threads that exist at
 * attach, each thread is probed with our signal for its JNIEnv; HotSpot's
 * JNIEnv sits at a fixed offset inside its JavaThread, whose address is
 * java.lang.Thread.eetop, and the offset is calibrated on our own thread.
 * Without eetop the kernel's thread name (comm) is used.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "perfjava/profile.h"
#include "pja.h"
#include "clock.h"
#include "codemap.h"
#include "events.h"
#include "jevents.h"
#include "jthreads.h"
#include "methods.h"
#include "out.h"
#include "stackwalk.h"
#include "vmstructs.h"
#include "walk.h"
#include "wring.h"

static jvmtiEnv *jv;
static JNIEnv *sess_env; /* the session thread's */
/* Tests (testhooks.c): NULL in a user's JVM. */
static const struct events_hooks *hooks;

void events_hook(const struct events_hooks *h)
{
	hooks = h;
}

static const jvmtiEvent session_events[] = {
	JVMTI_EVENT_CLASS_LOAD,
	JVMTI_EVENT_CLASS_PREPARE,
	JVMTI_EVENT_COMPILED_METHOD_LOAD,
	JVMTI_EVENT_COMPILED_METHOD_UNLOAD,
	JVMTI_EVENT_DYNAMIC_CODE_GENERATED,
	JVMTI_EVENT_THREAD_START,
	JVMTI_EVENT_THREAD_END,
};
#define NEVENTS (sizeof(session_events) / sizeof(session_events[0]))

static void dealloc(void *p)
{
	if (p)
		(*jv)->Deallocate(jv, p);
}

static void send_code(const void *addr, jint size, jmethodID m,
		      const char *name, int type)
{
	struct pja_code c = { .start = (uintptr_t)addr,
			      .size = (uint32_t)size,
			      .method = (uintptr_t)m,
			      .type = type };

	c.name_len = strlen(name);
	out_msg(PJA_CODE_LOAD, &c, sizeof(c), name, c.name_len, NULL, 0);
}

static void send_thread(pid_t tid, const char *name)
{
	struct pja_thread t = { tid, name ? strlen(name) : 0 };

	out_msg(name ? PJA_THREAD : PJA_THREAD_END, &t, sizeof(t), name,
		t.name_len, NULL, 0);
}

static void JNICALL on_class_load(jvmtiEnv *j, JNIEnv *env, jthread t, jclass k)
{
	/* AsyncGetCallTrace refuses to walk unless this event is enabled */
}

static void JNICALL on_class_prepare(jvmtiEnv *j, JNIEnv *env, jthread t,
				     jclass k)
{
	jint n;
	jmethodID *ms = NULL;

	/* creates the jmethodIDs that AsyncGetCallTrace will report */
	if (!(*j)->GetClassMethods(j, k, &n, &ms))
		dealloc(ms);
}

struct level_of {
	const void *code;
	jmethodID m;
};

static int read_level(const void *arg)
{
	const struct level_of *l = arg;

	if (hooks) /* tests only: a fault here is survived too */
		hooks->level();
	return vmstructs_comp_level(l->code, l->m);
}

static void JNICALL on_compiled_load(jvmtiEnv *j, jmethodID m, jint size,
				     const void *addr, jint map_len,
				     const jvmtiAddrLocationMap *map,
				     const void *info)
{
	/* one per thread that posts (the service thread, the session
	 * thread's replay): off the stack, as in method_full_name */
	static __thread char name[1024];
	int level, c1;

	if (!atomic_load(&pja.active))
		return;
	/* C1 (tiers 1-3) or C2, where the JVM's structures say: read with
	 * the walk's fault protection, the code heap may change meanwhile */
	level = pja_protected(read_level, &(struct level_of){ addr, m });
	c1 = level >= 1 && level <= 3;
	codemap_add(addr, size, m, info, NULL, c1);
	if (method_full_name(m, name, sizeof(name)))
		strcpy(name, "[unknown method]");
	send_code(addr, size, m, name, c1 ? PJ_FRAME_C1 : PJ_FRAME_JIT);
	wring_tick(); /* the replay of a big code cache takes seconds */
}

static void JNICALL on_compiled_unload(jvmtiEnv *j, jmethodID m,
				       const void *addr)
{
	struct pja_code_unload u = { (uintptr_t)addr, (uintptr_t)m };

	if (!atomic_load(&pja.active))
		return;
	codemap_remove(addr, m);
	out_msg(PJA_CODE_UNLOAD, &u, sizeof(u), NULL, 0, NULL, 0);
}

static void JNICALL on_dynamic_code(jvmtiEnv *j, const char *name,
				    const void *addr, jint len)
{
	if (!atomic_load(&pja.active))
		return;
	codemap_add(addr, len, NULL, NULL, name, 0);
	send_code(addr, len, NULL, name, PJ_FRAME_VM);
}

static void JNICALL on_thread_start(jvmtiEnv *j, JNIEnv *env, jthread t)
{
	jvmtiThreadInfo info;

	if (!atomic_load(&pja.active) || (*j)->GetThreadInfo(j, t, &info))
		return;
	send_thread(pja_gettid(), info.name ? info.name : "");
	dealloc(info.name);
	jthreads_start(env, t, pja_gettid());
}

static void JNICALL on_thread_end(jvmtiEnv *j, JNIEnv *env, jthread t)
{
	jthreads_end(env, pja_gettid());
	if (atomic_load(&pja.active))
		send_thread(pja_gettid(), NULL);
}

void events_callbacks(jvmtiEventCallbacks *cb)
{
	memset(cb, 0, sizeof(*cb));
	cb->ClassLoad = on_class_load;
	cb->ClassPrepare = on_class_prepare;
	cb->CompiledMethodLoad = on_compiled_load;
	cb->CompiledMethodUnload = on_compiled_unload;
	cb->DynamicCodeGenerated = on_dynamic_code;
	cb->ThreadStart = on_thread_start;
	cb->ThreadEnd = on_thread_end;
	jevents_callbacks(cb);
}

int events_init(JavaVM *vm)
{
	jvmtiCapabilities caps = { 0 };
	jvmtiEventCallbacks cb;

	if ((*vm)->GetEnv(vm, (void **)&jv, JVMTI_VERSION_1_2) != JNI_OK)
		return -1;
	caps.can_get_line_numbers = 1;
	caps.can_get_source_file_name = 1;
	caps.can_generate_compiled_method_load_events = 1;
	if ((*jv)->AddCapabilities(jv, &caps))
		return -1;
	events_callbacks(&cb);
	if ((*jv)->SetEventCallbacks(jv, &cb, sizeof(cb)))
		return -1;
	pja.callbacks = cb; /* vthread.c adds its own to them */
	pja.jvmti = jv;
	return 0;
}

static void preload_methods(JNIEnv *env)
{
	jint n, i;
	jclass *ks = NULL;

	if ((*jv)->GetLoadedClasses(jv, &n, &ks))
		return;
	for (i = 0; i < n; i++) {
		jint st = 0, nm;
		jmethodID *ms = NULL;

		if (!(*jv)->GetClassStatus(jv, ks[i], &st) &&
		    (st & JVMTI_CLASS_STATUS_PREPARED) &&
		    !(*jv)->GetClassMethods(jv, ks[i], &nm, &ms))
			dealloc(ms);
		(*env)->DeleteLocalRef(env, ks[i]);
		wring_tick();
	}
	dealloc(ks);
}

struct probe {
	pid_t tid;
	JNIEnv *env;
};

/* Names of the threads that exist now (see the comment at the top). */
static void replay_threads(JNIEnv *env)
{
	struct probe *pr = NULL;
	size_t np = 0, cap = 0, i;
	pid_t self = pja_gettid();
	jclass tc = (*env)->FindClass(env, "java/lang/Thread");
	jfieldID eetop = NULL;
	jthread me = NULL, *ts = NULL;
	jlong off = 0;
	jint nt = 0, t;
	struct dirent *de;
	DIR *d;

	if (tc)
		eetop = (*env)->GetFieldID(env, tc, "eetop", "J");
	if ((*env)->ExceptionCheck(env))
		(*env)->ExceptionClear(env);
	if (eetop && !(*jv)->GetCurrentThread(jv, &me) && me)
		off = (intptr_t)env - (*env)->GetLongField(env, me, eetop);
	d = opendir("/proc/self/task");
	while (d && (de = readdir(d))) {
		pid_t tid = atoi(de->d_name);
		JNIEnv *e;

		/* one that ThreadStart named is not woken by a probe */
		if (tid <= 0 || tid == self || jthreads_known(tid))
			continue;
		/* a thread that does not answer is named from comm below */
		e = walk_probe_env(tid);
		wring_tick(); /* up to 100 ms a thread, a JVM has hundreds */
		if (!e)
			e = (JNIEnv *)(intptr_t)-1;
		if (np == cap) {
			struct probe *p;

			cap = cap ? cap * 2 : 64;
			p = realloc(pr, cap * sizeof(*p));
			if (!p)
				break;
			pr = p;
		}
		pr[np].tid = tid;
		pr[np++].env = e;
	}
	if (d)
		closedir(d);
	if (eetop && off && !(*jv)->GetAllThreads(jv, &nt, &ts)) {
		for (t = 0; t < nt; t++) {
			jlong top = (*env)->GetLongField(env, ts[t], eetop);
			jvmtiThreadInfo info;

			for (i = 0; top && i < np; i++) {
				if ((intptr_t)pr[i].env != top + off)
					continue;
				if (!(*jv)->GetThreadInfo(jv, ts[t], &info)) {
					send_thread(pr[i].tid,
						    info.name ? info.name : "");
					jthreads_start(env, ts[t], pr[i].tid);
					dealloc(info.name);
					(*env)->DeleteLocalRef(
					    env, info.thread_group);
					(*env)->DeleteLocalRef(
					    env, info.context_class_loader);
					pr[i].env = NULL;
				}
				break;
			}
			(*env)->DeleteLocalRef(env, ts[t]);
		}
		dealloc(ts);
	}
	for (i = 0; i < np; i++) {
		char path[64], name[64] = "";
		FILE *f;

		if (!pr[i].env)
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%d/comm",
			 pr[i].tid);
		f = fopen(path, "re");
		if (f && fgets(name, sizeof(name), f))
			name[strcspn(name, "\n")] = 0;
		if (f)
			fclose(f);
		send_thread(pr[i].tid, name);
	}
	free(pr);
	if (me)
		(*env)->DeleteLocalRef(env, me);
	if (tc)
		(*env)->DeleteLocalRef(env, tc);
}

int events_start(JNIEnv *env)
{
	unsigned int i;

	sess_env = env;
	codemap_reset();
	methods_reset(env);
	jthreads_open();
	for (i = 0; i < NEVENTS; i++)
		if ((*jv)->SetEventNotificationMode(jv, JVMTI_ENABLE,
						    session_events[i], NULL))
			return -1;
	preload_methods(env);
	(*jv)->GenerateEvents(jv, JVMTI_EVENT_DYNAMIC_CODE_GENERATED);
	(*jv)->GenerateEvents(jv, JVMTI_EVENT_COMPILED_METHOD_LOAD);
	if (hooks) /* tests only: a replay as long as a big JVM's */
		hooks->replay();
	replay_threads(env);
	return 0;
}

void events_stop(void)
{
	unsigned int i;

	/*
	 * CompiledMethodLoad stays enabled: while it is, HotSpot records the
	 * debug information of non-safepoint PCs for the code it compiles
	 * (DebugNonSafepoints), so code compiled between two recordings still
	 * names its inlined frames exactly in the next one. Its callback
	 * returns at once while no reader is connected.
	 */
	for (i = 0; i < NEVENTS; i++)
		if (session_events[i] != JVMTI_EVENT_COMPILED_METHOD_LOAD)
			(*jv)->SetEventNotificationMode(
			    jv, JVMTI_DISABLE, session_events[i], NULL);
	jthreads_reset(sess_env);
	methods_reset(NULL);
	sess_env = NULL;
}

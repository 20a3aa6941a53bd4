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

static jvmtiEnv *jv;
static JNIEnv *sess_env; /* the session thread's */

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

/* "Ljava/util/zip/Deflater;" -> "java.util.zip.Deflater" */
static void java_class_name(const char *sig, char *buf, size_t len)
{
	size_t n = 0;

	if (*sig == 'L')
		sig++;
	for (; *sig && n + 1 < len; sig++) {
		if (*sig == ';' && !sig[1])
			break;
		buf[n++] = *sig == '/' ? '.' : *sig;
	}
	buf[n] = 0;
}

/* Into buf itself: no name buffer on the stack (a sample's 1 KiB stack copy
 * must reach the frames below, so that the agent's own samples are named). */
int method_full_name(jmethodID m, char *buf, size_t len)
{
	jclass k = NULL;
	char *csig = NULL, *name = NULL, *msig = NULL;
	size_t n;
	int ret = -1;

	if (!len || (*jv)->GetMethodDeclaringClass(jv, m, &k) ||
	    (*jv)->GetClassSignature(jv, k, &csig, NULL) ||
	    (*jv)->GetMethodName(jv, m, &name, &msig, NULL))
		goto out;
	java_class_name(csig, buf, len < 512 ? len : 512);
	n = strlen(buf);
	/* with the signature, as the METHOD message's name reads */
	if (snprintf(buf + n, len - n, ".%s%s", name, msig ? msig : "") >=
	    (int)(len - n))
		snprintf(buf + n, len - n, ".%s", name);
	ret = 0;
out:
	dealloc(csig);
	dealloc(name);
	dealloc(msig);
	return ret;
}

/* The set of methods sent in this session (open addressing). */
static uint64_t *sent;
static size_t sent_cap, sent_n;

void methods_reset(void)
{
	if (sent)
		memset(sent, 0, sent_cap * sizeof(*sent));
	sent_n = 0;
}

static int sent_insert(uint64_t id)
{
	size_t i;

	if ((sent_n + 1) * 2 > sent_cap) {
		size_t cap = sent_cap ? sent_cap * 2 : 4096, j;
		uint64_t *p = calloc(cap, sizeof(*p));

		if (!p)
			return 0;
		for (j = 0; j < sent_cap; j++) {
			if (!sent[j])
				continue;
			for (i = (sent[j] >> 3) & (cap - 1); p[i];
			     i = (i + 1) & (cap - 1))
				;
			p[i] = sent[j];
		}
		free(sent);
		sent = p;
		sent_cap = cap;
	}
	for (i = (id >> 3) & (sent_cap - 1); sent[i];
	     i = (i + 1) & (sent_cap - 1))
		if (sent[i] == id)
			return 0;
	sent[i] = id;
	sent_n++;
	return 1;
}

static int cmp_line(const void *a, const void *b)
{
	const struct pja_line *x = a, *y = b;

	return (x->start_bci > y->start_bci) - (x->start_bci < y->start_bci);
}

void method_send(jmethodID m)
{
	struct pja_method pm = { .id = (uintptr_t)m };
	jclass k = NULL;
	/* the session thread's alone (so is the sent set): off the stack, as
	 * in method_full_name */
	static char cls[512], strs[2048];
	char *csig = NULL, *name = NULL, *msig = NULL, *file = NULL;
	jvmtiLineNumberEntry *lt = NULL;
	struct pja_line *lines = NULL;
	jint nl = 0, i;
	jboolean native = 0;
	size_t n;

	if (!m || !sent_insert((uintptr_t)m))
		return;
	cls[0] = 0;
	if (!(*jv)->GetMethodDeclaringClass(jv, m, &k)) {
		if (!(*jv)->GetClassSignature(jv, k, &csig, NULL))
			java_class_name(csig, cls, sizeof(cls));
		(*jv)->GetSourceFileName(jv, k, &file);
	}
	(*jv)->GetMethodName(jv, m, &name, &msig, NULL);
	(*jv)->IsMethodNative(jv, m, &native);
	if (!native && !(*jv)->GetLineNumberTable(jv, m, &nl, &lt) && nl > 0)
		lines = calloc(nl, sizeof(*lines));
	for (i = 0; lines && i < nl; i++) {
		lines[i].start_bci = lt[i].start_location;
		lines[i].line = lt[i].line_number;
	}
	if (lines)
		qsort(lines, nl, sizeof(*lines), cmp_line);
	else
		nl = 0;
	if (!cls[0])
		strcpy(cls, "[unknown class]");
	pm.class_len = strlen(cls);
	pm.name_len = name ? strlen(name) : 0;
	pm.sig_len = msig ? strlen(msig) : 0;
	pm.file_len = file ? strlen(file) : 0;
	if (pm.name_len + pm.sig_len + pm.file_len + pm.class_len >
	    sizeof(strs)) {
		pm.sig_len = 0;
		pm.file_len = 0;
		if (pm.name_len + pm.class_len > sizeof(strs))
			pm.name_len = sizeof(strs) - pm.class_len;
	}
	pm.nlines = nl;
	pm.flags = native ? PJA_METHOD_NATIVE : 0;
	n = 0;
	memcpy(strs + n, cls, pm.class_len);
	n += pm.class_len;
	memcpy(strs + n, name, pm.name_len);
	n += pm.name_len;
	memcpy(strs + n, msig, pm.sig_len);
	n += pm.sig_len;
	memcpy(strs + n, file, pm.file_len);
	n += pm.file_len;
	out_msg(PJA_METHOD, &pm, sizeof(pm), strs, n, lines,
		nl * sizeof(*lines));
	free(lines);
	dealloc(lt);
	dealloc(csig);
	dealloc(name);
	dealloc(msig);
	dealloc(file);
	if (k && sess_env)
		(*sess_env)->DeleteLocalRef(sess_env, k);
}

unsigned int walk_top(uint64_t pc, uint32_t how, struct asgct_frame *raw,
		      unsigned int n, uint32_t *flags)
{
	if (n && how == PJA_HOW_COMPILED)
		n = codemap_top(pc, raw, n, pja.depth);
	else if (n && how == PJA_HOW_DIRECT)
		n = codemap_retop(pc, raw, n, pja.depth);
	if (n >= pja.depth)
		*flags |= PJA_WALK_TRUNCATED;
	return n;
}

void method_frames(uint64_t pc, struct asgct_frame *raw, struct pja_frame *out,
		   unsigned int n)
{
	unsigned int i;

	memset(out, 0, n * sizeof(*out));
	codemap_classify(pc, raw, out, n);
	for (i = 0; i < n; i++) {
		method_send(raw[i].method);
		out[i].method = (uintptr_t)raw[i].method;
		out[i].bci = raw[i].lineno;
	}
}

unsigned int walk_frames(uint64_t pc, uint32_t *flags, struct asgct_frame *raw,
			 unsigned int n, struct pja_frame *out)
{
	static struct asgct_frame x[PJA_MAX_DEPTH];
	static uint8_t types[PJA_MAX_DEPTH];
	unsigned int i;
	int cut;

	if (!(*flags & PJA_WALK_RAW)) {
		n = walk_top(pc, PJA_WALK_HOW(*flags), raw, n, flags);
		method_frames(pc, raw, out, n);
		return n;
	}
	*flags &= ~PJA_WALK_RAW;
	n = codemap_expand(raw, n, x, types, pja.depth, &cut);
	if (cut || n >= pja.depth)
		*flags |= PJA_WALK_TRUNCATED;
	for (i = 0; i < n; i++) {
		method_send(x[i].method);
		out[i] = (struct pja_frame){ .method = (uintptr_t)x[i].method,
					     .bci = x[i].lineno,
					     .type = types[i] };
	}
	return n;
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

/* tests only: an address read_level reads to prove a fault is survived */
static volatile uintptr_t bad_level_addr = 16;

static int read_level(const void *arg)
{
	const struct level_of *l = arg;

	if (pja.testfault) /* tests only: a fault here is survived too */
		(void)*(volatile const long *)bad_level_addr;
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

/* Tests only (PERFJAVA_AGENT_TESTREPLAY): a replay as long as a big code
 * cache's on a loaded machine, the walks moved meanwhile as they are. */
static void slow_replay(void)
{
	uint64_t end = pja_now() + (uint64_t)pja.testreplay * 1000000;
	struct timespec ts = { 0, 5000000 };

	while (pja.testreplay && pja_now() < end) {
		nanosleep(&ts, NULL);
		wring_tick();
	}
}

int events_start(JNIEnv *env)
{
	unsigned int i;

	sess_env = env;
	codemap_reset();
	methods_reset();
	jthreads_open();
	for (i = 0; i < NEVENTS; i++)
		if ((*jv)->SetEventNotificationMode(jv, JVMTI_ENABLE,
						    session_events[i], NULL))
			return -1;
	preload_methods(env);
	(*jv)->GenerateEvents(jv, JVMTI_EVENT_DYNAMIC_CODE_GENERATED);
	(*jv)->GenerateEvents(jv, JVMTI_EVENT_COMPILED_METHOD_LOAD);
	slow_replay();
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
	sess_env = NULL;
}

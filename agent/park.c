// SPDX-License-Identifier: GPL-2.0
/*
 * Unsafe.park bound to the agent's hook (lock.c's), and kept bound beside
 * another agent that binds it too (async-profiler's lock profiler does, at
 * each of its sessions, and its hook then calls the JDK's park, not ours).
 *
 * The JDK's own park is learnt the way HotSpot gives it: Unsafe's
 * registerNatives is called again with RegisterNatives in the JNI function
 * table swapped for ours, which keeps park's entry and registers nothing.
 * HotSpot warns on the application's stdout ("Re-registering of platform
 * native method") when a boot class's native is bound by code whose caller
 * is not of the boot loader, as the agent's own thread is. So the hook is
 * bound from a Java frame of a class of our own defined in the boot loader
 * (perfjava.Bind, a few bytes below: go() calls the native bind(), which
 * binds park); where that class cannot be defined, bound directly (and the
 * JVM warns).
 *
 * Which entry park is bound to is read from its Method (HotSpot keeps a
 * native method's entry right after the Method, whose size
 * gHotSpotVMTypes gives): when a session starts recording locks and then
 * at each pump of the session thread, ours is bound again when another is
 * in place, and calls that one (so that both agents see the parks; a call
 * that comes back into ours from it goes to the JDK's park). The hook stays
 * bound for the JVM's life: binding the original back while threads may be
 * parked in the hook is what async-profiler also avoids.
 *
 * The hook passes each call on through park_call, alone in its section: a
 * thread parked there has it as its innermost frame of the agent's, which
 * the reader (told by PJA_PARK) takes for the application's park, not the
 * agent's work.
 */
#include <stdatomic.h>
#include <string.h>

#include "pja.h"
#include "out.h"
#include "park.h"
#include "stackwalk.h"
#include "vmstructs.h"

typedef jint(JNICALL *regnat_fn)(JNIEnv *, jclass, const JNINativeMethod *,
				 jint);

#define MAX_REBOUND 16 /* another agent's bindings followed a session */

/* the linker's bounds of park_call's section */
extern const char __start_pja_pass[], __stop_pja_pass[];

static park_fn orig_park; /* the JDK's */
static _Atomic(park_fn) next_park; /* what the hook calls */
static park_fn our_hook;
static regnat_fn orig_regnat;
static jclass unsafe_class, bind_cls; /* global references */
static jmethodID park_mid, bind_go;
static int tried, bound_ok; /* park_bind ran once; the hook is bound */
static uint32_t state, rebound; /* PJA_PARK_* (but CHAINED); this session's */
static __thread int nested; /* this thread is inside park_call */

__attribute__((section("pja_pass"), noinline)) void
park_call(JNIEnv *env, jobject u, jboolean abs, jlong time)
{
	park_fn f =
	    nested ? orig_park
		   : atomic_load_explicit(&next_park, memory_order_acquire);

	nested++;
	f(env, u, abs, time);
	nested--; /* after the call: this frame stays while parked */
}

int park_nested(void)
{
	return nested;
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
	JNINativeMethod m = { "park", "(ZJ)V", (void *)our_hook };

	bound = (*env)->RegisterNatives(env, unsafe_class, &m, 1);
}

/* perfjava.Bind defined in the boot loader, once: 0, or -1 */
static int define_bind(JNIEnv *env)
{
	JNINativeMethod m = { "bind", "()V", (void *)boot_bind };
	jclass b = (*env)->DefineClass(env, "perfjava/Bind", NULL,
				       (const jbyte *)bind_class,
				       (jsize)sizeof(bind_class) - 1);

	clear(env);
	if (!b)
		return -1;
	if (!(*env)->RegisterNatives(env, b, &m, 1))
		bind_go = (*env)->GetStaticMethodID(env, b, "go", "()V");
	clear(env);
	bind_cls = bind_go ? (*env)->NewGlobalRef(env, b) : NULL;
	(*env)->DeleteLocalRef(env, b);
	return bind_cls ? 0 : -1;
}

/* Binds park to our hook: from a boot class's frame, else directly. 0 when
 * bound. */
static int bind_hook(JNIEnv *env)
{
	JNINativeMethod m = { "park", "(ZJ)V", (void *)our_hook };

	bound = -1;
	if (bind_cls) {
		(*env)->CallStaticVoidMethod(env, bind_cls, bind_go);
		clear(env);
	}
	if (bound && (*env)->RegisterNatives(env, unsafe_class, &m, 1)) {
		clear(env);
		return -1;
	}
	return 0;
}

struct entry_read {
	const void *mid;
	void **out;
};

/* A native Method's entry, right after the Method (HotSpot's
 * native_function_addr); under the walk's fault protection. */
static int read_entry(const void *arg)
{
	const struct entry_read *r = arg;
	const char *m = *(const char *const *)r->mid; /* a Method** */

	if (!m || (pja_vmw.access >= 0 && !vmstructs_native(m)))
		return -1;
	*r->out = *(void *const *)(m + pja_vmm.method_size);
	return 0;
}

/* The entry park is bound to now; NULL when it cannot be read. */
static park_fn bound_entry(void)
{
	void *e = NULL;
	struct entry_read r = { park_mid, &e };

	if (!park_mid || pja_vmm.method_size <= 0 ||
	    pja_protected(read_entry, &r) < 0)
		return NULL;
	return (park_fn)e;
}

/* Learns the JDK's park and what the hook needs, once: 0, or -1. */
static int learn(JNIEnv *env)
{
	jvmtiEnv *jv = pja.jvmti;
	jniNativeInterface *fns = NULL;
	jclass c = (*env)->FindClass(env, "jdk/internal/misc/Unsafe");
	jmethodID reg;

	clear(env);
	if (!c)
		return -1;
	reg = (*env)->GetStaticMethodID(env, c, "registerNatives", "()V");
	park_mid = (*env)->GetMethodID(env, c, "park", "(ZJ)V");
	clear(env);
	unsafe_class = (*env)->NewGlobalRef(env, c);
	(*env)->DeleteLocalRef(env, c);
	if (!reg || !unsafe_class || (*jv)->GetJNIFunctionTable(jv, &fns))
		return -1;
	orig_regnat = fns->RegisterNatives;
	fns->RegisterNatives = regnat_spy;
	if (!(*jv)->SetJNIFunctionTable(jv, fns)) {
		(*env)->CallStaticVoidMethod(env, unsafe_class, reg);
		clear(env);
		fns->RegisterNatives = orig_regnat;
		(*jv)->SetJNIFunctionTable(jv, fns);
	}
	(*jv)->Deallocate(jv, (unsigned char *)fns);
	if (!orig_park)
		return -1;
	define_bind(env); /* else bound directly, with HotSpot's warning */
	return 0;
}

/*
 * Our hook bound, calling what was (cur, when it is not ours nor the
 * JDK's: another agent's hook), or the JDK's park. 0 when bound.
 */
static int follow(JNIEnv *env, park_fn cur)
{
	park_fn next = cur && cur != our_hook ? cur : orig_park;

	atomic_store_explicit(&next_park, next, memory_order_release);
	return bind_hook(env);
}

int park_bind(JNIEnv *env, park_fn hook)
{
	park_fn cur;

	if (!tried) {
		tried = 1;
		our_hook = hook;
		if (learn(env)) {
			state = PJA_PARK_FAILED;
			return -1;
		}
		cur = bound_entry();
		if (!cur)
			state |= PJA_PARK_UNCHECKED;
		bound_ok = !follow(env, cur);
		state |= bound_ok ? PJA_PARK_BOUND : PJA_PARK_FAILED;
		park_announce();
		return bound_ok ? 0 : -1;
	}
	if (!bound_ok)
		return -1;
	/* a new session: what another agent did since is found again */
	rebound = 0;
	state = (state & ~(uint32_t)PJA_PARK_LOST) | PJA_PARK_BOUND;
	park_check(env);
	park_announce();
	return 0;
}

void park_check(JNIEnv *env)
{
	park_fn cur;

	if (!bound_ok || !(cur = bound_entry()) || cur == our_hook ||
	    (state & PJA_PARK_LOST))
		return;
	if (rebound >= MAX_REBOUND || follow(env, cur)) {
		state = (state & ~(uint32_t)PJA_PARK_BOUND) | PJA_PARK_LOST;
	} else {
		state |= PJA_PARK_BOUND;
		rebound++;
	}
	park_announce();
}

int park_announce(void)
{
	struct pja_park p = {
		.pass_lo = (uintptr_t)__start_pja_pass,
		.pass_hi = (uintptr_t)__stop_pja_pass,
		.state = state,
		.rebound = rebound,
	};

	if (bound_ok && atomic_load(&next_park) != orig_park)
		p.state |= PJA_PARK_CHAINED;

	if (!tried)
		return 0;
	return out_msg(PJA_PARK, &p, sizeof(p), NULL, 0, NULL, 0);
}

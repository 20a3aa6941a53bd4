// SPDX-License-Identifier: GPL-2.0
/*
 * The native part of selftests/java/src/Stubs.java, built -O2
 * -fomit-frame-pointer as distributions build libraries: its JNI function
 * calls a leaf that keeps text in the frame-pointer register while it runs
 * (as libc's open keeps the path there), so that the kernel's frame-pointer
 * chain from the leaf is junk and only CFI finds the JNI function.
 */
#define _GNU_SOURCE
#include <jni.h>
#include <pthread.h>
#include <time.h>

__attribute__((noinline, visibility("default"))) unsigned long
stubs_leaf(unsigned long n)
{
	unsigned long x = n, text = 0x6176616a2f637273ul; /* "src/java" */

	if (!n)
		return 0;
	/* rbp is clobbered: saved in the prologue, with its CFI */
	__asm__ volatile("mov %2, %%rbp\n"
			 "1:\n\t"
			 "lea 1(%0,%0,4), %0\n\t"
			 "xor %%rbp, %0\n\t"
			 "dec %1\n\t"
			 "jnz 1b\n"
			 : "+r"(x), "+r"(n)
			 : "r"(text)
			 : "rbp", "cc");
	return x;
}

JNIEXPORT jlong JNICALL Java_Stubs_nativeSpin(JNIEnv *env, jclass cls, jlong n)
{
	volatile unsigned long keep[4];

	(void)env;
	(void)cls;
	keep[0] = stubs_leaf((unsigned long)n);
	return (jlong)keep[0];
}

/*
 * selftests/java/src/Attached.java: a thread of its own that attaches to
 * the JVM, runs Java code, detaches and runs native code, again and again
 * (as a native library's callback threads do): what the agent's handler
 * takes for the current Java thread must follow (agent/curenv.c).
 */

static JavaVM *att_vm;
static jclass att_cls;
static jmethodID att_spin;
static jint att_cycles;
static jlong att_ms;
static volatile unsigned long att_sink;

static unsigned long att_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long)ts.tv_sec * 1000 +
	       (unsigned long)ts.tv_nsec / 1000000;
}

/* the detached half: native code only */
__attribute__((noinline, visibility("default"))) void
attached_native_spin(unsigned long ms)
{
	unsigned long end = att_now_ms() + ms, x = att_sink;

	while (att_now_ms() < end)
		for (int i = 0; i < 1000; i++)
			x = x * 6364136223846793005ul + 1;
	att_sink = x;
}

static void *att_loop(void *arg)
{
	JavaVMAttachArgs aa = { JNI_VERSION_1_6, "attached-native", NULL };
	JNIEnv *env;

	(void)arg;
	pthread_setname_np(pthread_self(), "attached-native");
	for (jint i = 0; i < att_cycles; i++) {
		if ((*att_vm)->AttachCurrentThread(att_vm, (void **)&env, &aa))
			return NULL;
		(*env)->CallStaticLongMethod(env, att_cls, att_spin, att_ms);
		(*att_vm)->DetachCurrentThread(att_vm);
		attached_native_spin((unsigned long)att_ms);
	}
	return (void *)1;
}

/* cycles of ms in Java then ms in native code; the cycles completed */
JNIEXPORT jboolean JNICALL Java_Attached_run(JNIEnv *env, jclass cls,
					     jint cycles, jlong ms)
{
	pthread_t t;
	void *done = NULL;

	if ((*env)->GetJavaVM(env, &att_vm))
		return JNI_FALSE;
	att_cls = (*env)->NewGlobalRef(env, cls);
	att_spin = (*env)->GetStaticMethodID(env, cls, "javaSpin", "(J)J");
	if (!att_cls || !att_spin)
		return JNI_FALSE;
	att_cycles = cycles;
	att_ms = ms;
	if (pthread_create(&t, NULL, att_loop, NULL))
		return JNI_FALSE;
	pthread_join(t, &done);
	return done ? JNI_TRUE : JNI_FALSE;
}

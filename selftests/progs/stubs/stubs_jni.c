// SPDX-License-Identifier: GPL-2.0
/*
 * The native part of selftests/java/src/Stubs.java, built -O2
 * -fomit-frame-pointer as distributions build libraries: its JNI function
 * calls a leaf that keeps text in the frame-pointer register while it runs
 * (as libc's open keeps the path there), so that the kernel's frame-pointer
 * chain from the leaf is junk and only CFI finds the JNI function.
 */
#include <jni.h>

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

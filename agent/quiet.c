// SPDX-License-Identifier: GPL-2.0
/*
 * Quiet attach. Since JDK 21 (JEP 451) HotSpot prints a three-line warning
 * into the application's stderr the first time a library is loaded as an
 * agent into a running JVM, unless -XX:+EnableDynamicAgentLoading was given
 * on its command line: the flag exists for a serviceability tool attached on
 * purpose, which perfjava is. HotSpot looks at the flag after it has loaded
 * the library and before it calls Agent_OnAttach, so the library's
 * constructor is the one moment to say so: in a running JVM (not one that
 * loads the agent at its start with -agentpath, which prints nothing) of
 * JDK 21+, where the flag is on by its default, the flag's "set on the
 * command line" bit is set, as async-profiler does; its value and its
 * origin stay as they were (vmstructs_quiet_attach).
 *
 * The one write the agent makes in the JVM's memory: a bit of a flag that
 * nothing writes after the JVM's start, on the thread that loads us and then
 * reads it.
 */
#include <jni.h>

#include "vmstructs.h"

__attribute__((constructor)) static void quiet_attach(void)
{
	jint (*created)(JavaVM **, jsize, jsize *) = (jint(*)(
	    JavaVM **, jsize, jsize *))vmstructs_sym("JNI_GetCreatedJavaVMs");
	JavaVM *vm;
	jsize n = 0;

	if (!created || created(&vm, 1, &n) != JNI_OK || n < 1)
		return; /* not a running JVM: nothing is printed */
	vmstructs_init();
	vmstructs_quiet_attach();
}

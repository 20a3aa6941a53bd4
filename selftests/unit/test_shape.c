// SPDX-License-Identifier: GPL-2.0
/*
 * report/shape.c, as a table: lambda and hidden-class names lose what the
 * JVM made up at run time (the same on JDK 17 and 21+), --simple drops Java
 * packages, C++ parameter lists and Java signatures go unless --signatures
 * (Java's shown as simple type names), and names that need no shaping come
 * out unchanged.
 */
#include <string.h>

#include "report/shape.h"
#include "tap.h"

static const struct {
	const char *in;
	enum pj_frame_type type;
	unsigned int flags;
	const char *want;
} cases[] = {
	/* JDK 17 lambda (the agent writes '/' as '.') and JDK 21+ */
	{ "Workload$$Lambda$16.0x00007f8b8c000a08.run", PJ_FRAME_JIT, 0,
	  "Workload$$Lambda.run" },
	{ "Workload$$Lambda.0x00007f8b8c000a08.run", PJ_FRAME_INTERPRETED, 0,
	  "Workload$$Lambda.run" },
	{ "java.lang.invoke.LambdaForm$MH/0x0000000800c04400.invoke",
	  PJ_FRAME_INLINED, 0, "java.lang.invoke.LambdaForm$MH.invoke" },
	{ "jdk.proxy1.$Proxy12.hashCode", PJ_FRAME_C1, 0,
	  "jdk.proxy1.$Proxy.hashCode" },
	{ "jdk.internal.reflect.GeneratedMethodAccessor7.invoke", PJ_FRAME_JIT,
	  0, "jdk.internal.reflect.GeneratedMethodAccessor.invoke" },
	{ "App.lambda$main$0", PJ_FRAME_JIT, 0, "App.lambda$main$0" },
	{ "Workload$$Lambda$16.0x00007f8b8c000a08.run", PJ_FRAME_JIT, SHAPE_RAW,
	  "Workload$$Lambda$16.0x00007f8b8c000a08.run" },
	/* an allocated class (-e alloc's leaf), hidden: JDK 21+ and 17 */
	{ "Scope$ScopeImpl$$Lambda.0x00000000721224c0", PJ_FRAME_CLASS, 0,
	  "Scope$ScopeImpl$$Lambda" },
	{ "Scope$$Lambda$41.0x0000000800c04400", PJ_FRAME_CLASS, 0,
	  "Scope$$Lambda" },
	{ "Scope$$Lambda$41.0x0000000800c04400", PJ_FRAME_CLASS, SHAPE_RAW,
	  "Scope$$Lambda$41.0x0000000800c04400" },
	{ "java.lang.String[]", PJ_FRAME_CLASS, SHAPE_SIMPLE, "String[]" },
	{ "long[]", PJ_FRAME_CLASS, SHAPE_SIMPLE, "long[]" },
	{ "a.W$$Lambda.0x00007f7c74000a08", PJ_FRAME_CLASS,
	  SHAPE_SIMPLE | SHAPE_RAW, "W$$Lambda.0x00007f7c74000a08" },
	/* --simple */
	{ "java.util.HashMap.get", PJ_FRAME_JIT, SHAPE_SIMPLE, "HashMap.get" },
	{ "App.main", PJ_FRAME_INTERPRETED, SHAPE_SIMPLE, "App.main" },
	{ "a.b.Outer$Inner.m", PJ_FRAME_JIT, SHAPE_SIMPLE, "Outer$Inner.m" },
	{ "p.W$$Lambda$3.0x00007f7c74000a08.run", PJ_FRAME_JIT,
	  SHAPE_SIMPLE | SHAPE_RAW, "W$$Lambda$3.0x00007f7c74000a08.run" },
	{ "java.util.HashMap.get", PJ_FRAME_NATIVE, SHAPE_SIMPLE,
	  "java.util.HashMap.get" },
	/* C++ parameters */
	{ "JavaCalls::call_helper(JavaValue*, methodHandle const&, "
	  "JavaCallArguments*, JavaThread*)",
	  PJ_FRAME_NATIVE, 0, "JavaCalls::call_helper" },
	{ "jni_invoke_static(JNIEnv_*, JavaValue*) [clone .constprop.1]",
	  PJ_FRAME_NATIVE, 0, "jni_invoke_static" },
	{ "Foo::bar(int) const", PJ_FRAME_VM, 0, "Foo::bar" },
	{ "(anonymous namespace)::f(int)", PJ_FRAME_NATIVE, 0,
	  "(anonymous namespace)::f" },
	{ "f(int)::{lambda()#1}::operator()() const", PJ_FRAME_NATIVE, 0,
	  "f::{lambda()#1}::operator()" },
	{ "std::vector<int, std::allocator<int> >::push_back(int const&)",
	  PJ_FRAME_NATIVE, 0,
	  "std::vector<int, std::allocator<int> >::push_back" },
	{ "Foo::bar(int) const", PJ_FRAME_NATIVE, SHAPE_SIGNATURES,
	  "Foo::bar(int) const" },
	/* Java signatures: dropped, or shown with --sig/--signatures */
	{ "java.lang.String.indexOf(Ljava/lang/String;I)I", PJ_FRAME_JIT, 0,
	  "java.lang.String.indexOf" },
	{ "java.lang.String.indexOf(Ljava/lang/String;I)I", PJ_FRAME_JIT,
	  SHAPE_SIGNATURES, "java.lang.String.indexOf(String, int)" },
	{ "java.lang.String.indexOf(Ljava/lang/String;I)I", PJ_FRAME_INLINED,
	  SHAPE_SIGNATURES | SHAPE_SIMPLE, "String.indexOf(String, int)" },
	{ "a.B.m([[J[Ljava/util/Map$Entry;ZBCSFD)V", PJ_FRAME_INTERPRETED,
	  SHAPE_SIGNATURES,
	  "a.B.m(long[][], Map$Entry[], boolean, byte, char, short, float, "
	  "double)" },
	{ "App.main()V", PJ_FRAME_C1, SHAPE_SIGNATURES, "App.main()" },
	{ "W$$Lambda$16.0x00007f8b8c000a08.run(Ljava/lang/Object;)V",
	  PJ_FRAME_JIT, SHAPE_SIGNATURES, "W$$Lambda.run(Object)" },
	{ "a.B.m(Ljava/lang/Str", PJ_FRAME_JIT, SHAPE_SIGNATURES, "a.B.m()" },
	{ "a.B.m(Q)V", PJ_FRAME_JIT, SHAPE_SIGNATURES, "a.B.m()" },
	{ "a.B.m(I)V", PJ_FRAME_JAVA_NATIVE, SHAPE_SIMPLE, "B.m" },
	{ "do_syscall_64", PJ_FRAME_KERNEL, 0, "do_syscall_64" },
	{ "unbalanced(int", PJ_FRAME_NATIVE, 0, "unbalanced" },
};

int main(void)
{
	char out[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		report_shape_name(cases[i].in, cases[i].type, cases[i].flags,
				  out, sizeof(out));
		if (!ok(!strcmp(out, cases[i].want), "%s -> %s", cases[i].in,
			cases[i].want))
			printf("# got %s\n", out);
	}
	/* a short buffer: terminated, and never overrun */
	memset(out, 'x', sizeof(out));
	report_shape_name("Workload$$Lambda$16.0x00007f8b8c000a08.run",
			  PJ_FRAME_JIT, 0, out, 8);
	ok(!strcmp(out, "Workloa") && out[8] == 'x',
	   "a short buffer: truncated, terminated, not overrun");
	return tap_done();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The merge (pipeline/merge.h) as a table: kernel frames, user addresses, a
 * code map, a walk's status and Java frames in; the merged stack out, leaf
 * first, as "frame;frame;...". Addresses name themselves through a fake
 * sink: 0x1xxx are libjvm/libc functions, 0x9xxx are in nothing known.
 */
#include <stdio.h>
#include <string.h>

#include "perfjava/profile.h"
#include "pipeline/merge.h"
#include "tap.h"

#define MAXN 64

/* The fake symbolizer: frame ids index this table of names. */
static char names[256][96];
static unsigned int nnames;

static uint32_t intern(const char *s)
{
	for (unsigned int i = 0; i < nnames; i++)
		if (!strcmp(names[i], s))
			return i;
	snprintf(names[nnames], sizeof(names[0]), "%s", s);
	return nnames++;
}

static const struct {
	uint64_t ip;
	const char *name;
} natives[] = {
	{ 0x1000, "futex_wait" },
	{ 0x1100, "Unsafe_Park" },
	{ 0x1200, "JVM_InternString" },
	{ 0x1300, "JVM_Sleep" },
	{ 0x1400, "SharedRuntime::new" },
	{ 0x1500, "thread_native_entry" },
	{ 0x1600, "start_thread" },
	{ 0x1700, "write" },
	{ 0x1800, "Java_sun_nio_ch_SocketDispatcher_write0" },
};

static uint32_t fake_native(void *ctx, uint64_t ip, bool leaf, bool *known)
{
	(void)ctx;
	(void)leaf;
	for (unsigned int i = 0; i < sizeof(natives) / sizeof(natives[0]); i++)
		if (natives[i].ip == ip) {
			*known = true;
			return intern(natives[i].name);
		}
	*known = false;
	return intern("[unknown]");
}

static const char *suffix(int type)
{
	switch (type) {
	case PJ_FRAME_JIT:
		return "_[j]";
	case PJ_FRAME_INLINED:
		return "_[i]";
	case PJ_FRAME_INTERPRETED:
		return "_[0]";
	case PJ_FRAME_C1:
		return "_[1]";
	case PJ_FRAME_JAVA_NATIVE:
		return "_[n]";
	case PJ_FRAME_VM:
		return "_[vm]";
	default:
		return "";
	}
}

static bool fake_anon(void *ctx, uint64_t ip)
{
	(void)ctx;
	return ip >= 0xa000 && ip < 0xb000; /* JIT code not in the map */
}

static bool fake_entry(void *ctx, uint64_t ip)
{
	(void)ctx;
	return ip == 0x1600; /* start_thread */
}

static bool fake_jni(void *ctx, uint64_t ip, bool leaf)
{
	(void)ctx;
	(void)leaf;
	return ip == 0x1200 || ip == 0x1300 || ip == 0x1800; /* JVM_*, Java_* */
}

static uint32_t fake_frame(void *ctx, int type, const char *name,
			   const char *file, uint32_t line)
{
	char buf[96];

	(void)ctx;
	(void)file;
	(void)line;
	snprintf(buf, sizeof(buf), "%s%s", name, suffix(type));
	return intern(buf);
}

/* The code map every case uses. */
static struct codemap cm;

static void code_setup(void)
{
	codemap_add(&cm, 0x7000, 0x100, 0, PJ_FRAME_VM, "Interpreter");
	codemap_add(&cm, 0x7100, 0x40, 0, PJ_FRAME_VM, "vtable stub");
	codemap_add(&cm, 0x7200, 0x100, 11, PJ_FRAME_JIT, "A.getValueType");
	codemap_add(&cm, 0x7300, 0x100, 12, PJ_FRAME_JIT, "A.run");
	codemap_add(&cm, 0x7400, 0x100, 13, PJ_FRAME_JIT, "B.hash");
	/* a native method's wrapper is compiled code named after it */
	codemap_add(&cm, 0x7500, 0x100, 14, PJ_FRAME_JIT,
		    "java.lang.String.intern");
	codemap_add(&cm, 0x7600, 0x80, 0, PJ_FRAME_VM, "_new_array_Java");
	codemap_add(&cm, 0x7680, 0x80, 0, PJ_FRAME_VM,
		    "jlong_disjoint_arraycopy");
}

#define J(t, n)                          \
	{                                \
		PJ_FRAME_##t, n, NULL, 0 \
	}
#define END 0

struct tcase {
	const char *what;
	const char *kernel[4]; /* names, leaf first */
	uint64_t uips[MAXN]; /* leaf first, END-terminated */
	int status;
	struct java_frame jf[8];
	unsigned int nj;
	const char *want;
	int marker;
	bool held; /* walked while still blocked there (off-CPU) */
	bool at_sample; /* walked in the sample's own signal */
};

static const struct tcase cases[] = {
	{
	    "walked JIT sample: the walk replaces the JIT part and ends the "
	    "stack (no native base by default)",
	    { NULL },
	    { 0x7210, 0x7310, 0x1500, 0x1600, END },
	    AGENT_WALK_OK,
	    { J(JIT, "A.getValueType"), J(JIT, "A.run"),
	      J(INTERPRETED, "T.main") },
	    3,
	    "A.getValueType_[j];A.run_[j];T.main_[0]",
	    MERGE_NO_WALK,
	},
	{
	    "a pc in a vtable stub: the stub is the leaf above the walk from "
	    "its caller",
	    { NULL },
	    { 0x7110, 0x9000, END },
	    AGENT_WALK_OK,
	    { J(JIT, "A.run"), J(INTERPRETED, "T.main") },
	    2,
	    "vtable stub_[vm];A.run_[j];T.main_[0]",
	    MERGE_NO_WALK,
	},
	{
	    "a pc in an arraycopy stub: the stub above the inlining caller",
	    { NULL },
	    { 0x7690, 0x7310, END },
	    AGENT_WALK_OK,
	    { J(INLINED, "Arrays.copyOf"), J(JIT, "A.run") },
	    2,
	    "jlong_disjoint_arraycopy_[vm];Arrays.copyOf_[i];A.run_[j]",
	    MERGE_NO_WALK,
	},
	{
	    "a pc in the interpreter running the walk's interpreted frame: "
	    "no Interpreter frame",
	    { NULL },
	    { 0x7010, 0x7010, 0x9000, END },
	    AGENT_WALK_OK,
	    { J(INTERPRETED, "T.loop"), J(INTERPRETED, "T.main") },
	    2,
	    "T.loop_[0];T.main_[0]",
	    MERGE_NO_WALK,
	},
	{
	    "a pc in the interpreter under a compiled frame (a call on its "
	    "way in): the Interpreter is the leaf",
	    { NULL },
	    { 0x7010, 0x7310, END },
	    AGENT_WALK_OK,
	    { J(JIT, "A.run") },
	    1,
	    "Interpreter_[vm];A.run_[j]",
	    MERGE_NO_WALK,
	},
	{
	    "natives of an interpreted native method: no Interpreter frame",
	    { NULL },
	    { 0x1300, 0x7010, 0x7010, END },
	    AGENT_WALK_OK,
	    { J(JAVA_NATIVE, "java.lang.Thread.sleep0"),
	      J(INTERPRETED, "T.main") },
	    2,
	    "JVM_Sleep;java.lang.Thread.sleep0_[n];T.main_[0]",
	    MERGE_NO_WALK,
	},
	{
	    "garbage below the JIT part is dropped, not shown as [unknown]",
	    { NULL },
	    { 0x7210, 0x9000, 0x9100, END },
	    AGENT_WALK_OK,
	    { J(JIT, "A.getValueType"), J(INTERPRETED, "T.main") },
	    2,
	    "A.getValueType_[j];T.main_[0]",
	    MERGE_NO_WALK,
	},
	{
	    "failed walk keeps the leaf: JIT named from the code map, marker "
	    "at the root",
	    { NULL },
	    { 0x7110, 0x7210, 0x9000, END },
	    AGENT_WALK_NOT_WALKABLE,
	    { { 0 } },
	    0,
	    "vtable stub_[vm];A.getValueType_[j];[java: not walkable]",
	    AGENT_WALK_NOT_WALKABLE,
	},
	{
	    "timed-out walk of a native leaf keeps kernel and native frames",
	    { "do_syscall_64", NULL },
	    { 0x1000, 0x1100, END },
	    AGENT_WALK_TIMEOUT,
	    { { 0 } },
	    0,
	    "do_syscall_64;futex_wait;Unsafe_Park;[java: thread did not "
	    "answer]",
	    AGENT_WALK_TIMEOUT,
	},
	{
	    "natives under a Java native method belong to it",
	    { "do_syscall_64", NULL },
	    { 0x1000, 0x1100, END },
	    AGENT_WALK_OK,
	    { J(JAVA_NATIVE, "jdk.internal.misc.Unsafe.park"),
	      J(INLINED, "LockSupport.park"), J(JIT, "W.take") },
	    3,
	    "do_syscall_64;futex_wait;Unsafe_Park;jdk.internal.misc.Unsafe."
	    "park_[n];LockSupport.park_[i];W.take_[j]",
	    MERGE_NO_WALK,
	},
	{
	    "natives of another call are not glued under an unrelated Java "
	    "frame",
	    { "do_syscall_64", NULL },
	    { 0x1000, 0x1100, END },
	    AGENT_WALK_OK,
	    { J(INLINED, "Formatter.parse"), J(JIT, "F.format") },
	    2,
	    "do_syscall_64;futex_wait;Unsafe_Park;[java: stack moved on]",
	    MERGE_MOVED_ON,
	},
	{
	    "VM code called from a runtime stub belongs under the walk, the "
	    "stub between",
	    { NULL },
	    { 0x1400, 0x7610, 0x7310, END },
	    AGENT_WALK_OK,
	    { J(JIT, "A.run"), J(INTERPRETED, "T.main") },
	    2,
	    "SharedRuntime::new;_new_array_Java_[vm];A.run_[j];T.main_[0]",
	    MERGE_NO_WALK,
	},
	{
	    "VM code called from the walk's compiled method belongs",
	    { NULL },
	    { 0x1400, 0x7310, END },
	    AGENT_WALK_OK,
	    { J(INLINED, "A.helper"), J(JIT, "A.run") },
	    2,
	    "SharedRuntime::new;A.helper_[i];A.run_[j]",
	    MERGE_NO_WALK,
	},
	{
	    "a JNI entry under the compiled caller of a native method whose "
	    "call had returned does not belong",
	    { NULL },
	    { 0x1700, 0x1800, 0x7310, END },
	    AGENT_WALK_OK,
	    { J(JIT, "A.run") },
	    1,
	    "write;Java_sun_nio_ch_SocketDispatcher_write0;A.run_[j];[java: "
	    "stack moved on]",
	    MERGE_MOVED_ON,
	},
	{
	    "VM code called from another compiled method does not",
	    { NULL },
	    { 0x1200, 0x7410, END },
	    AGENT_WALK_OK,
	    { J(INLINED, "ConcurrentHashMap.get"), J(JIT, "A.run") },
	    2,
	    "JVM_InternString;B.hash_[j];[java: stack moved on]",
	    MERGE_MOVED_ON,
	},
	{
	    "natives through a native method's wrapper belong to it",
	    { NULL },
	    { 0x1200, 0x7510, 0x7310, END },
	    AGENT_WALK_OK,
	    { J(JAVA_NATIVE, "java.lang.String.intern"), J(JIT, "A.run") },
	    2,
	    "JVM_InternString;java.lang.String.intern_[n];A.run_[j]",
	    MERGE_NO_WALK,
	},
	{
	    "natives of a native method whose wrapper the chain skipped",
	    { NULL },
	    { 0x1200, 0x7310, END },
	    AGENT_WALK_OK,
	    { J(JAVA_NATIVE, "java.lang.String.intern"), J(JIT, "A.run") },
	    2,
	    "JVM_InternString;java.lang.String.intern_[n];A.run_[j]",
	    MERGE_NO_WALK,
	},
	{
	    "natives through another native method's wrapper do not",
	    { NULL },
	    { 0x1200, 0x7510, 0x7310, END },
	    AGENT_WALK_OK,
	    { J(JAVA_NATIVE, "ThreadImpl.getThreadTotalCpuTime0"),
	      J(JIT, "A.run") },
	    2,
	    "JVM_InternString;java.lang.String.intern_[j];A.run_[j];[java: "
	    "stack moved on]",
	    MERGE_MOVED_ON,
	},
	{
	    "not a Java thread: everything, no marker",
	    { NULL },
	    { 0x1000, 0x1500, 0x1600, END },
	    AGENT_WALK_NOT_JAVA,
	    { { 0 } },
	    0,
	    "futex_wait;thread_native_entry;start_thread",
	    MERGE_NO_WALK,
	},
	{
	    "no walk (native process): unknown frames stay",
	    { NULL },
	    { 0x1000, 0x9000, 0x1600, END },
	    MERGE_NO_WALK,
	    { { 0 } },
	    0,
	    "futex_wait;[unknown];start_thread",
	    MERGE_NO_WALK,
	},
	{
	    "walked, no user frames: kernel then Java",
	    { "schedule", NULL },
	    { END },
	    AGENT_WALK_OK,
	    { J(JAVA_NATIVE, "java.lang.Thread.sleep"), J(JIT, "A.run") },
	    2,
	    "schedule;java.lang.Thread.sleep_[n];A.run_[j]",
	    MERGE_NO_WALK,
	},
	{
	    "walked at the sample: VM code whose chain stops short of Java "
	    "code belongs under the walk",
	    { NULL },
	    { 0x1000, 0x1400, END },
	    AGENT_WALK_OK,
	    { J(INTERPRETED, "T.loop"), J(INTERPRETED, "T.main") },
	    2,
	    "futex_wait;SharedRuntime::new;T.loop_[0];T.main_[0]",
	    MERGE_NO_WALK,
	    false,
	    true,
	},
	{
	    "walked at the sample: ... unless a JNI entry says its native "
	    "method had returned",
	    { NULL },
	    { 0x1700, 0x1800, END },
	    AGENT_WALK_OK,
	    { J(JIT, "A.run") },
	    1,
	    "write;Java_sun_nio_ch_SocketDispatcher_write0;[java: stack moved "
	    "on]",
	    MERGE_MOVED_ON,
	    false,
	    true,
	},
	{
	    "a leaf in JIT code the map does not have yet: the walk's frames "
	    "alone, no [unknown] leaf",
	    { NULL },
	    { 0xa010, 0xa100, END },
	    AGENT_WALK_OK,
	    { J(JIT, "A.run"), J(INTERPRETED, "T.main") },
	    2,
	    "A.run_[j];T.main_[0]",
	    MERGE_NO_WALK,
	},
	{
	    "walked at the sample: VM code called from JIT code the map does "
	    "not have yet belongs",
	    { NULL },
	    { 0x1400, 0xa010, END },
	    AGENT_WALK_OK,
	    { J(JIT, "A.run") },
	    1,
	    "SharedRuntime::new;A.run_[j]",
	    MERGE_NO_WALK,
	    false,
	    true,
	},
	{
	    "walked later: ... that cannot be checked, so it does not",
	    { NULL },
	    { 0x1400, 0xa010, END },
	    AGENT_WALK_OK,
	    { J(JIT, "A.run") },
	    1,
	    "SharedRuntime::new;[unknown];[java: stack moved on]",
	    MERGE_MOVED_ON,
	},
	{
	    "a native method's natives end where the chain goes into "
	    "anonymous memory (junk or its caller's code)",
	    { NULL },
	    { 0x1700, 0x1800, 0xa050, 0x9000, END },
	    AGENT_WALK_OK,
	    { J(JAVA_NATIVE, "SocketDispatcher.write0"), J(JIT, "A.run") },
	    2,
	    "write;Java_sun_nio_ch_SocketDispatcher_write0;SocketDispatcher."
	    "write0_[n];A.run_[j]",
	    MERGE_NO_WALK,
	},
	{
	    "walked at the sample in a compiled method's entry, from its "
	    "caller: the method is the leaf",
	    { NULL },
	    { 0x7410, 0x9000, END },
	    AGENT_WALK_OK,
	    { J(INLINED, "A.helper"), J(JIT, "A.run") },
	    2,
	    "B.hash_[j];A.helper_[i];A.run_[j]",
	    MERGE_NO_WALK,
	    false,
	    true,
	},
	{
	    "walked at the sample in a method the walk shows: no second frame",
	    { NULL },
	    { 0x7310, END },
	    AGENT_WALK_OK,
	    { J(INLINED, "A.helper"), J(JIT, "A.run") },
	    2,
	    "A.helper_[i];A.run_[j]",
	    MERGE_NO_WALK,
	    false,
	    true,
	},
	{
	    "walked later: the walk alone, whatever code was sampled",
	    { NULL },
	    { 0x7410, END },
	    AGENT_WALK_OK,
	    { J(JIT, "A.run") },
	    1,
	    "A.run_[j]",
	    MERGE_NO_WALK,
	},
	{
	    "walked later: VM code whose chain stops short does not belong",
	    { NULL },
	    { 0x1000, 0x1400, END },
	    AGENT_WALK_OK,
	    { J(INTERPRETED, "T.loop"), J(INTERPRETED, "T.main") },
	    2,
	    "futex_wait;SharedRuntime::new;[java: stack moved on]",
	    MERGE_MOVED_ON,
	},
	{
	    "off-CPU, walked while still blocked: a chain that never reaches "
	    "Java code stays under the Java frames",
	    { "schedule", NULL },
	    { 0x1000, 0x1400, END },
	    AGENT_WALK_OK,
	    { J(JIT, "A.run") },
	    1,
	    "schedule;futex_wait;SharedRuntime::new;A.run_[j]",
	    MERGE_NO_WALK,
	    true,
	},
	{
	    "off-CPU, walked while still blocked: VM code from another "
	    "compiled method stays too",
	    { NULL },
	    { 0x1200, 0x7410, END },
	    AGENT_WALK_OK,
	    { J(INLINED, "ConcurrentHashMap.get"), J(JIT, "A.run") },
	    2,
	    "JVM_InternString;ConcurrentHashMap.get_[i];A.run_[j]",
	    MERGE_NO_WALK,
	    true,
	},
};

/* Merges c (with the thread base b, or NULL); "frame;frame;...". */
static const char *merged(const struct tcase *c, struct merge_base *b,
			  int *marker)
{
	struct merge_sink k = { .native = fake_native,
				.frame = fake_frame,
				.jni_entry = fake_jni,
				.thread_entry = fake_entry,
				.anon = fake_anon };
	static char got[1024];
	uint32_t kf[4], out[MAXN];
	unsigned int nk = 0, nu = 0, n, i;

	while (nk < 4 && c->kernel[nk]) {
		kf[nk] = intern(c->kernel[nk]);
		nk++;
	}
	while (nu < MAXN && c->uips[nu] != END)
		nu++;
	struct merge_in in = {
		.kframes = kf,
		.nk = nk,
		.uips = c->uips,
		.nu = nu,
		.code = &cm,
		.walk_status = c->status,
		.jf = c->jf,
		.nj = c->nj,
		.held = c->held,
		.at_sample = c->at_sample,
		.base = b,
	};
	n = merge_stack(&k, &in, out, MAXN, marker);
	got[0] = 0;
	for (i = 0; i < n; i++) {
		if (i)
			strncat(got, ";", sizeof(got) - strlen(got) - 1);
		strncat(got, names[out[i]], sizeof(got) - strlen(got) - 1);
	}
	return got;
}

static void run(const struct tcase *c)
{
	int marker = -2;
	const char *got = merged(c, NULL, &marker);

	if (!ok(!strcmp(got, c->want) && marker == c->marker, "%s", c->what))
		printf("#   got  %s (marker %d)\n#   want %s (marker %d)\n",
		       got, marker, c->want, c->marker);
}

/* record --native-base: one base for every walked stack of a thread. */
static void test_base(void)
{
	static const struct tcase whole = {
		"",
		{ NULL },
		{ 0x7210, 0x7310, 0x1500, 0x1600, END },
		AGENT_WALK_OK,
		{ J(JIT, "A.getValueType"), J(JIT, "A.run") },
		2,
		"",
		0,
		false,
	};
	static const struct tcase cut = {
		"",
		{ NULL },
		{ 0x1000, 0x7310, 0x9000, END },
		AGENT_WALK_OK,
		{ J(JAVA_NATIVE, "Unsafe.park"), J(JIT, "A.run") },
		2,
		"",
		0,
		false,
	};
	static const struct tcase partial = {
		"",
		{ NULL },
		{ 0x7210, 0x1500, END },
		AGENT_WALK_OK,
		{ J(JIT, "A.getValueType"), J(JIT, "A.run") },
		2,
		"",
		0,
		false,
	};
	struct merge_base b = { .n = 0 };
	const char *got;

	got = merged(&cut, &b, NULL);
	ok(!strcmp(got, "futex_wait;Unsafe.park_[n];A.run_[j]") && !b.n,
	   "--native-base: before any complete base, none (%s)", got);
	got = merged(&partial, &b, NULL);
	ok(!strcmp(got, "A.getValueType_[j];A.run_[j]") && !b.n,
	   "--native-base: a base short of a thread entry is not one (%s)",
	   got);
	got = merged(&whole, &b, NULL);
	ok(!strcmp(got, "A.getValueType_[j];A.run_[j];thread_native_entry;"
			"start_thread"),
	   "--native-base: a complete base is kept (%s)", got);
	got = merged(&cut, &b, NULL);
	ok(!strcmp(got, "futex_wait;Unsafe.park_[n];A.run_[j];"
			"thread_native_entry;start_thread"),
	   "--native-base: ... and given to a stack whose chain stopped "
	   "short (%s)",
	   got);
	got = merged(&partial, &b, NULL);
	ok(!strcmp(got, "A.getValueType_[j];A.run_[j];thread_native_entry;"
			"start_thread"),
	   "--native-base: ... and replaces a shorter one (%s)", got);
}

int main(void)
{
	uint32_t out[2];
	struct merge_sink k = { .native = fake_native,
				.frame = fake_frame,
				.jni_entry = fake_jni,
				.thread_entry = fake_entry,
				.anon = fake_anon };
	static const uint64_t deep[] = { 0x1000, 0x1100, 0x1200 };
	struct merge_in in = { .uips = deep, .nu = 3, .walk_status = -1 };

	code_setup();
	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run(&cases[i]);
	test_base();
	ok(merge_stack(&k, &in, out, 2, NULL) == 2,
	   "a stack longer than the output is cut at its size");
	{
		static const uint64_t handler[] = { 0x1000, 0x8010, 0x7310 };
		static const struct java_frame jf[] = { J(JIT, "A.run") };
		uint32_t o[8];
		struct merge_in h = { .uips = handler,
				      .nu = 3,
				      .code = &cm,
				      .walk_status = AGENT_WALK_OK,
				      .jf = jf,
				      .nj = 1,
				      .self_lo = 0x8000,
				      .self_hi = 0x8100 };
		unsigned int n = merge_stack(&k, &h, o, 8, NULL);

		ok(n && !strcmp(names[o[n - 1]], MERGE_SELF_MARKER),
		   "a stack through the agent's handler is labelled at the "
		   "root");
		/* the park hook's call of the park it wraps (0x8080..0x8090
		 * passes calls on): a thread parked there is the
		 * application's */
		static const uint64_t parked[] = { 0x1000, 0x8084, 0x8010,
						   0x7310 };
		static const uint64_t in_handler[] = { 0x8020, 0x1000, 0x8084,
						       0x7310 };

		h.uips = parked;
		h.nu = 4;
		h.pass_lo = 0x8080;
		h.pass_hi = 0x8090;
		n = merge_stack(&k, &h, o, 8, NULL);
		ok(n && strcmp(names[o[n - 1]], MERGE_SELF_MARKER),
		   "a stack whose innermost agent frame passes the call on "
		   "(the park hook's) is not labelled");
		h.uips = in_handler;
		n = merge_stack(&k, &h, o, 8, NULL);
		ok(n && !strcmp(names[o[n - 1]], MERGE_SELF_MARKER),
		   "... but one whose innermost agent frame is the agent's "
		   "work is, whatever it passed through below");
	}
	codemap_add(&cm, 0x7200, 0x10, 21, PJ_FRAME_JIT, "C.new");
	ok(codemap_type_at(&cm, 0x7208, NULL) == PJ_FRAME_JIT &&
	       !codemap_find(&cm, 0x7280) && codemap_find(&cm, 0x7310),
	   "new code replaces the code it overlaps, and only that");
	codemap_remove(&cm, 0x7200, 21);
	ok(!codemap_find(&cm, 0x7208), "unloaded code is gone");
	codemap_free(&cm);
	return tap_done();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The few HotSpot structure offsets the walk's recovery needs, read from the
 * table libjvm exports for serviceability tools (gHotSpotVMStructs, the same
 * source the JDK's own SA and async-profiler use): where a JavaThread keeps
 * its frame anchor (last Java sp/pc/fp), and how far a thread's JNIEnv lies
 * from its JavaThread. Read once, outside any signal handler; a missing
 * entry leaves the recovery that needs it off.
 */
#include <dlfcn.h>
#include <string.h>

#include "pja.h"
#include "clock.h"
#include "curenv.h"
#include "framecache.h"
#include "vmstructs.h"

struct pja_vmm pja_vmm = { -1, -1, -1, -1, -1, -1, -1, -1 };

struct pja_vmw pja_vmw = { .state = -1,
			   .stack_base = -1,
			   .stack_size = -1,
			   .jcw_anchor = -1,
			   .access = -1,
			   .stub_offset = -1,
			   .in_java = -1,
			   .in_vm = -1,
			   .in_native = -1,
			   .blocked = -1 };

struct pja_vm pja_vm = { .env_offset = -1,
			 .anchor = -1,
			 .anchor_sp = -1,
			 .anchor_pc = -1,
			 .anchor_fp = -1,
			 .osthread = -1,
			 .thread_id = -1 };

void *vmstructs_sym(const char *name)
{
	Dl_info info;
	void *h, *p = dlsym(RTLD_DEFAULT, name);

	if (p)
		return p;
	/* libjvm loaded without RTLD_GLOBAL: by the file AsyncGetCallTrace
	 * is in, or by its name */
	if (pja.asgct && dladdr((void *)pja.asgct, &info) && info.dli_fname)
		h = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
	else
		h = dlopen("libjvm.so", RTLD_LAZY | RTLD_NOLOAD);
	if (!h)
		return NULL;
	p = dlsym(h, name);
	dlclose(h);
	return p;
}

#define jvm_sym vmstructs_sym

static int read_u64(const char *name, uint64_t *v)
{
	const uint64_t *p = jvm_sym(name);

	if (!p)
		return -1;
	*v = *p;
	return 0;
}

/* For the compile level of compiled code: the code cache's heaps, where a
 * heap's blocks start (segment map), and nmethod::_comp_level. */
static struct {
	char *const *heaps; /* &CodeCache::_heaps (GrowableArray<CodeHeap*>*) */
	int len, data; /* GrowableArray _len, _data */
	int memory, segmap, shift; /* CodeHeap::_memory, _segmap, _log2_... */
	int low, low_bound, high_bound; /* VirtualSpace */
	int used; /* HeapBlock::Header::_used */
	int level; /* nmethod::_comp_level */
	/* the walk's step out of a compiled frame: CodeBlob's name, frame
	 * size (words), where its frame is complete (from the code's begin,
	 * an int before JDK 23, an int16_t since), and its code's begin (a
	 * pointer before JDK 23, an offset from the blob since) */
	int name, frame_size, complete, complete16, code_begin, code_offset;
	int size; /* CodeBlob::_size, bytes from the blob's start */
	int method; /* nmethod::_method (CompiledMethod's before JDK 23) */
	/* where a compiled method's frame starts being built: its verified
	 * entry (a pointer before JDK 23, a u2 from the code's begin since) */
	int ventry, ventry_offset;
} cc = { NULL, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	 -1,   -1, -1, 0,  -1, -1, -1, -1, -1, -1 };

/* The JVM's flags (quiet attach): where the table is and how many, each
 * entry's size and its name, value and flags fields, the flags' bits. */
static struct {
	char *const *table; /* &JVMFlag::flags */
	const size_t *count; /* &JVMFlag::numFlags */
	int size, name, addr, flags, flags_size;
	int cmdline,
	    origin_mask; /* WAS_SET_ON_COMMAND_LINE, VALUE_ORIGIN_MASK */
	const int *major; /* &Abstract_VM_Version::_vm_major_version */
} fl = { NULL, NULL, -1, -1, -1, -1, -1, -1, -1, NULL };

/* Type sizes from gHotSpotVMTypes: sizeof(ConstMethod) (the bytecodes
 * follow it), of Method (a native's entry follows it), of a JVMFlag and of
 * its flags field. */
static void type_sizes(void)
{
	uint64_t stride, name_off, size_off;
	const char *const *base = jvm_sym("gHotSpotVMTypes");
	const char *e;

	if (!base || !*base ||
	    read_u64("gHotSpotVMTypeEntryArrayStride", &stride) ||
	    read_u64("gHotSpotVMTypeEntryTypeNameOffset", &name_off) ||
	    read_u64("gHotSpotVMTypeEntrySizeOffset", &size_off) || stride < 8)
		return;
	for (e = *base;; e += stride) {
		const char *name = *(const char *const *)(e + name_off);
		int size;

		if (!name)
			break;
		size = (int)*(const uint64_t *)(e + size_off);
		if (!strcmp(name, "ConstMethod"))
			pja_vmm.size = size;
		else if (!strcmp(name, "Method"))
			pja_vmm.method_size = size;
		else if (!strcmp(name, "JVMFlag"))
			fl.size = size;
		else if (!strcmp(name, "JVMFlag::Flags"))
			fl.flags_size = size;
	}
}

/* The fields read, by type and name (a name may differ between JDKs). */
static const struct want {
	int *dst;
	const char *type, *field;
} wants[] = {
	{ &cc.len, "GrowableArrayBase", "_len" },
	{ &cc.len, "GenericGrowableArray", "_len" },
	{ &cc.data, "GrowableArray<int>", "_data" },
	{ &cc.memory, "CodeHeap", "_memory" },
	{ &cc.segmap, "CodeHeap", "_segmap" },
	{ &cc.shift, "CodeHeap", "_log2_segment_size" },
	{ &cc.low, "VirtualSpace", "_low" },
	{ &cc.low_bound, "VirtualSpace", "_low_boundary" },
	{ &cc.high_bound, "VirtualSpace", "_high_boundary" },
	{ &cc.used, "HeapBlock::Header", "_used" },
	{ &cc.level, "nmethod", "_comp_level" },
	{ &cc.level, "CompiledMethod", "_comp_level" },
	{ &cc.name, "CodeBlob", "_name" },
	{ &pja_vmm.const_method, "Method", "_constMethod" },
	{ &pja_vmm.constants, "ConstMethod", "_constants" },
	{ &pja_vmm.idnum, "ConstMethod", "_method_idnum" },
	{ &pja_vmm.code_size, "ConstMethod", "_code_size" },
	{ &pja_vmm.holder, "ConstantPool", "_pool_holder" },
	{ &pja_vmm.ids, "InstanceKlass", "_methods_jmethod_ids" },
	{ &cc.method, "nmethod", "_method" },
	{ &cc.method, "CompiledMethod", "_method" },
	{ &cc.frame_size, "CodeBlob", "_frame_size" },
	{ &cc.size, "CodeBlob", "_size" },
	{ &cc.code_begin, "CodeBlob", "_code_begin" },
	{ &cc.code_offset, "CodeBlob", "_code_offset" },
	{ &pja_vm.anchor, "JavaThread", "_anchor" },
	{ &pja_vm.anchor_sp, "JavaFrameAnchor", "_last_Java_sp" },
	{ &pja_vm.anchor_pc, "JavaFrameAnchor", "_last_Java_pc" },
	{ &pja_vm.anchor_fp, "JavaFrameAnchor", "_last_Java_fp" },
	{ &pja_vm.osthread, "JavaThread", "_osthread" },
	{ &pja_vm.osthread, "Thread", "_osthread" },
	{ &pja_vm.thread_id, "OSThread", "_thread_id" },
	{ &pja_vmw.state, "JavaThread", "_thread_state" },
	{ &pja_vmw.stack_base, "JavaThread", "_stack_base" },
	{ &pja_vmw.stack_size, "JavaThread", "_stack_size" },
	{ &pja_vmw.jcw_anchor, "JavaCallWrapper", "_anchor" },
	{ &pja_vmw.access, "Method", "_access_flags" },
	{ &pja_vmw.stub_offset, "nmethod", "_stub_offset" },
	{ &cc.ventry, "nmethod", "_verified_entry_point" },
	{ &cc.ventry_offset, "nmethod", "_verified_entry_offset" },
	{ &fl.name, "JVMFlag", "_name" },
	{ &fl.addr, "JVMFlag", "_addr" },
	{ &fl.flags, "JVMFlag", "_flags" },
};

/* The integer constants read, by name. */
static const struct want_int {
	int *dst;
	const char *name;
} want_ints[] = {
	{ &pja_vmw.in_java, "_thread_in_Java" },
	{ &pja_vmw.in_vm, "_thread_in_vm" },
	{ &pja_vmw.in_native, "_thread_in_native" },
	{ &pja_vmw.blocked, "_thread_blocked" },
	{ &pja_vmw.wrapper_slot, "frame::entry_frame_call_wrapper_offset" },
	{ &fl.cmdline, "JVMFlag::WAS_SET_ON_COMMAND_LINE" },
	{ &fl.origin_mask, "JVMFlag::VALUE_ORIGIN_MASK" },
};

static void int_constants(void)
{
	uint64_t stride, name_off, value_off;
	const char *const *base = jvm_sym("gHotSpotVMIntConstants");
	const char *e;

	pja_vmw.wrapper_slot = 1; /* no such slot: above the frame pointer */
	if (!base || !*base ||
	    read_u64("gHotSpotVMIntConstantEntryArrayStride", &stride) ||
	    read_u64("gHotSpotVMIntConstantEntryNameOffset", &name_off) ||
	    read_u64("gHotSpotVMIntConstantEntryValueOffset", &value_off) ||
	    stride < 8)
		return;
	for (e = *base;; e += stride) {
		const char *name = *(const char *const *)(e + name_off);

		if (!name)
			break;
		for (unsigned int i = 0;
		     i < sizeof(want_ints) / sizeof(want_ints[0]); i++)
			if (!strcmp(name, want_ints[i].name))
				*want_ints[i].dst =
				    *(const int32_t *)(e + value_off);
	}
}

/* StubRoutines::_call_stub_return_address, a static of libjvm's */
static const uint64_t *call_stub_at;

void vmstructs_late(void)
{
	if (call_stub_at)
		pja_vmw.call_stub_ret = *call_stub_at;
}

int vmstructs_init(void)
{
	uint64_t stride, type_off, field_off, off_off, static_off, addr_off;
	uint64_t tstr_off;
	const char *const *base = jvm_sym("gHotSpotVMStructs");
	const char *e;

	if (!base || !*base ||
	    read_u64("gHotSpotVMStructEntryArrayStride", &stride) ||
	    read_u64("gHotSpotVMStructEntryTypeNameOffset", &type_off) ||
	    read_u64("gHotSpotVMStructEntryFieldNameOffset", &field_off) ||
	    read_u64("gHotSpotVMStructEntryOffsetOffset", &off_off) ||
	    read_u64("gHotSpotVMStructEntryIsStaticOffset", &static_off) ||
	    read_u64("gHotSpotVMStructEntryAddressOffset", &addr_off) ||
	    read_u64("gHotSpotVMStructEntryTypeStringOffset", &tstr_off) ||
	    stride < 8)
		return -1;
	for (e = *base;; e += stride) {
		const char *type = *(const char *const *)(e + type_off);
		const char *field = *(const char *const *)(e + field_off);
		int32_t is_static = *(const int32_t *)(e + static_off);
		int32_t off;

		if (!type)
			break;
		if (!field)
			continue;
		if (is_static) {
			if (!strcmp(type, "CodeCache") &&
			    !strcmp(field, "_heaps"))
				cc.heaps =
				    *(char *const *const *)(e + addr_off);
			/* generated after Agent_OnLoad, before any agent
			 * can attach: read again at each session's start
			 * (vmstructs_late) */
			if (!strcmp(type, "StubRoutines") &&
			    !strcmp(field, "_call_stub_return_address"))
				call_stub_at =
				    *(const uint64_t *const *)(e + addr_off);
			if (!strcmp(type, "JVMFlag") && !strcmp(field, "flags"))
				fl.table =
				    *(char *const *const *)(e + addr_off);
			if (!strcmp(type, "JVMFlag") &&
			    !strcmp(field, "numFlags"))
				fl.count =
				    *(const size_t *const *)(e + addr_off);
			if (!strcmp(type, "Abstract_VM_Version") &&
			    !strcmp(field, "_vm_major_version"))
				fl.major = *(const int *const *)(e + addr_off);
			continue;
		}
		off = (int32_t) * (const uint64_t *)(e + off_off);
		for (unsigned int i = 0; i < sizeof(wants) / sizeof(wants[0]);
		     i++)
			if (!strcmp(type, wants[i].type) &&
			    !strcmp(field, wants[i].field))
				*wants[i].dst = off;
		if (!strcmp(type, "CodeBlob") &&
		    !strcmp(field, "_frame_complete_offset")) {
			const char *ts = *(const char *const *)(e + tstr_off);

			cc.complete = off;
			cc.complete16 = ts && !strcmp(ts, "int16_t");
		}
	}
	type_sizes();
	int_constants();
	vmstructs_late();
	return pja_vm.anchor >= 0 && pja_vm.anchor_sp >= 0 &&
		       pja_vm.anchor_pc >= 0
		   ? 0
		   : -1;
}

int vmstructs_thread(JNIEnv *env)
{
	jclass c;
	jmethodID cur;
	jfieldID eetop;
	jobject t;
	jlong vt;

	if (pja_vm.env_offset >= 0)
		return 0;
	c = (*env)->FindClass(env, "java/lang/Thread");
	if (!c)
		goto fail;
	cur = (*env)->GetStaticMethodID(env, c, "currentThread",
					"()Ljava/lang/Thread;");
	eetop = (*env)->GetFieldID(env, c, "eetop", "J");
	if (!cur || !eetop)
		goto fail;
	t = (*env)->CallStaticObjectMethod(env, c, cur);
	if (!t)
		goto fail;
	vt = (*env)->GetLongField(env, t, eetop);
	if (vt && (uintptr_t)env > (uintptr_t)vt &&
	    (uintptr_t)env - (uintptr_t)vt < 65536)
		pja_vm.env_offset = (long)((uintptr_t)env - (uintptr_t)vt);
	if (pja_vm.env_offset >= 0)
		curenv_init((const void *)(uintptr_t)vt);
	/* the thread id read from the JVM is used only where it reads
	 * true on this very thread */
	if (pja_vm.env_offset >= 0 && vmstructs_tid(env) != pja_gettid())
		pja_vm.osthread = -1;
	return pja_vm.env_offset >= 0 ? 0 : -1;
fail:
	if ((*env)->ExceptionCheck(env))
		(*env)->ExceptionClear(env);
	return -1;
}

pid_t vmstructs_tid(JNIEnv *env)
{
	const char *t, *os;

	if (pja_vm.env_offset < 0 || pja_vm.osthread < 0 ||
	    pja_vm.thread_id < 0)
		return 0;
	t = (const char *)env - pja_vm.env_offset;
	os = *(const char *const *)(t + pja_vm.osthread);
	return os ? *(const pid_t *)(os + pja_vm.thread_id) : 0;
}

/*
 * The code blob holding pc, as async-profiler finds it: the code heap holding
 * it, its segment map back to the block's start, the blob after the block
 * header. NULL when unknown or free. Only reads: a caller in a signal handler
 * holds the walk's fault protection.
 */
static const char *find_blob(const unsigned char *pc)
{
	char *arr, *const *heaps;
	int n;

	if (!cc.heaps || cc.len < 0 || cc.data < 0 || cc.memory < 0 ||
	    cc.segmap < 0 || cc.shift < 0 || cc.low < 0 || cc.low_bound < 0 ||
	    cc.high_bound < 0 || cc.used < 0)
		return NULL;
	arr = *cc.heaps;
	if (!arr)
		return NULL;
	n = *(const int *)(arr + cc.len);
	heaps = *(char *const *const *)(arr + cc.data);
	if (n < 1 || n > 8 || !heaps)
		return NULL;
	for (int i = 0; i < n; i++) {
		const char *h = heaps[i], *vs;
		const unsigned char *lo, *hi, *start, *map, *block;
		int shift;
		size_t idx, steps = 0;

		if (!h)
			continue;
		vs = h + cc.memory;
		lo = *(const unsigned char *const *)(vs + cc.low_bound);
		hi = *(const unsigned char *const *)(vs + cc.high_bound);
		if (pc < lo || pc >= hi)
			continue;
		start = *(const unsigned char *const *)(vs + cc.low);
		map = *(const unsigned char *const *)(h + cc.segmap + cc.low);
		shift = *(const int *)(h + cc.shift);
		if (!start || !map || pc < start || shift < 0 || shift > 16)
			return NULL;
		idx = (size_t)(pc - start) >> shift;
		if (map[idx] == 0xff)
			return NULL;
		while (map[idx] > 0 && map[idx] != 0xff && steps++ < 65536)
			idx -= map[idx];
		block = start + (idx << shift);
		if (!block[cc.used])
			return NULL;
		return (const char *)block + ((cc.used + 1 + 7) & ~7);
	}
	return NULL;
}

/* A compiled Java method's blob, a native method's wrapper included. */
static int is_nmethod(const char *blob)
{
	const char *name = *(const char *const *)(blob + cc.name);

	return name &&
	       (!memcmp(name, "nmethod", sizeof("nmethod")) ||
		!memcmp(name, "native nmethod", sizeof("native nmethod")));
}

/* A blob's frame size in words; 0 for a frame of a word or more than
 * 64 KiB, not one to step over. */
static int frame_words(const char *blob)
{
	int size = *(const int *)(blob + cc.frame_size);

	return size < 2 || size > 8192 ? 0 : size;
}

/*
 * The compile level of the nmethod holding code (1-3 C1, 4 C2); -1 when
 * unknown. Called from JVMTI callbacks (never from a signal handler).
 */
int vmstructs_comp_level(const void *code, jmethodID m)
{
	const char *nm;
	signed char level;

	if (cc.level < 0 || cc.name < 0 || cc.method < 0 || !m)
		return -1;
	nm = find_blob(code);
	/* an nmethod of m: a load event posted late may find the code
	 * flushed and its memory another blob's */
	if (!nm || !is_nmethod(nm) ||
	    *(const void *const *)(nm + cc.method) != *(const void *const *)m)
		return -1;
	level = *(const signed char *)(nm + cc.level);
	return level >= 1 && level <= 4 ? level : -1;
}

int vmstructs_blob(uint64_t pc, struct pja_blob *b)
{
	const char *blob;
	int off;

	memset(b, 0, sizeof(*b));
	if (cc.name < 0 || cc.frame_size < 0 || cc.method < 0 ||
	    (cc.code_begin < 0 && cc.code_offset < 0))
		return -1;
	blob = find_blob((const unsigned char *)pc);
	if (!blob)
		return -1;
	b->at = (uintptr_t)blob;
	b->name = *(const char *const *)(blob + cc.name);
	b->nmethod = is_nmethod(blob);
	b->words = frame_words(blob);
	if (cc.code_begin >= 0)
		b->code = *(const uint64_t *)(blob + cc.code_begin);
	else
		b->code =
		    (uintptr_t)blob + *(const int *)(blob + cc.code_offset);
	if (cc.complete >= 0) {
		off = cc.complete16 ? *(const int16_t *)(blob + cc.complete)
				    : *(const int *)(blob + cc.complete);
		/* frame_never_safe is -1 */
		b->complete = off >= 0 ? b->code + (unsigned int)off : 0;
	}
	if (!b->nmethod)
		return 0;
	b->method = *(const void *const *)(blob + cc.method);
	if (cc.ventry >= 0)
		b->entry = *(const uint64_t *)(blob + cc.ventry);
	else if (cc.ventry_offset >= 0)
		b->entry =
		    b->code + *(const uint16_t *)(blob + cc.ventry_offset);
	if (b->entry < b->code || (b->complete && b->entry > b->complete))
		b->entry = 0; /* not what it seems: unknown */
	if (pja_vmw.stub_offset >= 0) {
		b->stub =
		    (uintptr_t)blob +
		    (unsigned int)*(const int *)(blob + pja_vmw.stub_offset);
		if (b->stub < b->code)
			b->stub = 0; /* not what it seems: unknown */
	}
	return 0;
}

int vmstructs_blob_same(const struct pja_step *e, uint64_t pc)
{
	const char *blob = (const char *)(uintptr_t)e->blob;
	int size;

	if (cc.size < 0 || pc < e->blob)
		return 0;
	size = *(const int *)(blob + cc.size);
	if (size <= 0 || pc - e->blob >= (unsigned int)size ||
	    *(const int *)(blob + cc.frame_size) != (int)e->words)
		return 0;
	if (!(e->flags & PJA_STEP_NMETHOD))
		return *(const uint64_t *)(blob + cc.name) == e->tag;
	return *(const void *const *)(blob + cc.method) ==
	       *(const void *const *)(uintptr_t)e->tag;
}

int vmstructs_nmethod_frame(uint64_t pc, int *complete)
{
	struct pja_blob b;

	*complete = 0;
	if (vmstructs_blob(pc, &b) || !b.nmethod || !b.words || pc < b.code)
		return 0;
	*complete = b.complete && pc >= b.complete;
	return b.words;
}

int vmstructs_code_frame(uint64_t pc, const void **method)
{
	struct pja_blob b;

	*method = NULL;
	if (vmstructs_blob(pc, &b) || !b.words)
		return 0;
	*method = b.method;
	return b.words;
}

int vmstructs_native(const void *method)
{
	return pja_vmw.access >= 0 &&
	       (*(const uint16_t *)((const char *)method + pja_vmw.access) &
		0x0100); /* JVM_ACC_NATIVE */
}

int vmstructs_quiet_attach(void)
{
	const char *f;
	uint32_t *bits;
	size_t i, n;

	/* the warning came with JDK 21 (JEP 451) */
	if (!fl.major || *fl.major < 21 || !fl.table || !*fl.table ||
	    !fl.count || fl.size < 16 || fl.name < 0 || fl.addr < 0 ||
	    fl.flags < 0 || fl.flags_size != 4 || fl.cmdline <= 0 ||
	    fl.origin_mask <= 0)
		return -1;
	n = *fl.count;
	for (i = 0, f = *fl.table; i < n && i < 4096; i++, f += fl.size) {
		const char *name = *(const char *const *)(f + fl.name);
		const unsigned char *value;

		if (!name || strcmp(name, "EnableDynamicAgentLoading"))
			continue;
		value = *(const unsigned char *const *)(f + fl.addr);
		bits = (uint32_t *)(f + fl.flags);
		/* on (else no agent loads), its default, not said yet */
		if (!value || *value != 1 ||
		    (*bits & (uint32_t)fl.origin_mask) ||
		    (*bits & (uint32_t)fl.cmdline))
			return -1;
		__atomic_fetch_or(bits, (uint32_t)fl.cmdline, __ATOMIC_RELAXED);
		return 0;
	}
	return -1;
}

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

struct pja_vm pja_vm = { .env_offset = -1,
			 .anchor = -1,
			 .anchor_sp = -1,
			 .anchor_pc = -1,
			 .anchor_fp = -1 };

static void *jvm_sym(const char *name)
{
	Dl_info info;
	void *h, *p = dlsym(RTLD_DEFAULT, name);

	if (p || !pja.asgct || !dladdr((void *)pja.asgct, &info) ||
	    !info.dli_fname)
		return p;
	h = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
	if (!h)
		return NULL;
	p = dlsym(h, name);
	dlclose(h);
	return p;
}

static int read_u64(const char *name, uint64_t *v)
{
	const uint64_t *p = jvm_sym(name);

	if (!p)
		return -1;
	*v = *p;
	return 0;
}

static void set(int *dst, const char *type, const char *field,
		const char *want_type, const char *want_field, int32_t off)
{
	if (!strcmp(type, want_type) && !strcmp(field, want_field))
		*dst = off;
}

int vmstructs_init(void)
{
	uint64_t stride, type_off, field_off, off_off, static_off;
	const char *const *base = jvm_sym("gHotSpotVMStructs");
	const char *e;

	if (!base || !*base ||
	    read_u64("gHotSpotVMStructEntryArrayStride", &stride) ||
	    read_u64("gHotSpotVMStructEntryTypeNameOffset", &type_off) ||
	    read_u64("gHotSpotVMStructEntryFieldNameOffset", &field_off) ||
	    read_u64("gHotSpotVMStructEntryOffsetOffset", &off_off) ||
	    read_u64("gHotSpotVMStructEntryIsStaticOffset", &static_off) ||
	    stride < 8)
		return -1;
	for (e = *base;; e += stride) {
		const char *type = *(const char *const *)(e + type_off);
		const char *field = *(const char *const *)(e + field_off);
		int32_t is_static = *(const int32_t *)(e + static_off);
		int32_t off;

		if (!type)
			break;
		if (!field || is_static)
			continue;
		off = (int32_t) * (const uint64_t *)(e + off_off);
		set(&pja_vm.anchor, type, field, "JavaThread", "_anchor", off);
		set(&pja_vm.anchor_sp, type, field, "JavaFrameAnchor",
		    "_last_Java_sp", off);
		set(&pja_vm.anchor_pc, type, field, "JavaFrameAnchor",
		    "_last_Java_pc", off);
		set(&pja_vm.anchor_fp, type, field, "JavaFrameAnchor",
		    "_last_Java_fp", off);
	}
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
	return pja_vm.env_offset >= 0 ? 0 : -1;
fail:
	if ((*env)->ExceptionCheck(env))
		(*env)->ExceptionClear(env);
	return -1;
}

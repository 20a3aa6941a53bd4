/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The JVM's generated code by address: compiled methods, stubs and the
 * interpreter, as the agent streams them (PJA_CODE_LOAD/UNLOAD). A plain
 * sorted table with no tie to the agent connection, so that the merge can
 * take it as an input and tests can fill one by hand.
 */
#ifndef PJ_USER_JVM_CODEMAP_H
#define PJ_USER_JVM_CODEMAP_H

#include <stddef.h>
#include <stdint.h>

struct codemap_entry {
	uint64_t start, end;
	uint64_t method; /* jmethodID for compiled methods, 0 for stubs */
	int type; /* PJ_FRAME_JIT, _C1, _VM, _JAVA_NATIVE (a wrapper) */
	const char *name; /* not owned: must outlive the map */
};

/* Sorted by start, never overlapping. Zero-initialised is empty. */
struct codemap {
	struct codemap_entry *e;
	size_t n, cap;
};

/*
 * Adds [start, start + size): whatever it overlaps is gone (the JVM reused
 * the memory). 0, or -1 when out of memory or size is 0.
 */
int codemap_add(struct codemap *cm, uint64_t start, uint64_t size,
		uint64_t method, int type, const char *name);
/* Removes the entry starting at start for method, if it is there. */
void codemap_remove(struct codemap *cm, uint64_t start, uint64_t method);
/* Gives every entry of method the type (a native method's wrapper). */
void codemap_retype(struct codemap *cm, uint64_t method, int type);
/* The entry holding addr, or NULL. */
const struct codemap_entry *codemap_find(const struct codemap *cm,
					 uint64_t addr);
/* PJ_FRAME_* type of the code at addr and its name, or 0 when none is. */
int codemap_type_at(const struct codemap *cm, uint64_t addr, const char **name);
void codemap_free(struct codemap *cm);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The code a JFR file written from a profile names (report/jfr_names.c):
 * methods, classes, packages and symbols, each made once on first use, as
 * the constant pools of the chunk's checkpoint (report/jfr_pools.h) write
 * them. Keys start at 1; 0 is null.
 *
 * A Java frame ("pkg.Cls.method(desc)") is a method of its class (binary
 * name "pkg/Cls") with its descriptor; a Java method declared native is
 * ACC_NATIVE and typed "JIT compiled", as async-profiler writes it (its
 * converter takes a "Native" frame for C code). Any other frame is, as
 * async-profiler writes native code, a method named as the report names
 * it with a placeholder descriptor ("()L;", a kernel frame's "(Lk;)L;"),
 * ACC_NATIVE, of a class that says where the code is: its library
 * ("libjvm.so"), "kernel", "jvm" for code the JVM generated, "perfjava"
 * for perfjava's markers, "unknown" for code in no file.
 */
#ifndef PJ_USER_REPORT_JFR_NAMES_H
#define PJ_USER_REPORT_JFR_NAMES_H

#include "lib/u64map.h"
#include "report/jfr_chunk.h"
#include "report/report.h"

struct jfr_names {
	const struct report *r;
	uint32_t *method_of; /* frame id -> method key, 0 = not yet */
	struct jfr_symbols {
		char *text; /* the symbols, NUL-separated */
		size_t len, cap;
		uint32_t *at; /* symbol key k starts at text + at[k - 1] */
		uint32_t n, cap_at;
		struct u64map by_hash; /* FNV-1a | 1 -> key */
	} sym;
	struct u64map classes; /* class symbol -> class key */
	struct jfr_class {
		uint32_t sym, pkg;
	} * cls;
	uint32_t nclasses, cap_classes;
	struct u64map packages; /* package symbol -> package key */
	uint32_t *pkg_sym, npkgs, cap_pkgs;
	struct u64map java_methods; /* name string id + 1 | native << 32 -> key */
	struct u64map other_methods; /* class key << 32 | name symbol -> key */
	struct jfr_method {
		uint32_t cls, name, desc, modifiers;
	} * m;
	uint32_t nmethods, cap_methods;
	bool oom;
};

/* 0, or -1 out of memory. */
int jfr_names_init(struct jfr_names *nm, const struct report *r);
void jfr_names_free(struct jfr_names *nm);
/* The method key of frame id f (a class's frame: the class, unnamed, as
 * async-profiler names a class in a stack); 0 out of memory. */
uint32_t jfr_names_method(struct jfr_names *nm, uint32_t f);
/* The jdk.types.FrameType key of frame id f: its type as async-profiler
 * types frames (a native C++ function "C++"). */
uint8_t jfr_names_frame_type(const struct pj_profile *p, uint32_t f);
/* The class key of a class named as Java names it ("java.lang.String",
 * "int[]", "java.lang.Object[][]"); 0 out of memory or for "". */
uint32_t jfr_names_class(struct jfr_names *nm, const char *java_name);
/* Writes the pools of methods, classes, packages and symbols that have an
 * entry; returns how many. */
unsigned int jfr_names_write(struct jfr_names *nm, struct jfr_buf *b);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading JDK Flight Recorder files into a profile (the JDK's own, async-
 * profiler's, perfjava's), shared by profile/jfr_read.c (chunks, events),
 * profile/jfr_cpool.c (constant pools, stacks) and profile/jfr_meta.c (the
 * metadata: classes and fields, and reading or skipping any value by its
 * class). Not for other parts: they call pj_profile_load().
 *
 * The file is hostile: every length, count and key is checked against the
 * bytes left in its event, nesting is bounded (JFR_MAX_DEPTH), references
 * to constant pools that do not exist are dropped, and a damaged file gets
 * one line saying where.
 */
#ifndef PJ_USER_PROFILE_JFR_H
#define PJ_USER_PROFILE_JFR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/u64map.h"
#include "profile/internal.h"

#define JFR_HEADER_SIZE 68
#define JFR_MAX_DEPTH 16 /* nested values and metadata elements */
#define JFR_NAME_MAX 4096 /* a frame's name, built from its parts */

/* Where decoding is: [p, end) of the event being read. */
struct jfr_cur {
	const uint8_t *p, *end;
	const uint8_t *base; /* the file, for offsets in messages */
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 3, 4))) int
jfr_damaged(struct jfr_cur *c, const uint8_t *at, const char *fmt, ...);
int jfr_get_varint(struct jfr_cur *c, uint64_t *v);

/* A string value: its encoding and bytes, or a key of the String pool. */
enum {
	JFR_S_NULL,
	JFR_S_EMPTY,
	JFR_S_POOL,
	JFR_S_UTF8,
	JFR_S_CHARS,
	JFR_S_LATIN1
};
struct jfr_str {
	uint8_t enc;
	uint32_t n; /* bytes (UTF-8, Latin-1) or chars (char array) */
	const uint8_t *p;
	uint64_t key; /* JFR_S_POOL */
};
int jfr_get_string(struct jfr_cur *c, struct jfr_str *s);
/* s as UTF-8 in out (NUL-terminated, cut at cap - 1); returns the length.
 * Pool references and nulls give "". */
size_t jfr_str_utf8(const struct jfr_str *s, char *out, size_t cap);

/* How a value of a class is encoded. */
enum jfr_kind { JK_VARINT, JK_BYTE, JK_F4, JK_F8, JK_STRING, JK_COMPOSITE };

struct jfr_field {
	const char *name;
	uint32_t cls; /* index into jfr_meta.classes */
	bool cpool, array;
};

struct jfr_class {
	uint64_t id;
	const char *name, *super;
	uint8_t kind; /* enum jfr_kind */
	bool flat; /* composite of varints, keys and bytes only */
	uint32_t first, nfields; /* into jfr_meta.fields */
};

struct jfr_meta {
	char **strings;
	uint32_t nstrings;
	struct jfr_class *classes;
	uint32_t nclasses;
	size_t cap_classes;
	struct jfr_field *fields;
	uint32_t nfields;
	size_t cap_fields;
	struct u64map by_id; /* class id + 1 -> index + 1 */
	char *arena; /* the strings' bytes */
};

/* The metadata event's body from its string count on. 0 or -1. */
int jfr_meta_parse(struct jfr_meta *m, struct jfr_cur *c);
void jfr_meta_free(struct jfr_meta *m);
/* The index of the class named name, or -1. */
int jfr_meta_find(const struct jfr_meta *m, const char *name);
/* The index of field name in class k, or -1. */
int jfr_field_of(const struct jfr_meta *m, uint32_t k, const char *name);
/* Skips one value of field f (arrays, nesting, strings). 0 or -1. */
int jfr_skip(const struct jfr_meta *m, struct jfr_cur *c,
	     const struct jfr_field *f, unsigned int depth);
/* Skips one value of class k, not an array, not a key. */
int jfr_skip_class(const struct jfr_meta *m, struct jfr_cur *c, uint32_t k,
		   unsigned int depth);

/* The profile being built, with indexes that keep each string, frame and
 * stack once (profile/jfr_read.c). */
struct jfr_build {
	struct priv *d;
	struct u64map strings, frames, stacks; /* content hash | 1 -> id + 1 */
	struct u64map thread_name; /* tid + 1 -> string id + 1 */
	uint64_t *period; /* per event: its sampling period, ns */
	uint8_t *prio; /* per event: CPU samples first, then ... */
	uint64_t *count; /* per event: its samples */
	size_t cap_period, cap_prio, cap_count;
};

/* Constant pools of one chunk (profile/jfr_cpool.c). */
struct jfr_cp;
struct jfr_cp *jfr_cp_new(const struct jfr_meta *m);
void jfr_cp_free(struct jfr_cp *cp);
/* A checkpoint event's body after its size and type. 0 or -1. */
int jfr_cp_read(struct jfr_cp *cp, struct jfr_cur *c);
/* The profile's stack id of stack trace key, made on first use; with a
 * leaf frame named after class key leaf_class (0: none), typed leaf_type.
 * UINT32_MAX when the key is not defined (the sample is dropped). */
uint32_t jfr_cp_stack(struct jfr_cp *cp, struct jfr_build *b, uint64_t key,
		      uint64_t leaf_class, uint8_t leaf_type);
/* Thread key's OS thread id and name (NULL: not defined). */
bool jfr_cp_thread(struct jfr_cp *cp, uint64_t key, uint32_t *tid,
		   const char **name);
/* The text of a String pool key or a string value ("" when unknown). */
const char *jfr_cp_text(struct jfr_cp *cp, const struct jfr_str *s);
/* A ThreadState key's name ("" when unknown). */
const char *jfr_cp_state(struct jfr_cp *cp, uint64_t key);
/* profile/jfr_read.c: the profile's string id of s[0..n), frame id, stack
 * id (frames leaf first), each made once; UINT32_MAX out of memory. */
uint32_t jfr_intern(struct jfr_build *b, const char *s, size_t n);
uint32_t jfr_add_frame(struct jfr_build *b, uint8_t type, uint32_t name,
		       uint32_t module, uint32_t line);
uint32_t jfr_add_stack(struct jfr_build *b, const uint32_t *frames, uint32_t n);
/* profile/jfr_build.c: a metadata entry, a thread's name when new or
 * changed, an event of the profile by name (made with its priority and
 * unit; UINT32_MAX out of memory), and at the end the events ordered by
 * priority and count, samples without a period given their event's. */
int jfr_add_meta(struct jfr_build *b, const char *key, const char *value);
int jfr_add_thread(struct jfr_build *b, uint32_t tid, const char *name);
uint32_t jfr_add_event(struct jfr_build *b, const char *name, uint8_t prio,
		       const char *unit);
int jfr_finish_events(struct jfr_build *b);

/* profile/jfr_read.c: the JFR file buf[0..size) into d. */
int profile_jfr_parse(struct priv *d, const uint8_t *buf, size_t size,
		      char *err, size_t errlen);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading JDK Flight Recorder files into a profile (the JDK's own, async-
 * profiler's, perfjava's), shared by profile/jfr_read.c (chunks, events),
 * profile/jfr_cpool.c (constant pools, stacks) and profile/jfr_meta.c (the
 * metadata: classes and fields, and reading or skipping any value by its
 * class). Not for other parts: they call pj_profile_load().
 *
 * The file is hostile: it is read one chunk at a time (a chunk with a hole,
 * a sparse file's, is refused before it is read), every length, count and
 * key is checked against the bytes left in its event, nesting is bounded
 * (JFR_MAX_DEPTH), values that take no byte are never visited, the work a
 * chunk may cost is bounded by its size (jfr_spend), a batch of samples is
 * one sample that weighs them, references to constant pools that do not
 * exist are dropped, and a damaged file gets one line saying where.
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
/* Steps a chunk may cost, a byte of it: a composite value visited while
 * skipping is one, a frame of a stack made JFR_FRAME_STEPS (memory: the
 * stacks of a chunk hold 4 bytes a frame). Real recordings (the JDK's,
 * async-profiler's) take less than one step a byte. */
#define JFR_WORK_PER_BYTE 64
#define JFR_FRAME_STEPS 8

/* Where decoding is: [p, end) of the event being read. */
struct jfr_cur {
	const uint8_t *p, *end;
	const uint8_t *base; /* the chunk in memory, at base_off in the file */
	uint64_t base_off;
	uint64_t *work; /* steps the chunk may still cost */
	char *err;
	size_t errlen;
};

/* "damaged JFR at offset N: ..." in c->err; returns -1. */
__attribute__((format(printf, 3, 4))) int
jfr_damaged(struct jfr_cur *c, const uint8_t *at, const char *fmt, ...);
/* Takes n steps of the chunk's budget: 0, or -1 when it is spent. */
int jfr_spend(struct jfr_cur *c, uint64_t n);
int jfr_get_varint(struct jfr_cur *c, uint64_t *v);
/* A count of things of a byte at least: no more than the bytes left. */
int jfr_get_count(struct jfr_cur *c, uint64_t *n, const char *what);

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
	bool empty; /* a value of a class that takes no byte: never read */
};

struct jfr_class {
	uint64_t id;
	const char *name, *super;
	uint8_t kind; /* enum jfr_kind */
	bool flat; /* composite of varints, keys and bytes only */
	bool empty; /* composite whose values take no byte (no fields, or
		       only fields of such classes, nested) */
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
 * stack once (profile/jfr_build.c), across the file's chunks. */
struct jfr_build {
	struct priv *d;
	struct u64map strings, frames, stacks; /* content hash | 1 -> id + 1 */
	struct u64map event_names; /* name hash | 1 -> event + 1 */
	struct u64map thread_name; /* tid + 1 -> string id + 1 */
	uint64_t *period; /* per event: its sampling period, ns */
	uint8_t *prio; /* per event: CPU samples first, then ... */
	uint64_t *count; /* per event: its samples */
	size_t cap_period, cap_prio, cap_count;
	uint64_t dropped; /* samples of stack traces no pool defines */
};

/* One chunk of the file in memory (profile/jfr_read.c), what its events
 * are read with. */
struct jfr_chunk {
	const uint8_t *start, *events, *end;
	uint64_t start_nanos, start_ticks, tps;
	struct jfr_meta m;
	struct jfr_cp *cp;
	struct jfr_stacks *st;
	struct jfr_events *ev;
	char text[JFR_NAME_MAX]; /* scratch for texts of the pools */
};

/* Constant pools of one chunk (profile/jfr_cpool.c): what each keeps of
 * its entries, by the field names of the pool's class (at most 4). */
enum jfr_pool {
	JFR_P_STRING, /* the string */
	JFR_P_SYMBOL, /* string */
	JFR_P_CLASS, /* name (a Symbol key) */
	JFR_P_METHOD, /* type (a Class key), name, descriptor (Symbols) */
	JFR_P_THREAD, /* osName, osThreadId, javaName, javaThreadId */
	JFR_P_STACK, /* frames (where the array is, its bytes) */
	JFR_P_FTYPE, /* description */
	JFR_P_STATE, /* name */
	JFR_P_N
};

/* A value kept: a number or key, a string (its bytes in the chunk), or
 * where an array starts and its bytes. */
struct jfr_val {
	const uint8_t *p;
	uint64_t u; /* a number, a key; a string's pool key */
	uint32_t n; /* a string's length, an array's bytes */
	uint8_t enc; /* a string's encoding (JFR_S_*) */
	bool set;
};

struct jfr_cp;
struct jfr_cp *jfr_cp_new(const struct jfr_meta *m);
void jfr_cp_free(struct jfr_cp *cp);
/* A checkpoint event's body after its size and type. 0 or -1. */
int jfr_cp_read(struct jfr_cp *cp, struct jfr_cur *c);
/* The values kept of pool's entry key, or NULL; how many entries. */
const struct jfr_val *jfr_cp_get(const struct jfr_cp *cp, enum jfr_pool pool,
				 uint64_t key);
uint32_t jfr_cp_count(const struct jfr_cp *cp, enum jfr_pool pool);
/* Of a value of class k, the fields want[0..nv) (indexes, -1 none) into
 * out; the others skipped. */
int jfr_read_fields(const struct jfr_meta *m, struct jfr_cur *c, uint32_t k,
		    const int *want, struct jfr_val *out, uint32_t nv);
/* Texts, into buf: a string value, Symbol key's, Class key's name dotted
 * ("java/lang/String" is "java.lang.String"; its length returned). */
const char *jfr_cp_val_text(const struct jfr_cp *cp, const struct jfr_val *v,
			    char *buf, size_t cap);
const char *jfr_cp_symbol(const struct jfr_cp *cp, uint64_t key, char *buf,
			  size_t cap);
size_t jfr_cp_class(const struct jfr_cp *cp, uint64_t key, char *buf,
		    size_t cap);
/* Thread key's OS thread id and name (in buf; false: not defined). */
bool jfr_cp_thread(const struct jfr_cp *cp, uint64_t key, uint32_t *tid,
		   char *buf, size_t cap);
/* The text of a String pool key or a string value ("" when unknown). */
const char *jfr_cp_text(const struct jfr_cp *cp, const struct jfr_str *s,
			char *buf, size_t cap);

/* The stacks of one chunk's samples (profile/jfr_stack.c); c: the
 * reader's cursor, for messages and the chunk's budget. */
struct jfr_stacks;
struct jfr_stacks *jfr_stacks_new(const struct jfr_meta *m,
				  const struct jfr_cp *cp, struct jfr_cur *c);
void jfr_stacks_free(struct jfr_stacks *st);
/* The profile's stack id of stack trace key in *id, made on first use;
 * with a leaf frame naming class key leaf_class (0: none), the class
 * allocated or locked. 0; 1 when no pool defines the key (the sample is
 * dropped); -1 with the reason in the cursor's err. */
int jfr_stack(struct jfr_stacks *st, struct jfr_build *b, uint64_t key,
	      uint64_t leaf_class, uint32_t *id);

/* The event types of one chunk the profile takes (profile/jfr_event.c). */
struct jfr_events;
enum jfr_pass { JFR_PASS_NONE, JFR_PASS_FIRST, JFR_PASS_SAMPLES };
/* The chunk's event types, their fields' roles; NULL out of memory. */
struct jfr_events *jfr_events_new(const struct jfr_chunk *ch);
void jfr_events_free(struct jfr_events *ev);
/* The pass that reads events of type (settings first), with its index. */
enum jfr_pass jfr_event_pass(const struct jfr_events *ev, uint64_t type,
			     uint32_t *k);
/* Event k's body from c (after its size and type) into the profile. */
int jfr_event_read(struct jfr_chunk *ch, struct jfr_build *b, struct jfr_cur *c,
		   uint32_t k);

/* profile/jfr_build.c: the profile's string id of s[0..n), frame id, stack
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
void jfr_build_free(struct jfr_build *b);

/* profile/jfr_read.c: the JFR file open at fd (size bytes) into d. */
int profile_jfr_parse(struct priv *d, int fd, uint64_t size, char *err,
		      size_t errlen);

#endif

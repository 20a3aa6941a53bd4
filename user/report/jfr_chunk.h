/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing a JDK Flight Recorder chunk (format 2.0, as JDK 11+ and
 * async-profiler write it): the byte encodings, the framing of events, and
 * the chunk laid out as header, metadata event, events, checkpoint event.
 *
 * Integers inside events are JFR's varints (the header's "compressed
 * integers" flag: LEB128 up to 8 bytes, a ninth holding 8 bits); the
 * 68-byte chunk header is big-endian. A string is an encoding byte (0
 * null, 1 empty, 3 UTF-8 with a varint length). Every
 * event starts with its size (a varint that counts itself) and its type id.
 */
#ifndef PJ_USER_REPORT_JFR_CHUNK_H
#define PJ_USER_REPORT_JFR_CHUNK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JFR_HEADER_SIZE 68

/* A growing byte buffer; a failed allocation sets oom and drops writes. */
struct jfr_buf {
	uint8_t *d;
	size_t n, cap;
	bool oom;
};

void jfr_buf_free(struct jfr_buf *b);
void jfr_u8(struct jfr_buf *b, uint8_t v);
void jfr_be(struct jfr_buf *b, uint64_t v, unsigned int bytes);
void jfr_varint(struct jfr_buf *b, uint64_t v);
void jfr_raw(struct jfr_buf *b, const void *p, size_t n);
/* s as a JFR string: NULL as null, "" as empty, else UTF-8 (a byte of no
 * well-formed sequence as U+FFFD). */
void jfr_str(struct jfr_buf *b, const char *s);
void jfr_strn(struct jfr_buf *b, const char *s, size_t n);
/* s as the JDK writes a jdk.types.Symbol's string: always UTF-8 (encoding
 * 3, "" too), which async-profiler's converter requires. */
void jfr_symbol(struct jfr_buf *b, const char *s);

/* Starts an event of type id; returns where, for jfr_event_end(). */
size_t jfr_event_begin(struct jfr_buf *b, uint64_t type);
/* Writes the size of the event begun at `at` (moving its bytes if the
 * size needs more than the byte reserved). */
void jfr_event_end(struct jfr_buf *b, size_t at);

struct jfr_chunk_times {
	uint64_t start_nanos; /* wall clock, ns since the epoch */
	uint64_t duration_nanos;
	uint64_t start_ticks; /* the events' clock at start_nanos */
	uint64_t ticks_per_second;
};

/*
 * Writes one complete chunk to out: the header, then meta (the metadata
 * event), events, and cpool (the checkpoint event with the constant
 * pools). 0, or -1 on a write error.
 */
int jfr_chunk_write(FILE *out, const struct jfr_chunk_times *t,
		    const struct jfr_buf *meta, const struct jfr_buf *events,
		    const struct jfr_buf *cpool);

#endif

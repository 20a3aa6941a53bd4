/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A ring's PERF_RECORD_SAMPLE decoded once into a sample (record/sample.h):
 * its fields, the event index of its id, its weight (record/switchcost.h),
 * kernel addresses from the callchain, user addresses from the callchain,
 * the stack copy (unwind/) or the branch records (LBR), a tracepoint's
 * fields as text. Nothing is named or written here (record/emit.h does).
 * Counts bad records and how stacks ended.
 */
#ifndef PJ_USER_RECORD_DECODE_H
#define PJ_USER_RECORD_DECODE_H

#include <linux/perf_event.h>
#include <stdint.h>

#define DECODE_MAX_CHAIN 1024 /* callchain entries kept per sample */

/* The decoder's room: one sample's frames at a time. */
struct decoder {
	uint64_t k[DECODE_MAX_CHAIN]; /* kernel addresses */
	uint64_t u[DECODE_MAX_CHAIN]; /* user addresses */
	uint64_t f[DECODE_MAX_CHAIN]; /* the kernel's user chain */
	char tp[1024]; /* a tracepoint's fields */
};

struct recorder;
struct ring;
struct sample;

/* 0, or -1 for a record shorter than its fields say (counted). The
 * sample's arrays are valid until the next call. */
int decode_sample(struct recorder *rec, struct ring *r,
		  const struct perf_event_header *hdr, struct sample *out);

#endif

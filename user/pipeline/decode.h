/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A ring's PERF_RECORD_SAMPLE decoded once into a sample (pipeline/sample.h),
 * before its process is known: its fields, the event index of its id, the
 * clock counts its weight comes from (pipeline/switchcost.h), kernel and user
 * addresses from the callchain, a tracepoint's fields as text, whether it
 * is a switch-out. Its user frames come next (pipeline/userframes.h, with its
 * process's unwinder), in the arrays here. Nothing is named or written
 * here (pipeline/emit.h does). Counts bad records and how unwinding ended.
 */
#ifndef PJ_USER_PIPELINE_DECODE_H
#define PJ_USER_PIPELINE_DECODE_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>

#include "rings/perf_parse.h"
#include "unwind/unwind.h"

#define DECODE_MAX_CHAIN 1024 /* callchain entries kept per sample */

struct pj_event;
struct ring;
struct wall;
struct sample;
struct tp_decoder;

struct decode_stats {
	uint64_t bad_records;
	uint64_t unwind[UNWIND_NEND]; /* how CFI unwinding ended */
	struct unwind_counts unwc; /* by which path (unwind/rules.c) */
};

struct decoder {
	/* what samples are decoded with (recorder_init) */
	const struct pj_event *evs;
	unsigned int nevents;
	bool dwarf; /* -g dwarf: CFI preferred (unwind_join) */
	bool lbr; /* -g lbr: user frames from branch stacks (events/lbr.h) */
	/* a JVM's sample to be walked gets CFI only above its first JVM code,
	 * none when its pc is there (pipeline/userframes.c): its Java frames
	 * come from the walk, and the native frames below them are not kept
	 * (no --native-base, not --no-java) */
	bool walk_skips_cfi;
	struct tp_decoder *tp; /* tracepoint RAW -> text (events/tracepoint.h) */
	/* an off-CPU sample of a JVM (its event wall's) gets the copy of its
	 * Java frames, found with the JVM's code (its process's agent's, while
	 * it has one) */
	const struct wall *wall;
	struct decode_stats st;
	/* one sample's frames at a time */
	uint64_t k[DECODE_MAX_CHAIN]; /* kernel addresses */
	uint64_t u[DECODE_MAX_CHAIN]; /* user addresses */
	uint64_t f[DECODE_MAX_CHAIN]; /* the kernel's user chain */
	char tp_text[1024]; /* a tracepoint's fields */
	struct pj_raw_sample rs; /* the last sample decoded, in its ring */
};

/* 0, or -1 for a record shorter than its fields say (counted). The
 * sample's arrays are valid until the next call; its user frames are the
 * kernel's chain until pipeline/userframes.h unwinds them. */
int decode_sample(struct decoder *d, const struct ring *r,
		  const struct perf_event_header *hdr, struct sample *out);
/* A new file: its counts start again. */
void decode_new_file(struct decoder *d);

#endif

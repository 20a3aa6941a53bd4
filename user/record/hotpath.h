/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A ring record's way through the reader. A sample (record/hotpath.c) is
 * decoded (pipeline/decode.h), finds its process by the recorder's sample
 * owner (record/recorder.h: the targets' family, or -a's machine, where a
 * process is made at its first sample), gets its user frames by its
 * unwinder (pipeline/userframes.h), and is weighed (pipeline/switchcost.h); a
 * JVM's sample then waits for its Java walk (pipeline/cpuwalk.h), a
 * switch-out for the end of its wait (pipeline/wall.h), both in the pending
 * stage (pipeline/pending.h); any other is merged and written at once
 * (pipeline/emit.h). The records beside the samples (record/sideband.c) open
 * threads, name them, end waits, and count what was lost.
 */
#ifndef PJ_USER_RECORD_HOTPATH_H
#define PJ_USER_RECORD_HOTPATH_H

#include <linux/perf_event.h>

struct recorder;
struct ring;

/* A record of ring r, for the recorder ctx (ring_record_cb): a sample or
 * one beside them. */
void record_on_record(void *ctx, struct ring *r,
		      const struct perf_event_header *hdr);
/* A PERF_RECORD_SAMPLE of ring r. */
void record_on_sample(struct recorder *rec, struct ring *r,
		      const struct perf_event_header *hdr);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A ring record's way through the reader (record/hotpath.c): a sample is
 * decoded once (record/decode.h) and weighed (record/switchcost.h); a JVM's
 * sample then waits for its Java walk (record/cpuwalk.h), a switch-out for
 * the end of its wait (record/wall.h), both in the pending stage
 * (record/pending.h); any other is merged and written at once
 * (record/emit.h). Other records open threads, end waits, and count what
 * was lost.
 */
#ifndef PJ_USER_RECORD_HOTPATH_H
#define PJ_USER_RECORD_HOTPATH_H

#include <linux/perf_event.h>

struct ring;

/* A record of ring r, for the recorder ctx (ring_record_cb). */
void record_on_record(void *ctx, struct ring *r,
		      const struct perf_event_header *hdr);

#endif

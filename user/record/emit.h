/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The last stage of a sample: its frames merged once with its Java part
 * (record/merge.h, named through the symbolizer) into a stack of the file,
 * then the sample written and counted.
 */
#ifndef PJ_USER_RECORD_EMIT_H
#define PJ_USER_RECORD_EMIT_H

#include <stdbool.h>
#include <stdint.h>

#include "jvm/client.h"

struct recorder;
struct sample;

/* What a sample's wait brought: its Java frames, or why there are none. */
struct java_part {
	int status; /* enum agent_walk_status, or MERGE_NO_WALK */
	const struct java_frame *jf; /* innermost first */
	unsigned int nj;
	bool held; /* taken while the thread was held where its chain was
		      (record/merge.h) */
	bool at_sample; /* taken in the sample's own signal (record/merge.h) */
};

/*
 * The id of smp's stack merged with j (NULL: no walk), why as the marker at
 * the root (NULL: smp's own root, if any) and the frame leaf + 1 at the leaf
 * (0: none). *marker as merge_stack's.
 */
uint32_t emit_stack(struct recorder *rec, const struct sample *smp,
		    const struct java_part *j, const char *why, uint32_t leaf,
		    int *marker);
/* Writes smp with stack, and counts it. */
void emit_write(struct recorder *rec, struct sample *smp, uint32_t stack);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One sample's stack from its parts, leaf first: kernel frames, native frames
 * up to the first address in JVM-generated code, the agent's Java frames,
 * then the native frames below the Java part (thread entry, start_thread).
 * Without Java frames, JVM-generated code is named from the agent's code map
 * and a marker frame says why the Java stack is missing.
 */
#ifndef PJ_USER_MERGE_H
#define PJ_USER_MERGE_H

#include <stdint.h>

#include "jvm/client.h"
#include "sym/symbolize.h"

#define MERGE_MAX_FRAMES 4096

/* Walk status for samples with no walk requested. */
#define MERGE_NO_WALK (-1)

struct merge_in {
	const uint32_t *kframes; /* kernel frame ids, leaf first */
	unsigned int nk;
	const uint64_t *uips; /* user addresses, leaf first */
	unsigned int nu;
	const struct agent *agent; /* NULL for a native process */
	int walk_status; /* enum agent_walk_status, or MERGE_NO_WALK */
	const struct java_frame *jf; /* innermost first */
	unsigned int nj;
};

/* Writes the merged frame ids to out (at most max); returns how many. */
unsigned int merge_stack(struct symbolizer *s, const struct merge_in *in,
			 uint32_t *out, unsigned int max);
/* The marker frame's name for a failed walk status. */
const char *merge_marker_name(int status);

#endif

// SPDX-License-Identifier: GPL-2.0
/* Merging kernel, native and Java frames; see record/merge.h. */
#include <string.h>

#include "record/merge.h"
#include "profile/io.h"

const char *merge_marker_name(int status)
{
	switch (status) {
	case AGENT_WALK_NOT_WALKABLE:
		return "[java: not walkable]";
	case AGENT_WALK_TIMEOUT:
		return "[java: thread did not answer]";
	case AGENT_WALK_FAULT:
		return "[java: walk faulted]";
	case AGENT_WALK_GONE:
		return "[java: thread exited]";
	case AGENT_WALK_LOST:
		return "[java: agent gone]";
	default:
		return "[java frames unavailable]";
	}
}

static int code_kind(const struct merge_in *in, uint64_t ip, const char **name)
{
	return in->agent ? agent_code_at(in->agent, ip, name) : 0;
}

/* Whether every frame of uips[from..nu) names a real function. */
static int all_named(struct symbolizer *s, const struct merge_in *in,
		     unsigned int from)
{
	for (unsigned int i = from; i < in->nu; i++) {
		const char *n;
		bool known;

		if (code_kind(in, in->uips[i], &n))
			return 0;
		symbolize_user(s, in->uips[i], false, &known);
		if (!known)
			return 0;
	}
	return from < in->nu;
}

unsigned int merge_stack(struct symbolizer *s, const struct merge_in *in,
			 uint32_t *out, unsigned int max)
{
	unsigned int n = 0, i, first_vm = in->nu, last_vm = 0;
	const char *name;
	int kind;

#define PUT(id)                          \
	do {                             \
		if (n < max)             \
			out[n++] = (id); \
	} while (0)

	for (i = 0; i < in->nk; i++)
		PUT(in->kframes[i]);
	for (i = 0; i < in->nu; i++) {
		if (code_kind(in, in->uips[i], &name)) {
			if (first_vm == in->nu)
				first_vm = i;
			last_vm = i;
		}
	}
	/* Native frames above the first JVM-generated code. */
	for (i = 0; i < first_vm; i++)
		PUT(symbolize_user(s, in->uips[i], i == 0, NULL));

	if (in->walk_status == AGENT_WALK_OK && in->nj) {
		for (i = 0; i < in->nj; i++)
			PUT(pj_writer_frame(s->w, in->jf[i].type,
					    in->jf[i].name, "", in->jf[i].file,
					    in->jf[i].line));
		/*
		 * Below the Java part, the frame-pointer chain through JIT code
		 * is unreliable: keep what follows the last JVM-generated frame
		 * only when all of it names real functions (thread entry).
		 */
		if (first_vm < in->nu && all_named(s, in, last_vm + 1))
			for (i = last_vm + 1; i < in->nu; i++)
				PUT(symbolize_user(s, in->uips[i], false,
						   NULL));
		return n;
	}
	if (in->walk_status != MERGE_NO_WALK &&
	    in->walk_status != AGENT_WALK_NOT_JAVA)
		PUT(pj_writer_frame(s->w, PJ_FRAME_MARKER,
				    merge_marker_name(in->walk_status), "",
				    NULL, 0));
	for (i = first_vm; i < in->nu; i++) {
		kind = code_kind(in, in->uips[i], &name);
		if (kind)
			PUT(pj_writer_frame(s->w, kind, name, "", NULL, 0));
		else
			PUT(symbolize_user(s, in->uips[i], i == 0, NULL));
	}
	return n;
#undef PUT
}

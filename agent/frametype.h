/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PJ_AGENT_FRAMETYPE_H
#define PJ_AGENT_FRAMETYPE_H

#include "pja.h"

/* frametype.c: marks in frames[0..n-1] (the walk AsyncGetCallTrace gave
 * from pc, sp, fp) which ran interpreted and which compiled, from the
 * physical frames; the mark rides in a Java frame's lineno (its bci) above
 * PJA_SEEN_SHIFT until the session thread types the frames. Only reads;
 * call it inside the walk's fault protection. */
#define PJA_SEEN_SHIFT 24
#define PJA_SEEN_BCI_MAX (1 << PJA_SEEN_SHIFT)
#define PJA_SEEN_INTERPRETED 1
#define PJA_SEEN_COMPILED 2
void frametype_mark(struct asgct_frame *f, int n, uint64_t pc, uint64_t sp,
		    uint64_t fp);
/* Walks the physical Java frames from pc, sp, fp into f (at most depth),
 * marked as above: interpreter frames with their bci, compiled frames as
 * their own method. Returns the frames walked. Same rules. */
int frametype_walk(struct asgct_frame *f, int depth, uint64_t pc, uint64_t sp,
		   uint64_t fp);
/* The jmethodID of Method* m, checked to point back at m; NULL if none. An
 * interpreter frame's bci from its bcp in m; 0 when it is not in the code.
 * Same rules. */
jmethodID frametype_method_id(const void *m);
jint frametype_bci(const void *m, uint64_t bcp);

/* A copy of a stack: len bytes that stood at base. beyond is set when a
 * walk needed a word outside them; with live, such words are read from the
 * live stack instead. */
struct pja_stackview {
	uint64_t base, len;
	const uint8_t *bytes;
	int beyond;
	int live;
};
/* frametype_walk over the stack words of v instead of the live stack (the
 * JVM's structures are still read live), with each frame's pc in pcs[]
 * when not NULL. */
int frametype_walk_view(struct pja_stackview *v, struct asgct_frame *f,
			uint64_t *pcs, int depth, uint64_t pc, uint64_t sp,
			uint64_t fp);

#endif

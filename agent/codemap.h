/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PJ_AGENT_CODEMAP_H
#define PJ_AGENT_CODEMAP_H

#include "pja.h"

/* codemap.c: compiled code with inlining records, stubs, the interpreter. */
void codemap_add(const void *start, size_t size, jmethodID m,
		 const void *records, const char *stub_name, int c1);
void codemap_remove(const void *start, jmethodID m);
void codemap_reset(void);
/* Whether pc lies in the range of the JVM's generated code seen so far;
 * async-signal-safe. */
int codemap_in_range(uint64_t pc);
/* Whether pc lies in the interpreter's code; async-signal-safe. */
int codemap_in_interpreter(uint64_t pc);
/* A walk stepped out of its compiled top frame (frames[0] without a
 * method): that frame named from the code at pc, with the frames it
 * inlined there from the compiled method's inlining record at or after pc
 * (codemap.c, record_at), or the compiled method alone with bci 0 when it
 * has none. The callers move up; the deepest go past cap frames. Returns
 * the walk's new length. */
unsigned int codemap_top(uint64_t pc, struct asgct_frame *frames,
			 unsigned int n, unsigned int cap);
/* A walk AsyncGetCallTrace took at pc: when its top frames are those of the
 * compiled code at pc as named by the record after pc + 1 (its own rule),
 * they are named again from the record codemap_top takes, so that either
 * walker names a sample's code alike. The callers move as in codemap_top.
 * Returns the walk's new length. */
unsigned int codemap_retop(uint64_t pc, struct asgct_frame *frames,
			   unsigned int n, unsigned int cap);
/* vmwalk's raw slots raw[0..n) as frames, named and typed: a compiled frame
 * as the methods it inlined at its pc (its inlining record at or after the
 * interrupted pc for the top frame, at the return address for a caller)
 * down to itself, C1 or JIT, the others inlined; an interpreter frame
 * interpreted; a native method Java-native. Into out and types (PJ_FRAME_*),
 * at most cap; *truncated when cap cut it. Returns the count. */
unsigned int codemap_expand(const struct asgct_frame *raw, unsigned int n,
			    struct asgct_frame *out, uint8_t *types,
			    unsigned int cap, int *truncated);
/* Sets pja_frame types for frames[0..n-1] given the top frame's pc. */
void codemap_classify(uint64_t pc, struct asgct_frame *frames,
		      struct pja_frame *out, unsigned int n);

#endif

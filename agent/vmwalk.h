/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PJ_AGENT_VMWALK_H
#define PJ_AGENT_VMWALK_H

#include "pja.h"

/* vmwalk.c: the agent's own walk of the calling thread, from uc (its
 * signal context) and env (its JNIEnv), into f (cap slots) up to depth
 * frames: the number of slots, *truncated when either cut it (a compiled
 * frame takes two: cap should be twice depth); -1 where it is not sure of every
 * frame (AsyncGetCallTrace walks it instead). Slots: an interpreter frame
 * {bci | PJA_SEEN_INTERPRETED mark, method}, a native method's
 * {ASGCT_NATIVE_BCI, method}, a compiled frame {PJA_RAW_CODE, method} then
 * {PJA_RAW_PC, (jmethodID)pc} (the interrupted pc or a return address: both
 * named from the record at or after pc, codemap.c). Same rules as
 * frametype.c. */
#define PJA_RAW_CODE (-100)
#define PJA_RAW_PC (-102)
int vmwalk(JNIEnv *env, void *uc, struct asgct_frame *f, unsigned int cap,
	   unsigned int depth, int *truncated);
/* The return of every handler glibc installed (its restorer): a signal
 * frame's mark on the stack, which the walk steps over (ksig.c tells it
 * once, not in a handler). */
void vmwalk_restorer(uint64_t pc);

#endif

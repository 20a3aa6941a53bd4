/* SPDX-License-Identifier: GPL-2.0 */
/* alloc.c: sampled allocations. */
#ifndef PJ_AGENT_ALLOC_H
#define PJ_AGENT_ALLOC_H

#include "pja.h"

/* The callback of SampledObjectAlloc (a sampled allocation into jrec.c). */
void JNICALL alloc_sampled(jvmtiEnv *j, JNIEnv *env, jthread t, jobject o,
			   jclass k, jlong size);

#endif

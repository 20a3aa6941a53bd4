// SPDX-License-Identifier: GPL-2.0
/*
 * Sampled allocations (PJA_EV_ALLOC): JVMTI SampledObjectAlloc, which
 * HotSpot posts for one allocation in every interval of bytes on average
 * (a geometric draw per thread, JDK 11+), on the allocating thread, with
 * the object's class and size. The record names the class and carries the
 * size; the reader weighs it (pipeline/jevents.c).
 */
#include "perfjava/walk_ring.h"
#include "alloc.h"
#include "clock.h"
#include "jrec.h"
#include "vthread.h"

void JNICALL alloc_sampled(jvmtiEnv *j, JNIEnv *env, jthread t, jobject o,
			   jclass k, jlong size)
{
	struct pjw_event ev = { .kind = PJW_EV_ALLOC };

	if (!jrec_on(PJA_EV_ALLOC)) {
		jrec_stray();
		return;
	}
	if (size <= 0)
		return;
	ev.value = (uint64_t)size;
	ev.vthread = vthread_id(env, t);
	jrec_record(env, &ev, k, pja_now(), 0, NULL);
}

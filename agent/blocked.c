// SPDX-License-Identifier: GPL-2.0
/*
 * The Java stack of a thread blocked in the kernel (PJA_STACK), for the
 * reader's off-CPU intervals. No signal: a signal would wake the thread and
 * distort the very wait being measured. Instead the session thread calls
 * JVMTI GetStackTrace on it. A thread blocked or in native has its last Java
 * frame anchored and its Java frames cannot change until it returns; HotSpot
 * takes the stack of such a thread through a handshake that the caller
 * executes on the target's behalf (JvmtiEnv::GetStackTrace ->
 * Handshake::execute, JDK 17 and 25), so the target stays asleep.
 *
 * The thread object GetStackTrace takes comes from jthreads.c.
 */
#include <string.h>

#include "pja.h"
#include "blocked.h"
#include "clock.h"
#include "input.h"
#include "jthreads.h"
#include "methods.h"
#include "out.h"

static jvmtiFrameInfo jframes[PJA_MAX_DEPTH];
static struct asgct_frame raw[PJA_MAX_DEPTH];
static struct pja_frame out[PJA_MAX_DEPTH];

static void answer(JNIEnv *env, const struct pja_walk_req *r)
{
	jvmtiEnv *jv = pja.jvmti;
	struct pja_stack_result res = { .cookie = r->cookie,
					.switch_time = r->sample_time };
	jthread t = pja_valid_tid(r->tid) ? jthreads_ref(env, (pid_t)r->tid)
					  : NULL;
	jint n = 0, st = 0, i;
	jvmtiError e;

	res.status = PJA_WALK_NOT_JAVA;
	if (t) {
		res.start_time = pja_now();
		e = (*jv)->GetStackTrace(jv, t, 0, (jint)pja.depth, jframes,
					 &n);
		res.walk_time = pja_now();
		if (e == JVMTI_ERROR_THREAD_NOT_ALIVE)
			res.status = PJA_WALK_GONE;
		else if (e != JVMTI_ERROR_NONE)
			res.status = PJA_WALK_NOT_WALKABLE;
		else if (n > 0)
			res.status = PJA_WALK_OK;
		if (!(*jv)->GetThreadState(jv, t, &st))
			res.state = (uint32_t)st;
		(*env)->DeleteLocalRef(env, t);
	}
	if (res.status != PJA_WALK_OK || n < 0)
		n = 0;
	for (i = 0; i < n; i++) {
		raw[i].method = jframes[i].method;
		/* a native method's location is -1 */
		raw[i].lineno = jframes[i].location < 0
				    ? ASGCT_NATIVE_BCI
				    : (jint)jframes[i].location;
	}
	if (n >= (jint)pja.depth)
		res.flags |= PJA_WALK_TRUNCATED;
	/* no pc: each frame typed as a walk types its outer frames */
	method_frames(0, raw, out, (unsigned int)n);
	res.nframes = (uint32_t)n;
	out_msg(PJA_STACK_RESULT, &res, sizeof(res), out, n * sizeof(out[0]),
		NULL, 0);
}

int blocked_answer(JNIEnv *env, const char *p, uint32_t len)
{
	struct pja_walk_req r;

	if (!env)
		return 0;
	for (uint32_t i = 0; i + sizeof(r) <= len; i += sizeof(r)) {
		memcpy(&r, p + i, sizeof(r));
		answer(env, &r);
		if (out_flush())
			return -1;
	}
	return 0;
}

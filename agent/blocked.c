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
 * JVMTI knows threads as objects: tid -> global reference, kept from
 * ThreadStart (which runs on the new thread) and from the replay of the
 * threads that existed at attach (jvmti.c), dropped at ThreadEnd and at the
 * end of the session. The lock is never held across a JVMTI call that may
 * wait for another thread. The table is open from the session's start to
 * its end: a ThreadStart callback that checked the session was on just
 * before it ended adds nothing (its entry would outlive the session, and
 * the next one would take the thread as named already).
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "pja.h"
#include "input.h"

#define BT_MAX 65536 /* threads known at once, at most */

struct bthread {
	pid_t tid;
	jthread ref; /* a global reference */
};

static pthread_mutex_t bt_lock = PTHREAD_MUTEX_INITIALIZER;
static struct bthread *bt;
static size_t bt_n, bt_cap;
static bool bt_open; /* between blocked_open and blocked_reset */

static jvmtiFrameInfo jframes[PJA_MAX_DEPTH];
static struct asgct_frame raw[PJA_MAX_DEPTH];
static struct pja_frame out[PJA_MAX_DEPTH];

void blocked_thread_start(JNIEnv *env, jthread t, pid_t tid)
{
	jthread g, old = NULL;
	size_t i;

	if (!env || !t || tid <= 0 || !(g = (*env)->NewGlobalRef(env, t)))
		return;
	pthread_mutex_lock(&bt_lock);
	if (!bt_open) { /* the session has ended: not kept */
		pthread_mutex_unlock(&bt_lock);
		(*env)->DeleteGlobalRef(env, g);
		return;
	}
	for (i = 0; i < bt_n; i++)
		if (bt[i].tid == tid)
			break;
	if (i == bt_n && bt_n == bt_cap && bt_cap < BT_MAX) {
		size_t cap = bt_cap ? bt_cap * 2 : 256;
		struct bthread *p = realloc(bt, cap * sizeof(*p));

		if (p) {
			bt = p;
			bt_cap = cap;
		}
	}
	if (i < bt_n) {
		old = bt[i].ref;
		bt[i].ref = g;
	} else if (bt_n < bt_cap) {
		bt[bt_n].tid = tid;
		bt[bt_n++].ref = g;
	} else {
		old = g; /* no room: this thread's stacks are not answered */
	}
	pthread_mutex_unlock(&bt_lock);
	if (old)
		(*env)->DeleteGlobalRef(env, old);
}

void blocked_thread_end(JNIEnv *env, pid_t tid)
{
	jthread old = NULL;
	size_t i;

	pthread_mutex_lock(&bt_lock);
	for (i = 0; i < bt_n; i++)
		if (bt[i].tid == tid) {
			old = bt[i].ref;
			bt[i] = bt[--bt_n];
			break;
		}
	pthread_mutex_unlock(&bt_lock);
	if (old && env)
		(*env)->DeleteGlobalRef(env, old);
}

void blocked_open(void)
{
	pthread_mutex_lock(&bt_lock);
	bt_open = true;
	pthread_mutex_unlock(&bt_lock);
}

void blocked_reset(JNIEnv *env)
{
	pthread_mutex_lock(&bt_lock);
	bt_open = false;
	for (size_t i = 0; env && i < bt_n; i++)
		(*env)->DeleteGlobalRef(env, bt[i].ref);
	bt_n = 0;
	pthread_mutex_unlock(&bt_lock);
}

int blocked_known(pid_t tid)
{
	int known = 0;

	pthread_mutex_lock(&bt_lock);
	for (size_t i = 0; i < bt_n && !known; i++)
		known = bt[i].tid == tid;
	pthread_mutex_unlock(&bt_lock);
	return known;
}

/* A local reference to thread tid, or NULL when it is not known. */
static jthread find(JNIEnv *env, pid_t tid)
{
	jthread t = NULL;

	pthread_mutex_lock(&bt_lock);
	for (size_t i = 0; i < bt_n; i++)
		if (bt[i].tid == tid) {
			t = (*env)->NewLocalRef(env, bt[i].ref);
			break;
		}
	pthread_mutex_unlock(&bt_lock);
	return t;
}

static void answer(JNIEnv *env, const struct pja_walk_req *r)
{
	jvmtiEnv *jv = pja.jvmti;
	struct pja_stack_result res = { .cookie = r->cookie,
					.switch_time = r->sample_time };
	jthread t = pja_valid_tid(r->tid) ? find(env, (pid_t)r->tid) : NULL;
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

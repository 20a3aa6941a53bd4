// SPDX-License-Identifier: GPL-2.0
/*
 * The JVM's threads by tid, for JVMTI calls that take a thread object
 * (blocked.c's GetStackTrace): tid -> global reference, kept from
 * ThreadStart (which runs on the new thread) and from the replay of the
 * threads that existed at attach (events.c), dropped at ThreadEnd and at the
 * end of the session. The lock is never held across a JVMTI call that may
 * wait for another thread. The table is open from the session's start to
 * its end: a ThreadStart callback that checked the session was on just
 * before it ended adds nothing (its entry would outlive the session, and
 * the next one would take the thread as named already).
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "jthreads.h"

#define BT_MAX 65536 /* threads known at once, at most */

struct bthread {
	pid_t tid;
	jthread ref; /* a global reference */
};

static pthread_mutex_t bt_lock = PTHREAD_MUTEX_INITIALIZER;
static struct bthread *bt;
static size_t bt_n, bt_cap;
static bool bt_open; /* between jthreads_open and jthreads_reset */

void jthreads_start(JNIEnv *env, jthread t, pid_t tid)
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

void jthreads_end(JNIEnv *env, pid_t tid)
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

void jthreads_open(void)
{
	pthread_mutex_lock(&bt_lock);
	bt_open = true;
	pthread_mutex_unlock(&bt_lock);
}

void jthreads_reset(JNIEnv *env)
{
	pthread_mutex_lock(&bt_lock);
	bt_open = false;
	for (size_t i = 0; env && i < bt_n; i++)
		(*env)->DeleteGlobalRef(env, bt[i].ref);
	bt_n = 0;
	pthread_mutex_unlock(&bt_lock);
}

int jthreads_known(pid_t tid)
{
	int known = 0;

	pthread_mutex_lock(&bt_lock);
	for (size_t i = 0; i < bt_n && !known; i++)
		known = bt[i].tid == tid;
	pthread_mutex_unlock(&bt_lock);
	return known;
}

size_t jthreads_tids(pid_t *tids, size_t max)
{
	size_t n = 0;

	pthread_mutex_lock(&bt_lock);
	for (size_t i = 0; i < bt_n && n < max; i++)
		tids[n++] = bt[i].tid;
	pthread_mutex_unlock(&bt_lock);
	return n;
}

jthread jthreads_ref(JNIEnv *env, pid_t tid)
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

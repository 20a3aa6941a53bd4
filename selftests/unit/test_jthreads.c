// SPDX-License-Identifier: GPL-2.0
/*
 * The agent's table of the JVM's threads by tid (agent/jthreads.c)
 * through a JNI environment that counts references: a thread is kept from
 * the session's start to its end only, every global reference it took is
 * given back, a tid reused replaces its old thread.
 */
#include <string.h>

#include "jthreads.h"
#include "tap.h"

static int globals; /* global references held */

static jobject JNICALL new_global(JNIEnv *env, jobject o)
{
	globals++;
	return o;
}

static void JNICALL delete_global(JNIEnv *env, jobject o)
{
	globals--;
}

int main(void)
{
	struct JNINativeInterface_ fns;
	JNIEnv env = &fns;
	jthread t1 = (jthread)0x1000, t2 = (jthread)0x2000;

	memset(&fns, 0, sizeof(fns));
	fns.NewGlobalRef = new_global;
	fns.DeleteGlobalRef = delete_global;

	jthreads_open();
	jthreads_start(&env, t1, 11);
	jthreads_start(&env, t2, 12);
	ok(jthreads_known(11) && jthreads_known(12) && globals == 2,
	   "threads started in a session are kept (%d references)", globals);
	jthreads_start(&env, t2, 11);
	ok(jthreads_known(11) && globals == 2,
	   "a tid reused replaces its thread (%d references)", globals);
	jthreads_end(&env, 12);
	ok(!jthreads_known(12) && globals == 1,
	   "an ended thread is forgotten (%d references)", globals);
	jthreads_reset(&env);
	ok(!jthreads_known(11) && globals == 0,
	   "the session's end forgets every thread (%d references)", globals);
	/* a ThreadStart callback that saw the session on, late */
	jthreads_start(&env, t1, 13);
	ok(!jthreads_known(13) && globals == 0,
	   "a thread started after the session's end is not kept (%d "
	   "references)",
	   globals);
	jthreads_open();
	ok(!jthreads_known(13),
	   "the next session does not take it as named already");
	jthreads_reset(&env);
	return tap_done();
}

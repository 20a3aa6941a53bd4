// SPDX-License-Identifier: GPL-2.0
/*
 * The agent's table of threads for blocked-thread stacks (agent/blocked.c)
 * through a JNI environment that counts references: a thread is kept from
 * the session's start to its end only, every global reference it took is
 * given back, a tid reused replaces its old thread.
 */
#include <string.h>

#include "pja.h"
#include "tap.h"

struct pja pja;
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

/* blocked_answer's company in the agent, unused here */
int out_msg(uint32_t type, const void *a, size_t alen, const void *b,
	    size_t blen, const void *c, size_t clen)
{
	return 0;
}

int out_flush(void)
{
	return 0;
}

void method_frames(uint64_t pc, struct asgct_frame *raw, struct pja_frame *out,
		   unsigned int n)
{
}

int main(void)
{
	struct JNINativeInterface_ fns;
	JNIEnv env = &fns;
	jthread t1 = (jthread)0x1000, t2 = (jthread)0x2000;

	memset(&fns, 0, sizeof(fns));
	fns.NewGlobalRef = new_global;
	fns.DeleteGlobalRef = delete_global;

	blocked_open();
	blocked_thread_start(&env, t1, 11);
	blocked_thread_start(&env, t2, 12);
	ok(blocked_known(11) && blocked_known(12) && globals == 2,
	   "threads started in a session are kept (%d references)", globals);
	blocked_thread_start(&env, t2, 11);
	ok(blocked_known(11) && globals == 2,
	   "a tid reused replaces its thread (%d references)", globals);
	blocked_thread_end(&env, 12);
	ok(!blocked_known(12) && globals == 1,
	   "an ended thread is forgotten (%d references)", globals);
	blocked_reset(&env);
	ok(!blocked_known(11) && globals == 0,
	   "the session's end forgets every thread (%d references)", globals);
	/* a ThreadStart callback that saw the session on, late */
	blocked_thread_start(&env, t1, 13);
	ok(!blocked_known(13) && globals == 0,
	   "a thread started after the session's end is not kept (%d "
	   "references)",
	   globals);
	blocked_open();
	ok(!blocked_known(13),
	   "the next session does not take it as named already");
	blocked_reset(&env);
	return tap_done();
}

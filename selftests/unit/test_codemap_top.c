// SPDX-License-Identifier: GPL-2.0
/*
 * The agent's code map naming the top frame of a walk that stepped out of
 * compiled code (agent/codemap.c, codemap_top): the frames the compiled
 * method inlined at the sampled pc come from its JVMTI inlining record at
 * that pc (C2's record of the instruction just completed), or the next one;
 * without one, the method alone. And a walk AsyncGetCallTrace named by its
 * own rule (the record after pc + 1) named again by that one
 * (codemap_retop). Records built here as HotSpot hands them to
 * CompiledMethodLoad; method ids are made-up pointers.
 */
#include <stdint.h>
#include <string.h>

#include "codemap.h"
#include "frametype.h"
#include <jvmticmlr.h>
#include "perfjava/profile.h"
#include "tap.h"

#define M(x) ((jmethodID)(uintptr_t)(x))
#define ROOT M(0x100)
#define A M(0x200)
#define B M(0x300)
#define CALLER1 M(0x400)
#define CALLER2 M(0x500)

static jmethodID m1[] = { A, ROOT }, m2[] = { B, A, ROOT }, m3[] = { ROOT },
		 m4[] = { A, CALLER1 };
static jint b1[] = { 5, 10 }, b2[] = { 7, 20, 30 }, b3[] = { 40 },
	    b4[] = { 1, 2 };

/* a run of two identical records, then two others, at pcs in order */
static PCStackInfo pcs[] = {
	{ (void *)0x1010, 2, m1, b1 },
	{ (void *)0x1020, 2, m1, b1 },
	{ (void *)0x1080, 3, m2, b2 },
	{ (void *)0x1100, 1, m3, b3 },
};
static jvmtiCompiledMethodLoadInlineRecord rec = {
	{ JVMTI_CMLR_INLINE_INFO, JVMTI_CMLR_MAJOR_VERSION,
	  JVMTI_CMLR_MINOR_VERSION, NULL },
	4,
	pcs,
};

/* a method whose record does not end at it: never used */
static PCStackInfo bad_pcs[] = { { (void *)0x2010, 2, m4, b4 } };
static jvmtiCompiledMethodLoadInlineRecord bad_rec = {
	{ JVMTI_CMLR_INLINE_INFO, JVMTI_CMLR_MAJOR_VERSION,
	  JVMTI_CMLR_MINOR_VERSION, NULL },
	1,
	bad_pcs,
};

static struct asgct_frame f[8];

/* a recovered walk: no top method, two callers */
static unsigned int walk(uint64_t pc, unsigned int cap)
{
	memset(f, 0, sizeof(f));
	f[1] = (struct asgct_frame){ 3, CALLER1 };
	f[2] = (struct asgct_frame){ 4, CALLER2 };
	return codemap_top(pc, f, 3, cap);
}

static int is(unsigned int n, unsigned int want_n, const jmethodID *m,
	      const jint *b)
{
	if (n != want_n)
		return 0;
	for (unsigned int i = 0; i < n; i++)
		if (f[i].method != m[i] || f[i].lineno != b[i])
			return 0;
	return 1;
}

int main(void)
{
	unsigned int n;

	codemap_add((void *)0x1000, 0x400, ROOT, &rec, NULL, 0);
	codemap_add((void *)0x2000, 0x100, B, &bad_rec, NULL, 0);

	n = walk(0x1004, 8);
	ok(is(n, 4, (jmethodID[]){ A, ROOT, CALLER1, CALLER2 },
	      (jint[]){ 5, 10, 3, 4 }),
	   "before the first record: its inlined frame, then the method, then the callers");
	n = walk(0x1018, 8);
	ok(is(n, 4, (jmethodID[]){ A, ROOT, CALLER1, CALLER2 },
	      (jint[]){ 5, 10, 3, 4 }),
	   "inside a run of identical records: that record");
	n = walk(0x1020, 8);
	ok(is(n, 4, (jmethodID[]){ A, ROOT, CALLER1, CALLER2 },
	      (jint[]){ 5, 10, 3, 4 }),
	   "at a record's pc: that record (the instruction just completed)");
	n = walk(0x1021, 8);
	ok(is(n, 5, (jmethodID[]){ B, A, ROOT, CALLER1, CALLER2 },
	      (jint[]){ 7, 20, 30, 3, 4 }),
	   "just past it: the next one");
	n = walk(0x10ff, 8);
	ok(is(n, 3, (jmethodID[]){ ROOT, CALLER1, CALLER2 },
	      (jint[]){ 40, 3, 4 }),
	   "a record of the method alone");
	n = walk(0x1200, 8);
	ok(is(n, 3, (jmethodID[]){ ROOT, CALLER1, CALLER2 },
	      (jint[]){ 0, 3, 4 }),
	   "after the last record: the method alone, bci 0");
	n = walk(0x1021, 4);
	ok(is(n, 4, (jmethodID[]){ B, A, ROOT, CALLER1 },
	      (jint[]){ 7, 20, 30, 3 }),
	   "a full walk keeps the top and loses its deepest callers");
	memset(f, 0, sizeof(f));
	f[1] = (struct asgct_frame){ 3, CALLER1 };
	n = codemap_top(0x1021, f, 2, 2);
	ok(is(n, 2, (jmethodID[]){ B, A }, (jint[]){ 7, 20 }),
	   "a walk shorter than the inlining keeps the innermost frames");
	n = walk(0x2000, 8);
	ok(is(n, 3, (jmethodID[]){ B, CALLER1, CALLER2 }, (jint[]){ 0, 3, 4 }),
	   "a record that does not end at the compiled method is not used");
	n = walk(0x3000, 8);
	ok(is(n, 2, (jmethodID[]){ CALLER1, CALLER2 }, (jint[]){ 3, 4 }),
	   "code unloaded since: the callers alone");

	struct pja_frame out[8];

	n = walk(0x1021, 8);
	codemap_classify(0x1021, f, out, n);
	ok(out[0].type == PJ_FRAME_INLINED && out[1].type == PJ_FRAME_INLINED &&
	       out[2].type == PJ_FRAME_JIT,
	   "the frames it inlined are typed inlined, the method compiled");

	/* AsyncGetCallTrace at 0x1020 named the record at 0x1080 */
	memset(f, 0, sizeof(f));
	f[0] = (struct asgct_frame){ 7, B };
	f[1] = (struct asgct_frame){ 20, A };
	f[2] = (struct asgct_frame){ 30 | PJA_SEEN_COMPILED << PJA_SEEN_SHIFT,
				     ROOT };
	f[3] = (struct asgct_frame){ 3, CALLER1 };
	n = codemap_retop(0x1020, f, 4, 8);
	ok(is(n, 3, (jmethodID[]){ A, ROOT, CALLER1 },
	      (jint[]){ 5, 10 | PJA_SEEN_COMPILED << PJA_SEEN_SHIFT, 3 }),
	   "AsyncGetCallTrace's top frames named again from the record at pc, the walk's marks kept");
	memset(f, 0, sizeof(f));
	f[0] = (struct asgct_frame){ 40, ROOT };
	f[1] = (struct asgct_frame){ 3, CALLER1 };
	f[2] = (struct asgct_frame){ 4, CALLER2 };
	n = codemap_retop(0x1080, f, 3, 4);
	ok(is(n, 4, (jmethodID[]){ B, A, ROOT, CALLER1 },
	      (jint[]){ 7, 20, 30, 3 }),
	   "a longer chain at pc: the deepest callers go past cap");
	f[0] = (struct asgct_frame){ 8, B };
	f[1] = (struct asgct_frame){ 20, A };
	f[2] = (struct asgct_frame){ 30, ROOT };
	n = codemap_retop(0x1020, f, 3, 8);
	ok(is(n, 3, (jmethodID[]){ B, A, ROOT }, (jint[]){ 8, 20, 30 }),
	   "frames that are not that record's are left as they are");
	f[0] = (struct asgct_frame){ 5, A };
	f[1] = (struct asgct_frame){ 10, ROOT };
	n = codemap_retop(0x1018, f, 2, 8);
	ok(is(n, 2, (jmethodID[]){ A, ROOT }, (jint[]){ 5, 10 }),
	   "no record at pc: both rules agree, nothing moves");
	codemap_reset();
	return tap_done();
}

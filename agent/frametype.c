// SPDX-License-Identifier: GPL-2.0
/*
 * Which frames of a walk ran interpreted, and which compiled, seen on the
 * stack itself rather than guessed from whether the method has compiled code
 * now (a method compiled while an old activation of it still runs in the
 * interpreter is interpreted in that frame).
 *
 * AsyncGetCallTrace gives methods and bcis, not frames. Beside it, this
 * walks the physical frames from where it started: an interpreter frame
 * (pc in the interpreter's code) holds its Method* at fp[-3] and its caller's
 * sp at fp[-1], its return address at fp[1]; a compiled frame or a stub has
 * the size its code blob gives (gHotSpotVMStructs), an nmethod its Method*.
 * Each physical Java frame is then matched to the walk's frames by Method*
 * (a jmethodID points at its Method*): an interpreter frame to exactly the
 * next one, an nmethod to the next one of its method after at most
 * FT_MAX_INLINE frames it inlined. The walk stops at the first frame it
 * cannot read or match (a call stub, a native frame); the frames below keep
 * the code map's typing.
 *
 * Runs in the signal handler inside the walk's fault protection: only reads,
 * no locks, no allocation.
 */
#include "pja.h"

#define FT_MAX_INLINE 16
#define FT_MAX_FRAME (1u << 20) /* bytes between a frame's sp and fp */

static const void *method_of(const struct asgct_frame *f)
{
	/* a jmethodID is a pointer to its Method* slot */
	return f->method ? *(const void *const *)f->method : NULL;
}

/* Matches frame kind k with method m at or after *i; 0 when it does not. */
static int match(struct asgct_frame *f, int n, int *i, const void *m, int k)
{
	int j, last = k == PJA_SEEN_INTERPRETED ? *i : *i + FT_MAX_INLINE;

	if (!m)
		return 0;
	for (j = *i; j < n && j <= last; j++)
		if (method_of(&f[j]) == m)
			break;
	if (j >= n || j > last)
		return 0;
	if (f[j].lineno >= 0 && f[j].lineno < PJA_SEEN_BCI_MAX)
		f[j].lineno |= k << PJA_SEEN_SHIFT;
	*i = j + 1;
	return 1;
}

void frametype_mark(struct asgct_frame *f, int n, uint64_t pc, uint64_t sp,
		    uint64_t fp)
{
	int i = 0, steps;

	for (steps = 0; i < n && steps < 2 * n + 8; steps++) {
		const uint64_t *s, *p;
		const void *m;
		int size;

		if (!pc || !sp || sp & 7)
			return;
		if (codemap_in_interpreter(pc)) {
			if (fp <= sp || fp - sp > FT_MAX_FRAME || fp & 7)
				return;
			p = (const uint64_t *)fp;
			if (!match(f, n, &i, (const void *)p[-3],
				   PJA_SEEN_INTERPRETED))
				return;
			pc = p[1];
			sp = p[-1];
			fp = p[0];
			continue;
		}
		if (!codemap_in_range(pc))
			return;
		size = vmstructs_code_frame(pc, &m);
		if (!size)
			return;
		if (m && !match(f, n, &i, m, PJA_SEEN_COMPILED))
			return;
		s = (const uint64_t *)sp + size;
		pc = s[-1];
		fp = s[-2];
		sp = (uint64_t)s;
	}
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * -g lbr: user call stacks from the CPU's last branch records in call-stack
 * mode (PERF_SAMPLE_BRANCH_STACK), for code without frame pointers. The
 * kernel keeps, per sample, the calls that have not returned yet, innermost
 * first: entry i's `from` is a call site, entry 0's `to` is the entry of the
 * function the sample hit.
 */
#ifndef PJ_USER_LBR_H
#define PJ_USER_LBR_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

#include "events/spec.h"

/* What -g lbr asks of the kernel. */
#define LBR_BRANCH_SAMPLE_TYPE                                     \
	(PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK | \
	 PERF_SAMPLE_BRANCH_NO_FLAGS | PERF_SAMPLE_BRANCH_NO_CYCLES)

/*
 * Whether -g lbr can work with these events on this machine: a CPU PMU
 * with branch records, hardware events only. 0, or -1 with a one-line reason
 * and what to use instead in err.
 */
int lbr_check(const struct pj_event *evs, unsigned int n, char *err,
	      size_t errlen);
/*
 * The user frames of one sample, leaf first, into out (at most max): the
 * sampled address when it is a user one (else the entry of the innermost
 * function), then every call site. Returns how many.
 */
unsigned int lbr_user_frames(uint64_t ip, const struct perf_branch_entry *br,
			     uint64_t nbr, uint64_t *out, unsigned int max);

#endif

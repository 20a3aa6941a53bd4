/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sample's user frames, the stage after its process was found
 * (record/hotpath.c): CFI by that process's unwinder over the sample's
 * stack copy (pipeline/ustack.h, unwind/), joined with the kernel's chain
 * where the copy ends, or the branch records with -g lbr; an off-CPU
 * sample of a JVM's thread also gets the copy of its Java frames. Works in
 * the decoder's arrays, on the record decode_sample decoded last (still in
 * its ring), and counts how unwinding ended in the decoder's statistics.
 */
#ifndef PJ_USER_PIPELINE_USERFRAMES_H
#define PJ_USER_PIPELINE_USERFRAMES_H

struct decoder;
struct proc;
struct sample;

/* out's user frames, by the unwinder of its process p (NULL: none, the
 * kernel's chain stays) or its branch records. */
void userframes_of(struct decoder *d, const struct proc *p, struct sample *out);

#endif

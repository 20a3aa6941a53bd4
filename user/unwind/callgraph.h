/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How `record` gets user call stacks (-g): the default joins CFI over a small
 * stack copy with the kernel's frame-pointer chain; fp is the kernel's chain
 * alone; lbr the branch records; dwarf[,SIZE] CFI over a SIZE-byte copy.
 */
#ifndef PJ_USER_UNWIND_CALLGRAPH_H
#define PJ_USER_UNWIND_CALLGRAPH_H

#include <stddef.h>
#include <stdint.h>

enum cg_mode { CG_DEFAULT, CG_FP, CG_LBR, CG_DWARF };

#define CG_DEFAULT_COPY 1024 /* the default mode's stack copy, bytes */
#define CG_DWARF_COPY 8192 /* -g dwarf without SIZE, as perf */
#define CG_MAX_COPY 65528 /* the largest copy a sample can hold */

struct callgraph {
	enum cg_mode mode;
	uint32_t stack_size; /* bytes of user stack per sample, 0 for none */
};

/* arg NULL: the default. -1 with a one-line message in err when bad. */
int callgraph_parse(const char *arg, struct callgraph *cg, char *err,
		    size_t errsz);
/* The fewest ring pages (a power of two) that hold two samples with this
 * stack copy: the kernel drops, without a word, a sample its ring cannot
 * hold. */
unsigned int callgraph_min_pages(const struct callgraph *cg);
/* "fp+cfi", "fp", "lbr", "dwarf" */
const char *callgraph_name(const struct callgraph *cg);

#endif

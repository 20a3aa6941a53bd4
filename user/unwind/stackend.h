/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the user part of stacks stopped: at a thread's entry (complete), or
 * early in some object, which is then most likely built without frame
 * pointers. The recorder tells the user which object, and that -g dwarf
 * unwinds through it.
 */
#ifndef PJ_USER_UNWIND_STACKEND_H
#define PJ_USER_UNWIND_STACKEND_H

#include <stdint.h>
#include <stdio.h>

#include "unwind/callgraph.h"
#include "unwind/unwind.h"

#define STACK_ENDS_MAX 16

struct stack_ends {
	uint64_t total; /* stacks with user frames */
	uint64_t early; /* of which stopped inside a file, not at an entry */
	struct {
		/* a copy: a process's names go with it (record -a) */
		char module[256];
		uint64_t n;
	} v[STACK_ENDS_MAX];
};

/* Counts one stack whose outermost user frame is in module (a path for
 * files; "[anon]", "[unknown]" for JIT code and the like): a thread's first
 * function (entry), or not. */
void stack_ends_note(struct stack_ends *e, bool entry, const char *module);
/* The object where most stacks stopped early (and the share of stacks),
 * when more than half of them did; NULL otherwise. */
const char *stack_ends_culprit(const struct stack_ends *e, double *share);
/* The summary lines: how CFI unwinding ended (unwind[] by enum unwind_end,
 * for modes that unwind), and the advice to use -g dwarf when stacks stop
 * early in some object, or a larger ring when -g dwarf lost records. */
void stack_ends_print(FILE *f, const struct stack_ends *e,
		      const uint64_t *unwind, const struct callgraph *cg,
		      uint64_t lost);

#endif

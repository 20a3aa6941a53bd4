// SPDX-License-Identifier: GPL-2.0
/* Where stacks stopped; see unwind/stackend.h. */
#include <stdio.h>
#include <string.h>

#include "lib/text.h"
#include "unwind/stackend.h"

void stack_ends_note(struct stack_ends *e, bool entry, const char *module)
{
	unsigned int i;

	e->total++;
	/* JIT code: the Java part continues the stack. */
	if (!module || module[0] != '/' || entry)
		return;
	e->early++;
	for (i = 0; i < STACK_ENDS_MAX && e->v[i].module[0]; i++)
		if (!strncmp(e->v[i].module, module,
			     sizeof(e->v[i].module) - 1))
			break;
	if (i == STACK_ENDS_MAX)
		return;
	if (!e->v[i].module[0])
		snprintf(e->v[i].module, sizeof(e->v[i].module), "%s", module);
	e->v[i].n++;
}

const char *stack_ends_culprit(const struct stack_ends *e, double *share)
{
	unsigned int i, best = 0;

	if (!e->total || e->early * 2 <= e->total)
		return NULL;
	for (i = 1; i < STACK_ENDS_MAX && e->v[i].module[0]; i++)
		if (e->v[i].n > e->v[best].n)
			best = i;
	if (!e->v[best].module[0])
		return NULL;
	*share = 100.0 * e->v[best].n / e->total;
	return e->v[best].module;
}

void stack_ends_print(FILE *f, const struct stack_ends *e,
		      const uint64_t *unwind, const struct callgraph *cg,
		      uint64_t lost)
{
	uint64_t n = 0;
	const char *culprit;
	double share;

	for (unsigned int i = 0; i < UNWIND_NEND; i++)
		n += unwind[i];
	if (n && cg->mode == CG_DWARF)
		fprintf(f,
			"perfjava: dwarf: %llu stacks complete, %llu cut by "
			"the %u-byte stack copy (%s), %llu "
			"stopped for lack of CFI, %llu damaged, %llu without "
			"a stack copy\n",
			(unsigned long long)unwind[UNWIND_COMPLETE],
			(unsigned long long)unwind[UNWIND_CUT], cg->stack_size,
			cg->stack_size < CG_MAX_COPY
			    ? "try -g dwarf,SIZE"
			    : "the most a sample holds; the kernel's chain "
			      "goes on",
			(unsigned long long)unwind[UNWIND_NO_CFI],
			(unsigned long long)unwind[UNWIND_BAD],
			(unsigned long long)unwind[UNWIND_NO_COPY]);
	if (lost && cg->mode == CG_DWARF)
		fprintf(
		    f,
		    "perfjava: records were lost: %u-byte stack copies fill "
		    "the rings; give more pages per thread (-m 256) or copy "
		    "less (-g dwarf,4096)\n",
		    cg->stack_size);
	culprit = stack_ends_culprit(e, &share);
	if (culprit && cg->mode != CG_DWARF && cg->mode != CG_LBR) {
		char path[512];

		/* The target's path: printed only once made safe. */
		snprintf(path, sizeof(path), "%s", culprit);
		text_clean(path, strlen(path));
		fprintf(f,
			"perfjava: %.0f%% of stacks end in %s, which keeps no "
			"frame pointers; -g dwarf unwinds through it\n",
			share, path);
	}
}

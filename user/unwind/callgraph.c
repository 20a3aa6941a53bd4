// SPDX-License-Identifier: GPL-2.0
/* Parsing -g; see unwind/callgraph.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unwind/callgraph.h"

int callgraph_parse(const char *arg, struct callgraph *cg, char *err,
		    size_t errsz)
{
	unsigned long long v;
	char *end;

	cg->mode = CG_DEFAULT;
	cg->stack_size = CG_DEFAULT_COPY;
	if (!arg)
		return 0;
	if (!strcmp(arg, "fp") || !strcmp(arg, "lbr")) {
		cg->mode = arg[0] == 'f' ? CG_FP : CG_LBR;
		cg->stack_size = 0;
		return 0;
	}
	if (strncmp(arg, "dwarf", 5) || (arg[5] && arg[5] != ',')) {
		snprintf(
		    err, errsz,
		    "call graph '%.64s' is not supported; use -g fp, -g lbr "
		    "or -g dwarf[,SIZE]",
		    arg);
		return -1;
	}
	cg->mode = CG_DWARF;
	cg->stack_size = CG_DWARF_COPY;
	if (!arg[5])
		return 0;
	errno = 0;
	v = strtoull(arg + 6, &end, 0);
	if (errno || end == arg + 6 || *end || arg[6] == '-' || !v ||
	    v > CG_MAX_COPY) {
		snprintf(err, errsz,
			 "-g dwarf,SIZE: SIZE is the bytes of stack copied per "
			 "sample, 8 to %d (not '%.32s')",
			 CG_MAX_COPY, arg + 6);
		return -1;
	}
	/* The kernel takes multiples of 8 only. */
	cg->stack_size = (uint32_t)((v + 7) & ~7ull);
	return 0;
}

unsigned int callgraph_min_pages(const struct callgraph *cg)
{
	/* the copy, plus room for the rest of a sample (callchain, regs) */
	uint64_t need = 2 * ((uint64_t)cg->stack_size + 2048);
	unsigned int pages = 1;

	while ((uint64_t)pages * 4096 < need)
		pages *= 2;
	return pages;
}

const char *callgraph_name(const struct callgraph *cg)
{
	switch (cg->mode) {
	case CG_FP:
		return "fp";
	case CG_LBR:
		return "lbr";
	case CG_DWARF:
		return "dwarf";
	default:
		return "fp+cfi";
	}
}

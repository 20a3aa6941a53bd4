/* SPDX-License-Identifier: GPL-2.0 */
/* Inside user/unwind/: the unwinder's state, shared by its files. */
#ifndef PJ_USER_UNWIND_INTERNAL_H
#define PJ_USER_UNWIND_INTERNAL_H

#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "sym/maps.h"
#include "unwind/unwind.h"

struct unwinder {
	pid_t pid;
	int rootfd; /* its root (/proc/PID/root), -1 when gone */
	Dwfl *dwfl;
	Dwfl_Callbacks cb;
	bool attached; /* dwfl_attach_state done */
	/* The architecture the process state is attached with: an ELF header
	 * of our own, not a module's (a module's goes when it is unmapped) */
	Elf64_Ehdr arch_hdr;
	Elf *arch;
	struct pj_maps maps; /* what the modules were reported from */
	unsigned int nmodules, reloads;
	void *vdso; /* the [vdso] image libdw reads (kept until dwfl_end) */
	size_t vdso_len;
	uint64_t last_reload_ns;
	uint64_t reload_gap; /* RELOAD_NS, doubled while reloads find nothing */
	bool want_reload; /* a pc outside every mapping was seen */
	uint64_t missed; /* the latest such pc */
	/* The sample being unwound. */
	pid_t tid;
	const uint64_t *regs;
	const uint8_t *stack;
	uint64_t sp;
	size_t len;
	bool read_beyond; /* a read past the copied stack */
};

/* Files given CFI, at most (libdw's report is linear in the modules). */
#define UNWIND_MAX_MODULES 2048

/* unwind/modules.c: (re)reports the process's mapped files to u->dwfl. */
int unwind_report_modules(struct unwinder *u);
/* Whether addr is inside a mapping of the last maps read. */
bool unwind_addr_mapped(const struct unwinder *u, uint64_t addr);
extern const Dwfl_Callbacks unwind_dwfl_callbacks;

#endif

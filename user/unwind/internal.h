/* SPDX-License-Identifier: GPL-2.0 */
/* Inside user/unwind/: the unwinder's state, shared by its files. */
#ifndef PJ_USER_UNWIND_INTERNAL_H
#define PJ_USER_UNWIND_INTERNAL_H

#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <string.h>

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
	/* The fast path's rows (rules.c), and its counts. */
	struct unwind_rule *rules;
	unsigned int nrules;
	uint64_t rule_looks, rule_misses; /* since the table's last check */
	bool check; /* PERFJAVA_UNWIND_CHECK: libdw too, compared */
	struct unwind_counts counts;
};

/* One sample's unwind in progress: libdw's callback and the fast path
 * both give each frame to unwind_take. */
struct unwind_walk {
	struct unwinder *u;
	struct unwind_out *out;
	uint64_t last_sp;
	bool looped, stopped;
};

/* The frame at pc (its sp when have_sp, else the last one; bp 0 when not
 * known) into the walk: DWARF_CB_OK to go on, DWARF_CB_ABORT to end. */
int unwind_take(struct unwind_walk *w, uint64_t pc, bool have_sp, uint64_t sp,
		uint64_t bp);

/* libdw's memory callback: the stack word at addr from the copy; false
 * (and read_beyond set) when the copy does not hold it. */
static inline bool unwind_read(struct unwinder *u, uint64_t addr, uint64_t *v)
{
	if (u->len >= 8 && addr >= u->sp && addr - u->sp <= u->len - 8) {
		memcpy(v, u->stack + (addr - u->sp), 8);
		return true;
	}
	u->read_beyond = true;
	return false;
}

/* unwind/rules.c: the sample as dwfl_getthread_frames would unwind it,
 * from dw, its return value; UNWIND_FAST_NO when a row needs libdw (the
 * walk is then to be done again by libdw from the start). */
#define UNWIND_FAST_NO (-1000)
int unwind_fast(struct unwinder *u, struct unwind_walk *w, const uint64_t *dw);
/* The modules changed: every row kept goes. */
void unwind_rules_flush(struct unwinder *u);

/* Files given CFI, at most (libdw's report is linear in the modules). */
#define UNWIND_MAX_MODULES 2048

/* unwind/modules.c: (re)reports the process's mapped files to u->dwfl. */
int unwind_report_modules(struct unwinder *u);
/* Whether addr is inside a mapping of the last maps read. */
bool unwind_addr_mapped(const struct unwinder *u, uint64_t addr);
extern const Dwfl_Callbacks unwind_dwfl_callbacks;

#endif

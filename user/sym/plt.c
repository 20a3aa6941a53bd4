// SPDX-License-Identifier: GPL-2.0
/*
 * Names for the entries of an x86-64 file's procedure linkage table, as perf
 * gives them ("write@plt"): a sample taken in an entry (the jump to a library
 * function, the lazy binder's push) is named by the function it reaches,
 * instead of [unknown].
 *
 * No entry order is assumed (.plt with its lazy-binding header, .plt.sec of
 * IBT-enabled files, .plt.got of functions bound at load all differ): each
 * entry's indirect jump "jmp *disp32(%rip)" gives the GOT slot it goes
 * through, and the relocation that fills that slot (.rela.plt JUMP_SLOT or
 * .rela.dyn GLOB_DAT) names its symbol. Every count and offset read from the
 * file is checked; the sections were bounded when the file was opened
 * (sym/elf_open.c).
 */
#include <elf.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "sym/elf_funcs.h"
#include "sym/plt.h"

#define PLT_MAX_SLOTS 65536 /* relocations considered; more is no real file */

struct slot {
	uint64_t got; /* the GOT slot's address */
	const char *name; /* libelf's string: valid while elf is open */
};

struct slots {
	struct slot *v;
	unsigned int n, cap;
};

static int cmp_slot(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	return x->got < y->got ? -1 : x->got > y->got;
}

static int add_slot(void *ctx, uint64_t got, const char *name)
{
	struct slots *s = ctx;

	if (GROW(s->v, s->cap, s->n + 1))
		return -1;
	s->v[s->n++] = (struct slot){ got, name };
	return 0;
}

/* The GOT slots that JUMP_SLOT and GLOB_DAT relocations fill, with their
 * symbol names, sorted (the relocations read in pieces: libjvm.so has
 * 2.4 MB of them, nearly all RELATIVE). */
static int read_slots(Elf *elf, int fd, struct slots *s)
{
	if (elf_slots(elf, fd, PLT_MAX_SLOTS, add_slot, s))
		return -1;
	if (s->n)
		qsort(s->v, s->n, sizeof(*s->v), cmp_slot);
	return 0;
}

static const char *slot_name(const struct slots *s, uint64_t got)
{
	struct slot key = { got, NULL };
	const struct slot *f;

	f = s->n ? bsearch(&key, s->v, s->n, sizeof(*s->v), cmp_slot) : NULL;
	return f ? f->name : NULL;
}

/* The GOT slot an entry's first "jmp *disp32(%rip)" goes through (after an
 * endbr64 or a bnd prefix), or 0. */
static uint64_t entry_slot(const uint8_t *p, size_t len, uint64_t addr)
{
	for (size_t k = 0; k + 6 <= len && k <= 6; k++)
		if (p[k] == 0xff && p[k + 1] == 0x25) {
			int32_t disp;

			memcpy(&disp, p + k + 2, 4);
			return addr + k + 6 + (int64_t)disp;
		}
	return 0;
}

static bool is_plt(const char *name)
{
	return name && (!strcmp(name, ".plt") || !strcmp(name, ".plt.sec") ||
			!strcmp(name, ".plt.got"));
}

int plt_symbols(Elf *elf, int fd, plt_add_fn add, void *ctx)
{
	struct slots s = { 0 };
	size_t shstrndx = 0;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	char name[300];
	int r = 0;

	if (!gelf_getehdr(elf, &eh) || eh.e_machine != EM_X86_64 ||
	    elf_getshdrstrndx(elf, &shstrndx) || !shstrndx)
		return 0;
	if (read_slots(elf, fd, &s)) {
		free(s.v);
		return -1;
	}
	while (s.n && !r && (scn = elf_nextscn(elf, scn))) {
		uint64_t step, off;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) ||
		    !is_plt(elf_strptr(elf, shstrndx, sh.sh_name)))
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || d->d_size > sh.sh_size)
			continue;
		step = sh.sh_entsize >= 8 && sh.sh_entsize <= 32 ? sh.sh_entsize
								 : 16;
		for (off = 0; off + step <= d->d_size && !r; off += step) {
			uint64_t got =
			    entry_slot((const uint8_t *)d->d_buf + off, step,
				       sh.sh_addr + off);
			const char *fn = got ? slot_name(&s, got) : NULL;

			if (!fn)
				continue; /* the lazy binder's header, padding */
			snprintf(name, sizeof(name), "%.*s@plt",
				 (int)strcspn(fn, "@"), fn);
			r = add(ctx, sh.sh_addr + off, step, name);
		}
	}
	free(s.v);
	return r;
}

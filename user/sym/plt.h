/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERFJAVA_SYM_PLT_H
#define PERFJAVA_SYM_PLT_H

#include <gelf.h>
#include <stdint.h>

/* Called for each named PLT entry; nonzero stops (and is returned). */
typedef int (*plt_add_fn)(void *ctx, uint64_t start, uint64_t size,
			  const char *name);

/* Names every procedure linkage table entry of an x86-64 ELF file
 * "function@plt" through add; fd (-1: none) is the file elf reads (its
 * relocations read in pieces: sym/elf_funcs.h). Returns 0, -1 on
 * allocation failure, or add's nonzero. Other machines have none named
 * (0). */
int plt_symbols(Elf *elf, int fd, plt_add_fn add, void *ctx);

#endif

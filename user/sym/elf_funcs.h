/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The function symbols of an ELF file's symbol tables, read in pieces.
 *
 * A big table is not held whole: libjvm.so's .symtab and .strtab (4 MB)
 * read whole into fresh memory cost more in page faults than everything
 * else its table needs, and made the reader's peak RSS at -a. A 64-bit
 * little-endian file open on an fd is read 48 KiB of symbols at a time, its
 * names through two 64 KiB windows on the string table (read whole only
 * when its names come in an order the windows cannot follow, past a
 * budget: sym/elf_funcs.c); any other (a 32-bit file, an image in memory)
 * through libelf as before. A name longer than a window is dropped. Every
 * offset and length is checked against its table: a damaged or shrinking
 * file gives fewer symbols, never a read outside what was checked at open
 * (sym/elf_open.h).
 */
#ifndef PJ_USER_ELF_FUNCS_H
#define PJ_USER_ELF_FUNCS_H

#include <gelf.h>
#include <stddef.h>
#include <stdint.h>

/* One function: its start and size (0: not given), the end of the section
 * holding it (0: none), its binding, and its name without its version
 * ("write@GLIBC_2.2.5" is "write", len 5; not NUL-terminated at len). 0 to
 * go on, -1 to stop (out of memory). */
typedef int (*elf_func_fn)(void *ctx, uint64_t start, uint64_t size,
			   uint64_t sec_end, int bind, const char *name,
			   size_t len);

/*
 * fn for each defined function (STT_FUNC, STT_GNU_IFUNC) of a nonzero
 * address and a name in the sections of elf of type (SHT_SYMTAB,
 * SHT_DYNSYM); fd (-1: none) is the file elf reads. The number given, or
 * -1 when fn stopped or memory ran out.
 */
int elf_funcs(Elf *elf, int fd, unsigned int type, elf_func_fn fn, void *ctx);

/* One GOT slot that a relocation fills (JUMP_SLOT, GLOB_DAT) and the name
 * of its symbol (libelf's string: valid while elf is open). 0 to go on, -1
 * to stop. */
typedef int (*elf_slot_fn)(void *ctx, uint64_t got, const char *name);

/* fn for each such relocation of the SHT_RELA sections bound to .dynsym,
 * read in pieces as above; at most max of them. 0, or -1 as above. */
int elf_slots(Elf *elf, int fd, unsigned int max, elf_slot_fn fn, void *ctx);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the functions of an ELF file start, from the sorted table of its
 * .eh_frame_hdr: every function with CFI, static ones included, even when
 * the file keeps only .dynsym. Lets a frame in a static function of such a
 * library be named by its function's start (libz.so.1+0x1a2b0) rather than
 * by the library alone.
 */
#ifndef PJ_USER_EH_RANGES_H
#define PJ_USER_EH_RANGES_H

#include <libelf.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The function starts (ELF virtual addresses, ascending) into a malloc'ed
 * *starts. 0 and *n = 0 when the file has no usable table; -1 on allocation
 * failure. Every offset and count read from the file is checked.
 */
int eh_frame_starts(Elf *elf, uint64_t **starts, size_t *n);
/* The file's DT_SONAME into out ("" when none). */
void elf_soname(Elf *elf, char *out, size_t outsz);

#endif

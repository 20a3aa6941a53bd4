/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Source file and line of an address, from the DWARF line table of the ELF
 * file itself (a -g build; libdw). Files from the target are hostile: one
 * whose debug sections would take more than SRCLINE_MAX_DEBUG bytes in
 * memory is not read.
 */
#ifndef PJ_USER_SRCLINE_H
#define PJ_USER_SRCLINE_H

#include <stdint.h>

#define SRCLINE_MAX_DEBUG (256u << 20)

struct srclines;

/* Reads the file open on fd (taken) if it is still inode (sym/elf_open.h
 * checks); NULL when it has no line table to read. */
struct srclines *srclines_open(int fd, uint64_t inode);
void srclines_free(struct srclines *s);
/*
 * The file and line of ELF virtual address vaddr: 0 with *file (valid while
 * s is open) and *line set, -1 when no line covers it.
 */
int srclines_find(struct srclines *s, uint64_t vaddr, const char **file,
		  uint32_t *line);

#endif

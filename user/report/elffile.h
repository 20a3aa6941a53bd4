/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of a profile's native frames, read on this machine, tell
 * pprof output (report/elffile.c): each file's executable segment and
 * build-id, and the address of a native frame's function. Addresses are
 * the file's own (link-time) virtual addresses, as nm and objdump show
 * them; the recording keeps no run-time address.
 */
#ifndef PJ_USER_REPORT_ELFFILE_H
#define PJ_USER_REPORT_ELFFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/u64map.h"
#include "profile/io.h"

struct elf_symtab;

struct elffile {
	struct elf_symtab *t; /* NULL: unreadable, not ELF */
	bool tried, indexed, text;
	uint64_t start, limit, offset; /* the executable segment */
	struct u64map by_name; /* hash of a symbol's name -> index + 1 */
};

struct elffiles {
	const struct pj_profile *p;
	struct elffile *by_module; /* by module string id */
};

int elffiles_init(struct elffiles *f, const struct pj_profile *p);
void elffiles_free(struct elffiles *f);
/*
 * The file of module string id m, read once; NULL when m names no
 * absolute path or the file cannot be read as ELF (gone, another machine's,
 * not a regular file).
 */
struct elffile *elffiles_get(struct elffiles *f, uint32_t m);
const char *elffile_build_id(const struct elffile *e);
/*
 * The address of the function a native frame is named after: a symbol of
 * the file, or the "libz.so.1+0x5d80" a stripped file's code gets; 0 when
 * the file has no such function or it lies outside the executable segment.
 */
uint64_t elffile_addr(struct elffile *e, const char *name);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Function symbols of one ELF file, through libelf: .symtab, else .dynsym, and
 * the separate debug file when the binary is stripped (by build-id under
 * <root>/usr/lib/debug/.build-id/xx/yyyy.debug, or by .gnu_debuglink next to
 * the file, in .debug/ and under /usr/lib/debug<dir>). C++ names demangled.
 */
#ifndef PJ_USER_ELF_SYMBOLS_H
#define PJ_USER_ELF_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

struct elf_symtab;

/*
 * Opens path as seen from root: "" for this machine's files, a directory
 * (a target's "/proc/PID/root", a test's tree) for a file as a process
 * rooted there sees it: resolved inside it, debug files too. root NULL:
 * this machine's file, no debug file looked for. NULL when the file cannot
 * be read (errno from open; EINVAL: not a regular file) or is not ELF or is
 * refused as too large or sparse (errno ENOEXEC; sym/elf_open.h).
 */
struct elf_symtab *elf_symtab_load(const char *root, const char *path);
/*
 * The same from fd, open on the file (taken, closed): the mapped file
 * itself, opened and checked by the caller. Debug files for path are looked
 * for inside rootfd (ELF_ROOT_HOST: as paths are; -1: none).
 */
struct elf_symtab *elf_symtab_load_fd(int fd, int rootfd, const char *path);
/* The same from an ELF image in memory (the [vdso] read from the target);
 * no debug file is looked for. The image is copied. */
struct elf_symtab *elf_symtab_load_image(const void *image, size_t size);
void elf_symtab_free(struct elf_symtab *t);
/*
 * Converts a file offset (from a mapping: addr - map.start + map.pgoff) to
 * the ELF virtual address through the PT_LOAD headers. Returns 0 and sets
 * *vaddr, or -1 when no segment holds the offset.
 */
int elf_symtab_offset_to_vaddr(const struct elf_symtab *t, uint64_t off,
			       uint64_t *vaddr);
/*
 * The function containing vaddr: its (demangled) name and vaddr - start in
 * *offset. NULL when no symbol covers vaddr.
 */
const char *elf_symtab_lookup(const struct elf_symtab *t, uint64_t vaddr,
			      uint64_t *offset);
/* The build-id as hex ("" when none), and how symbols were found. */
const char *elf_symtab_build_id(const struct elf_symtab *t);
/* "symtab", "dynsym", "debuglink:<path>", "build-id:<path>" */
const char *elf_symtab_source(const struct elf_symtab *t);
unsigned int elf_symtab_count(const struct elf_symtab *t);
/* Symbol i (below elf_symtab_count()): its name as lookup gives it, its
 * range in *start and *end; NULL when i is out of range. */
const char *elf_symtab_symbol(const struct elf_symtab *t, unsigned int i,
			      uint64_t *start, uint64_t *end);
/* The first executable PT_LOAD segment: its vaddr, memsz and file offset.
 * -1 when there is none (or t is an image without program headers). */
int elf_symtab_text(const struct elf_symtab *t, uint64_t *vaddr,
		    uint64_t *memsz, uint64_t *off);
/* Whether a function symbol is called name (as in the file, not demangled). */
int elf_symtab_has(const struct elf_symtab *t, const char *name);

/* Demangles a C++ name; returns name itself when it is not mangled. The
 * result is malloc'ed. */
char *pj_demangle(const char *name);

#endif

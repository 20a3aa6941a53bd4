/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Separate debug files for a stripped ELF file: by build-id under
 * <root>/usr/lib/debug/.build-id/xx/yyyy.debug, then by .gnu_debuglink (its
 * CRC checked) next to the file, in .debug/ beside it, and under
 * <root>/usr/lib/debug<dir>/. root is "" or the target's /proc/PID/root.
 */
#ifndef PJ_USER_DEBUG_FILE_H
#define PJ_USER_DEBUG_FILE_H

#include <libelf.h>
#include <stddef.h>
#include <sys/stat.h>

/* An ELF file read with libelf (pread, never mmap: a file truncated under
 * us must not raise SIGBUS). */
struct elf_file {
	int fd;
	Elf *elf;
};

/* 0, or -1 with errno (ENOEXEC when the file is not ELF). */
int elf_file_open(const char *path, struct elf_file *f);
void elf_file_close(struct elf_file *f);
/* The GNU build-id as lower-case hex; "" when there is none. */
void elf_build_id(Elf *elf, char *out, size_t outsz);
/*
 * Finds and opens the debug file of elf (path as the target sees it, self
 * its stat, build_id its hex build-id or ""); the debug file must carry a
 * .symtab and, when both have one, the same build-id. Sets *src to
 * "build-id:<file>" or "debuglink:<file>" (malloc'ed). 0 when found.
 */
int debug_file_find(Elf *elf, const char *root, const char *path,
		    const struct stat *self, const char *build_id,
		    struct elf_file *f, char **src);

#endif

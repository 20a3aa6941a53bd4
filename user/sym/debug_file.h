/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Separate debug files for a stripped ELF file: by build-id under
 * /usr/lib/debug/.build-id/xx/yyyy.debug, then by .gnu_debuglink next to
 * the file, in .debug/ beside it, and under /usr/lib/debug<dir>/; every
 * path resolved inside the target's root (sym/elf_open.h), never out of it.
 */
#ifndef PJ_USER_DEBUG_FILE_H
#define PJ_USER_DEBUG_FILE_H

#include <libelf.h>
#include <stddef.h>
#include <sys/stat.h>

#include "sym/elf_open.h"

/* The GNU build-id as lower-case hex; "" when there is none. */
void elf_build_id(Elf *elf, char *out, size_t outsz);
/*
 * Finds and opens the debug file of elf (path as the target sees it, self
 * its fstat, build_id its hex build-id or ""), looked for inside rootfd
 * (ELF_ROOT_HOST: as paths are). It must carry a .symtab and be the file's:
 * the same build-id when both have one (a file at the build-id path must
 * have it), else a debuglink CRC that matches (summed for files of at most
 * 256 MiB, once each). Sets *src to "build-id:<file>" or
 * "debuglink:<file>" (malloc'ed). 0 when found.
 */
int debug_file_find(Elf *elf, int rootfd, const char *path,
		    const struct stat *self, const char *build_id,
		    struct elf_file *f, char **src);

#endif

// SPDX-License-Identifier: GPL-2.0
/* Source lines of addresses (libdw); see sym/srcline.h. */
#include <elfutils/libdw.h>
#include <gelf.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sym/debug_file.h"
#include "sym/srcline.h"

struct srclines {
	struct elf_file f;
	Dwarf *dw;
};

/* Whether f has a line table, its debug sections within the bound
 * (counted as they will be in memory: a compressed one uncompressed) and
 * on data (a sparse file's holes read as zeros, and cost memory). */
static bool lines_readable(const struct elf_file *f)
{
	Elf *elf = f->elf;
	size_t shstrndx, total = 0;
	bool line = false;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		GElf_Chdr ch;
		const char *name;
		uint64_t size;

		if (!gelf_getshdr(scn, &sh) ||
		    !(name = elf_strptr(elf, shstrndx, sh.sh_name)) ||
		    strncmp(name, ".debug_", 7))
			continue;
		size = sh.sh_size;
		if (sh.sh_type != SHT_NOBITS &&
		    !elf_file_backed(f, sh.sh_offset, sh.sh_size))
			return false;
		if (sh.sh_flags & SHF_COMPRESSED)
			size = gelf_getchdr(scn, &ch) ? ch.ch_size : UINT64_MAX;
		if (size > SRCLINE_MAX_DEBUG - total)
			return false;
		total += size;
		line |= !strcmp(name, ".debug_line") &&
			sh.sh_type != SHT_NOBITS;
	}
	return line;
}

struct srclines *srclines_open(int fd, uint64_t inode)
{
	struct srclines *s = calloc(1, sizeof(*s));
	struct stat st;

	if (!s || elf_file_open_fd(fd, &s->f)) {
		if (!s)
			close(fd);
		free(s);
		return NULL;
	}
	if (fstat(s->f.fd, &st) || st.st_ino != inode ||
	    !lines_readable(&s->f) ||
	    !(s->dw = dwarf_begin_elf(s->f.elf, DWARF_C_READ, NULL))) {
		srclines_free(s);
		return NULL;
	}
	return s;
}

void srclines_free(struct srclines *s)
{
	if (!s)
		return;
	if (s->dw)
		dwarf_end(s->dw);
	elf_file_close(&s->f);
	free(s);
}

int srclines_find(struct srclines *s, uint64_t vaddr, const char **file,
		  uint32_t *line)
{
	Dwarf_Die cu;
	Dwarf_Line *l;
	const char *f;
	int n;

	if (!dwarf_addrdie(s->dw, vaddr, &cu) ||
	    !(l = dwarf_getsrc_die(&cu, vaddr)) || dwarf_lineno(l, &n) ||
	    n <= 0 || !(f = dwarf_linesrc(l, NULL, NULL)) || !*f)
		return -1;
	*file = f;
	*line = (uint32_t)n;
	return 0;
}

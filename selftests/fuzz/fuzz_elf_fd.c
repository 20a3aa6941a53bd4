// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: an ELF file as a target maps it (a memfd here), through
 * the path record takes: sym/elf_open.c's checks before libelf reads
 * anything (headers, tables inside the file, on data, under their bounds),
 * then the symbol table, and a debug file looked for by build-id and
 * .gnu_debuglink inside an empty root of its own (sym/debug_file.c); and
 * the attach's look for an export in its .dynsym (elf_file_defines).
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sym/elf.h"
#include "sym/elf_open.h"

static int root = -1;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elf_symtab *t;
	uint64_t start, end, sum = 0;
	int fd;

	if (root < 0) {
		char dir[] = "/tmp/pj-fuzz-root.XXXXXX";

		if (!mkdtemp(dir))
			abort();
		root = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
		rmdir(
		    dir); /* stays open: an empty root that nothing can fill */
		if (root < 0)
			abort();
	}
	fd = memfd_create("elf", MFD_CLOEXEC);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	/* as the attach asks a libjvm.so (takes its own descriptor) */
	sum += elf_file_defines(dup(fd), "AsyncGetCallTrace") > 0;
	t = elf_symtab_load_fd(fd, root, "/usr/bin/target"); /* takes fd */
	if (!t)
		return 0;
	for (unsigned int i = 0; i < elf_symtab_count(t); i++) {
		const char *s = elf_symtab_symbol(t, i, &start, &end);

		if (!s)
			__builtin_trap();
		sum += strlen(s) + start;
	}
	sum += strlen(elf_symtab_build_id(t)) + strlen(elf_symtab_source(t));
	elf_symtab_free(t);
	return sum == UINT64_MAX;
}

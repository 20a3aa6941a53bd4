// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: an ELF file as the target (record) or the recording's
 * paths on the reporting machine (report/elffile.c) could name it, through
 * sym/elf.c on an image: its symbols, .eh_frame_hdr ranges, segments and
 * build-id, then what symbolization and pprof output ask of the table.
 */
#include <stdint.h>
#include <string.h>

#include "sym/elf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elf_symtab *t = elf_symtab_load_image(data, size);
	uint64_t start, end, vaddr = 0, memsz, off, sum = 0, o;
	unsigned int n;

	if (!t)
		return 0;
	n = elf_symtab_count(t);
	for (unsigned int i = 0; i < n; i++) {
		const char *s = elf_symtab_symbol(t, i, &start, &end);

		if (!s)
			__builtin_trap();
		sum += strlen(s) + elf_symtab_has(t, s);
		if (elf_symtab_lookup(t, start, &o))
			sum += o;
	}
	if (!elf_symtab_text(t, &vaddr, &memsz, &off))
		sum += memsz + off;
	if (!elf_symtab_offset_to_vaddr(t, size / 2, &o))
		sum += o;
	sum += strlen(elf_symtab_build_id(t)) + strlen(elf_symtab_source(t));
	elf_symtab_free(t);
	return sum == UINT64_MAX;
}

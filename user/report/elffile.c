// SPDX-License-Identifier: GPL-2.0
/*
 * Native frames' files for pprof output (see report/elffile.h): read lazily,
 * once per module, through sym/elf.c (which opens regular files only).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/hash.h"
#include "report/elffile.h"
#include "sym/elf.h"

int elffiles_init(struct elffiles *f, const struct pj_profile *p)
{
	f->p = p;
	f->by_module =
	    calloc(p->nstrings ? p->nstrings : 1, sizeof(*f->by_module));
	return f->by_module ? 0 : -1;
}

void elffiles_free(struct elffiles *f)
{
	for (uint32_t i = 0; f->by_module && i < f->p->nstrings; i++) {
		elf_symtab_free(f->by_module[i].t);
		u64map_free(&f->by_module[i].by_name);
	}
	free(f->by_module);
	f->by_module = NULL;
}

struct elffile *elffiles_get(struct elffiles *f, uint32_t m)
{
	struct elffile *e;
	uint64_t vaddr, memsz, off;

	if (!m || m >= f->p->nstrings || !f->by_module)
		return NULL;
	e = &f->by_module[m];
	if (!e->tried) {
		const char *path = pj_str(f->p, m);

		e->tried = true;
		if (path[0] == '/')
			e->t = elf_symtab_load("", path);
		if (e->t && !elf_symtab_text(e->t, &vaddr, &memsz, &off)) {
			e->text = true;
			e->start = vaddr;
			e->limit = vaddr + memsz;
			e->offset = off;
		}
	}
	return e->t ? e : NULL;
}

const char *elffile_build_id(const struct elffile *e)
{
	return e && e->t ? elf_symtab_build_id(e->t) : "";
}

static uint64_t name_key(const char *name)
{
	uint64_t h = hash_str(name, 0);

	return h ? h : 1;
}

/* The symbols by name, the first of equal names kept. */
static void index_names(struct elffile *e)
{
	unsigned int n = elf_symtab_count(e->t);
	uint64_t start, end;
	uint32_t v;

	e->indexed = true;
	for (unsigned int i = 0; i < n; i++) {
		const char *s = elf_symtab_symbol(e->t, i, &start, &end);
		uint64_t k = s ? name_key(s) : 0;

		if (k && !u64map_get(&e->by_name, k, &v) &&
		    u64map_put(&e->by_name, k, i + 1))
			return; /* out of memory: what is indexed so far */
	}
}

/* "libz.so.1+0x5d80": 0x5d80; 0 for any other name. */
static uint64_t offset_name(const char *name)
{
	const char *plus = strstr(name, "+0x");
	char *end;
	uint64_t v;

	if (!plus || plus == name || strchr(name, ' ') || strchr(name, '('))
		return 0;
	v = strtoull(plus + 3, &end, 16);
	return *end || end == plus + 3 ? 0 : v;
}

uint64_t elffile_addr(struct elffile *e, const char *name)
{
	uint64_t addr = offset_name(name), start = 0, end;
	uint32_t v;

	if (!e || !e->text || !*name)
		return 0;
	if (!addr) {
		const char *s;

		if (!e->indexed)
			index_names(e);
		if (!u64map_get(&e->by_name, name_key(name), &v))
			return 0;
		/* the same hash, another name: no address rather than a
		 * wrong one */
		s = elf_symtab_symbol(e->t, v - 1, &start, &end);
		if (!s || strcmp(s, name))
			return 0;
		addr = start;
	}
	return addr >= e->start && addr < e->limit ? addr : 0;
}

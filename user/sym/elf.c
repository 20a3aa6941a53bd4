// SPDX-License-Identifier: GPL-2.0
/*
 * Function symbols of one ELF file, read into one sorted array.
 *
 * Where the names come from, best first: the file's own .symtab; the .symtab
 * of a separate debug file (by build-id, then by .gnu_debuglink with its CRC
 * checked) merged with the file's .dynsym; the .dynsym alone. Names are copied
 * into one pool so that nothing of libelf is kept open; C++ names are
 * demangled on first lookup (demangling all of libjvm up front costs more
 * than loading it). Every length and index read from the file is checked, so
 * a damaged file gives fewer symbols or NULL, never a crash.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/file.h"
#include "lib/grow.h"
#include "lib/sort.h"
#include "lib/sorted.h"
#include "lib/strpool.h"
#include "sym/debug_file.h"
#include "sym/eh_ranges.h"
#include "sym/elf.h"
#include "sym/elf_funcs.h"
#include "sym/plt.h"

/* From libstdc++ (the C++ ABI's demangler); the binary links -lstdc++. */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len,
			    int *status);

struct esym {
	uint64_t start, end;
	uint32_t name; /* offset into names */
	uint32_t rank; /* while loading: lower is the better alias */
	char *demangled; /* set on first lookup of a "_Z" name */
};

struct seg {
	uint64_t off, vaddr, filesz, memsz;
	uint32_t flags; /* PF_X, PF_W, PF_R */
};

struct elf_symtab {
	struct esym *syms;
	unsigned int n;
	char *names;
	struct seg *segs;
	unsigned int nsegs;
	char build_id[129];
	char *source;
};

/* Symbols being gathered: end is the section's end (or 0) while a symbol
 * is zero-sized, marked by ZERO_SIZED in its rank. */
struct gather {
	struct esym *v;
	unsigned int n, cap;
	struct strpool names;
	size_t dropped; /* bytes of names no longer kept */
};

#define ZERO_SIZED (1u << 31)

char *pj_demangle(const char *name)
{
	int status = -1;
	char *d;

	if (name[0] == '_' && name[1] == 'Z') {
		d = __cxa_demangle(name, NULL, NULL, &status);
		if (d && status == 0)
			return d;
		free(d);
	}
	return strdup(name);
}

/* Lower is better among aliases: global, then weak, then local; fewer
 * leading underscores; shorter. */
static uint32_t alias_rank(int bind, const char *name, size_t len)
{
	uint32_t r = bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2;
	unsigned int u = 0;

	while (u < 3 && name[u] == '_')
		u++;
	return r << 24 | u << 20 | (len < 0xfffff ? len : 0xfffff);
}

/* (an elf_func_fn: sym/elf_funcs.h) */
static int add_sym_len(void *ctx, uint64_t start, uint64_t size,
		       uint64_t sec_end, int bind, const char *name, size_t len)
{
	struct gather *g = ctx;
	struct esym *s;

	if (GROW(g->v, g->cap, g->n + 1))
		return -1;
	s = &g->v[g->n];
	memset(s, 0, sizeof(*s));
	s->start = start;
	s->end = size ? start + size : sec_end;
	s->rank = alias_rank(bind, name, len) | (size ? 0 : ZERO_SIZED);
	if (strpool_add(&g->names, name, len, &s->name))
		return -1;
	g->n++;
	return 0;
}

/* A symbol named without its version ("write@GLIBC_2.2.5" is "write"). */
static int add_sym(struct gather *g, uint64_t start, uint64_t size,
		   uint64_t sec_end, int bind, const char *name)
{
	const char *at = strchr(name, '@');
	size_t len = at && at != name ? (size_t)(at - name) : strlen(name);

	return add_sym_len(g, start, size, sec_end, bind, name, len);
}

static int add_plt(void *ctx, uint64_t start, uint64_t size, const char *name)
{
	return add_sym_len(ctx, start, size, 0, STB_LOCAL, name, strlen(name));
}

/* The end of the executable section holding vaddr, or 0. */
static uint64_t exec_section_end(Elf *elf, uint64_t vaddr)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR) &&
		    vaddr >= sh.sh_addr && vaddr - sh.sh_addr < sh.sh_size)
			return sh.sh_addr + sh.sh_size;
	return 0;
}

/*
 * A file with .dynsym alone names its exported functions only. Every
 * function with CFI (static ones too) starts in the .eh_frame_hdr table:
 * those starts become symbols "<soname>+0x<start>", below any real symbol
 * at the same address, so that a frame in a static function is named by
 * its function, the same name for every sample of it.
 */
static int gather_eh_ranges(Elf *elf, const char *path, struct gather *g)
{
	char soname[256], name[300];
	const char *base = soname;
	uint64_t *starts, end = 0;
	size_t n, i;

	elf_soname(elf, soname, sizeof(soname));
	if (!soname[0]) {
		base = path ? strrchr(path, '/') : NULL;
		if (!base || !base[1])
			return 0;
		base++;
	}
	if (eh_frame_starts(elf, &starts, &n))
		return -1;
	for (i = 0; i < n; i++) {
		if (i == 0 || starts[i] >= end)
			end = exec_section_end(elf, starts[i]);
		if (!end || !starts[i])
			continue;
		snprintf(name, sizeof(name), "%s+0x%llx", base,
			 (unsigned long long)starts[i]);
		if (add_sym(g, starts[i], 0, end, STB_LOCAL, name)) {
			free(starts);
			return -1;
		}
	}
	free(starts);
	return 0;
}

/* Sized before zero-sized, then the better alias, then the first found
 * (names are pooled in the order found). */
static bool sym_less(const struct esym *x, const struct esym *y)
{
	if (x->start != y->start)
		return x->start < y->start;
	if (x->rank != y->rank)
		return x->rank < y->rank;
	return x->name < y->name;
}

SORT_DEFINE(sort_syms, struct esym, sym_less)

/*
 * Sorts, keeps one symbol per start address, and gives zero-sized symbols
 * the room up to the next symbol, bounded by their section.
 */
static void finalize(struct gather *g)
{
	unsigned int i, o = 0;

	sort_syms(g->v, g->n); /* (g->v is NULL when n is 0) */
	for (i = 0; i < g->n; i++) {
		if (o && g->v[o - 1].start == g->v[i].start) {
			g->dropped += strlen(g->names.buf + g->v[i].name) + 1;
			continue;
		}
		g->v[o++] = g->v[i];
	}
	g->n = o;
	for (i = 0; i < g->n; i++) {
		struct esym *s = &g->v[i];

		if (s->rank & ZERO_SIZED) {
			uint64_t lim = s->end;
			uint64_t next = i + 1 < g->n ? g->v[i + 1].start : 0;

			if (next && (!lim || next < lim))
				lim = next;
			s->end = lim > s->start ? lim : s->start + 1;
		}
	}
}

/*
 * The table as it is held, for the whole recording: the kept symbols'
 * names only (an alias dropped, a name in both .symtab and .dynsym, left
 * theirs behind), each array at its size. Left as it is when out of memory.
 */
static void compact(struct gather *g)
{
	struct strpool p = { 0 };
	size_t need = g->names.len - g->dropped;
	unsigned int i;

	shrink_array((void **)&g->v, (size_t)g->n * sizeof(*g->v));
	if (need >= g->names.len - g->names.len / 8) { /* little to gain */
		shrink_array((void **)&g->names.buf, g->names.len);
		g->names.cap = g->names.len;
		return;
	}
	p.buf = need ? malloc(need) : NULL;
	if (!p.buf)
		return;
	p.cap = need;
	for (i = 0; i < g->n; i++) { /* (in the room made: never fails) */
		const char *s = g->names.buf + g->v[i].name;

		strpool_add(&p, s, strlen(s), &g->v[i].name);
	}
	free(g->names.buf);
	g->names = p;
}

static void gather_free(struct gather *g)
{
	free(g->v);
	free(g->names.buf);
	memset(g, 0, sizeof(*g));
}

static int read_segments(Elf *elf, struct elf_symtab *t)
{
	size_t n = 0, i;

	if (elf_getphdrnum(elf, &n) || !n)
		return 0;
	t->segs = calloc(n, sizeof(*t->segs));
	if (!t->segs)
		return -1;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		t->segs[t->nsegs].off = ph.p_offset;
		t->segs[t->nsegs].vaddr = ph.p_vaddr;
		t->segs[t->nsegs].filesz = ph.p_filesz;
		t->segs[t->nsegs].memsz = ph.p_memsz;
		t->segs[t->nsegs].flags = ph.p_flags;
		t->nsegs++;
	}
	return 0;
}

/* Builds the table from an open ELF; path and self are for finding a debug
 * file inside rootfd (-1: do not look for one). */
static struct elf_symtab *build(Elf *elf, int fd, int rootfd, const char *path,
				const struct stat *self)
{
	struct elf_symtab *t = calloc(1, sizeof(*t));
	struct gather g = { 0 };
	int r;

	if (!t)
		return NULL;
	elf_build_id(elf, t->build_id, sizeof(t->build_id));
	if (read_segments(elf, t))
		goto fail;
	r = elf_funcs(elf, fd, SHT_SYMTAB, add_sym_len, &g);
	if (r < 0)
		goto fail;
	if (r > 0) {
		t->source = strdup("symtab");
	} else {
		struct elf_file dbg;
		char *src = NULL;

		if (rootfd != -1 && !debug_file_find(elf, rootfd, path, self,
						     t->build_id, &dbg, &src)) {
			r = elf_funcs(dbg.elf, dbg.fd, SHT_SYMTAB, add_sym_len,
				      &g);
			elf_file_close(&dbg);
			if (r < 0) {
				free(src);
				goto fail;
			}
			t->source = src;
		}
		r = elf_funcs(elf, fd, SHT_DYNSYM, add_sym_len, &g);
		if (r < 0)
			goto fail;
		if (!t->source) {
			t->source = strdup("dynsym");
			if (gather_eh_ranges(elf, path, &g))
				goto fail;
		}
	}
	if (!t->source || plt_symbols(elf, fd, add_plt, &g))
		goto fail;
	finalize(&g);
	compact(&g);
	t->syms = g.v;
	t->n = g.n;
	t->names = g.names.buf;
	return t;
fail:
	gather_free(&g);
	elf_symtab_free(t);
	return NULL;
}

struct elf_symtab *elf_symtab_load_fd(int fd, int rootfd, const char *path)
{
	struct elf_file f;
	struct elf_symtab *t;
	struct stat st;

	if (elf_file_open_fd(fd, &f))
		return NULL;
	if (fstat(f.fd, &st)) {
		elf_file_close(&f);
		return NULL;
	}
	t = build(f.elf, f.fd, rootfd, path, &st);
	elf_file_close(&f);
	if (!t)
		errno = ENOMEM;
	return t;
}

struct elf_symtab *elf_symtab_load(const char *root, const char *path)
{
	struct elf_symtab *t = NULL;
	int rootfd = -1, fd, e;

	if (root && *root) {
		rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (rootfd < 0)
			return NULL;
	} else if (root) {
		rootfd = ELF_ROOT_HOST;
	}
	fd = open_regular_in(rootfd == -1 ? ELF_ROOT_HOST : rootfd, path);
	if (fd >= 0)
		t = elf_symtab_load_fd(fd, rootfd, path);
	e = errno;
	if (rootfd >= 0)
		close(rootfd);
	errno = e;
	return t;
}

struct elf_symtab *elf_symtab_load_image(const void *image, size_t size)
{
	struct elf_symtab *t = NULL;
	char *copy;
	Elf *elf;

	elf_version(EV_CURRENT);
	copy = malloc(size);
	if (!copy)
		return NULL;
	memcpy(copy, image, size);
	elf = elf_memory(copy, size);
	if (elf && elf_kind(elf) == ELF_K_ELF &&
	    gelf_getclass(elf) != ELFCLASSNONE)
		t = build(elf, -1, -1, NULL, NULL);
	if (elf)
		elf_end(elf);
	free(copy);
	return t;
}

void elf_symtab_free(struct elf_symtab *t)
{
	unsigned int i;

	if (!t)
		return;
	for (i = 0; i < t->n; i++)
		free(t->syms[i].demangled);
	free(t->syms);
	free(t->names);
	free(t->segs);
	free(t->source);
	free(t);
}

int elf_symtab_offset_to_vaddr(const struct elf_symtab *t, uint64_t off,
			       uint64_t *vaddr)
{
	unsigned int i;

	for (i = 0; i < t->nsegs; i++) {
		const struct seg *s = &t->segs[i];

		if (off >= s->off && off - s->off < s->filesz) {
			*vaddr = s->vaddr + (off - s->off);
			return 0;
		}
	}
	/* The page-aligned slop in front of a segment, or its bss. */
	for (i = 0; i < t->nsegs; i++) {
		const struct seg *s = &t->segs[i];
		uint64_t lo = s->off & ~(uint64_t)4095;

		if (off >= lo && off - s->off < s->memsz + (s->off - lo)) {
			*vaddr = s->vaddr - (s->off - off);
			return 0;
		}
	}
	return -1;
}

static const char *sym_name(const struct elf_symtab *t, struct esym *s)
{
	const char *raw = t->names + s->name;
	char *d, *expected = NULL;

	if (raw[0] != '_' || raw[1] != 'Z')
		return raw;
	d = __atomic_load_n(&s->demangled, __ATOMIC_ACQUIRE);
	if (d)
		return d;
	d = pj_demangle(raw);
	if (!d)
		return raw;
	if (!__atomic_compare_exchange_n(&s->demangled, &expected, d, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		free(d);
		return expected;
	}
	return d;
}

const char *elf_symtab_lookup(const struct elf_symtab *t, uint64_t vaddr,
			      uint64_t *offset)
{
	size_t i, k;

	if (!t)
		return NULL;
	/* Usually the nearest symbol below; a few more for nested ones. */
	for (i = SORTED_UPTO(t->syms, t->n, start, vaddr), k = 0;
	     i > 0 && k < 8; i--, k++) {
		struct esym *s = &t->syms[i - 1];

		if (vaddr < s->end) {
			if (offset)
				*offset = vaddr - s->start;
			return sym_name(t, s);
		}
	}
	return NULL;
}

const char *elf_symtab_build_id(const struct elf_symtab *t)
{
	return t->build_id;
}

const char *elf_symtab_source(const struct elf_symtab *t)
{
	return t->source;
}

unsigned int elf_symtab_count(const struct elf_symtab *t)
{
	return t->n;
}

const char *elf_symtab_symbol(const struct elf_symtab *t, unsigned int i,
			      uint64_t *start, uint64_t *end)
{
	if (!t || i >= t->n)
		return NULL;
	*start = t->syms[i].start;
	*end = t->syms[i].end;
	return sym_name(t, &t->syms[i]);
}

int elf_symtab_text(const struct elf_symtab *t, uint64_t *vaddr,
		    uint64_t *memsz, uint64_t *off)
{
	for (unsigned int i = 0; t && i < t->nsegs; i++) {
		if (!(t->segs[i].flags & PF_X))
			continue;
		*vaddr = t->segs[i].vaddr;
		*memsz = t->segs[i].memsz;
		*off = t->segs[i].off;
		return 0;
	}
	return -1;
}

int elf_symtab_has(const struct elf_symtab *t, const char *name)
{
	unsigned int i;

	for (i = 0; t && i < t->n; i++)
		if (!strcmp(t->names + t->syms[i].name, name))
			return 1;
	return 0;
}

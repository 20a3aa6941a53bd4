// SPDX-License-Identifier: GPL-2.0
/* Function symbols and GOT slots read in pieces; see sym/elf_funcs.h. */
#include <elf.h>
#include <endian.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sym/elf_funcs.h"

#ifndef STT_GNU_IFUNC
#define STT_GNU_IFUNC 10
#endif

#define PIECE 49152 /* bytes of a table read at a time: 2048 symbols */
#define WINDOW 65536 /* bytes of a string table held at a time */

/* A table's place in the file. */
struct span {
	uint64_t off, size;
};

/* Reads [at, at + len) of span s (clipped to it) into buf: the bytes read,
 * 0 at its end or on an error (a file shrunk since it was opened). */
static size_t span_read(int fd, const struct span *s, uint64_t at, void *buf,
			size_t len)
{
	ssize_t r;

	if (at >= s->size)
		return 0;
	if (len > s->size - at)
		len = (size_t)(s->size - at);
	r = pread(fd, buf, len, (off_t)(s->off + at));
	return r > 0 ? (size_t)r : 0;
}

/*
 * A string table seen through two windows, the least recently used one
 * moved on a miss: names come mostly in table order, some tables' mostly
 * backwards (libc's debug file), with jumps. A window moved back ends just
 * past the name, for the names before it. Past READ_BUDGET bytes read by
 * the windows (an order that defeats them: a hostile file's, one read of a
 * window per name), the table is read whole, as libelf would.
 */
#define TAIL 4096 /* room for a name past its offset, moving back */
#define READ_BUDGET(size) (8 * (size) + ((uint64_t)16 << 20))

struct strwin {
	int fd;
	struct span tab;
	char *buf[2];
	size_t cap[2], len[2];
	uint64_t base[2], read;
	unsigned int last;
	bool whole;
};

static bool strwin_fill(struct strwin *w, unsigned int i, uint64_t from)
{
	w->base[i] = from;
	w->len[i] = span_read(w->fd, &w->tab, from, w->buf[i], w->cap[i]);
	w->read += w->len[i];
	return w->len[i] != 0;
}

/* The whole table in window 0 from now on (the windows kept as they are
 * when that cannot be). */
static void strwin_whole(struct strwin *w)
{
	char *b = realloc(w->buf[0], w->tab.size ? w->tab.size : 1);

	w->whole = true;
	if (!b)
		return;
	w->buf[0] = b;
	w->cap[0] = w->tab.size;
	strwin_fill(w, 0, 0);
}

/* The string at offset o, its length in *len; NULL when it is not in the
 * table, not terminated, or longer than a window. */
static const char *strwin_get(struct strwin *w, uint64_t o, size_t *len)
{
	unsigned int i;
	const char *s, *nul;
	uint64_t from = o;

	for (i = 0; i < 2; i++)
		if (o >= w->base[i] && o < w->base[i] + w->len[i])
			break;
	if (i == 2 && !w->whole && w->read > READ_BUDGET(w->tab.size)) {
		strwin_whole(w);
		i = !w->base[0] && o < w->len[0] ? 0 : 2;
	}
	if (i == 2) {
		i = !w->last;
		if (o < w->base[w->last]) /* going back */
			from = o > WINDOW - TAIL ? o - (WINDOW - TAIL) : 0;
		if (!strwin_fill(w, i, from))
			return NULL;
	}
	w->last = i;
	s = w->buf[i] + (o - w->base[i]);
	nul = memchr(s, 0, w->len[i] - (size_t)(o - w->base[i]));
	if (!nul && w->base[i] != o && strwin_fill(w, i, o)) { /* cut */
		s = w->buf[i];
		nul = memchr(s, 0, w->len[i]);
	}
	if (!nul)
		return NULL;
	*len = (size_t)(nul - s);
	return s;
}

/* Whether elf's tables can be read as this machine's own structures. */
static bool native64(Elf *elf, int fd)
{
	const unsigned char *id =
	    (const unsigned char *)elf_getident(elf, NULL);

	return fd >= 0 && id && id[EI_CLASS] == ELFCLASS64 &&
	       id[EI_DATA] ==
		   (BYTE_ORDER == LITTLE_ENDIAN ? ELFDATA2LSB : ELFDATA2MSB);
}

/* The name without its version. */
static size_t unversioned(const char *name, size_t len)
{
	const char *at = memchr(name, '@', len);

	return at && at != name ? (size_t)(at - name) : len;
}

/* The sections' address ranges, for a symbol's section end. */
struct secs {
	struct span *v; /* off: sh_addr, size: sh_size */
	size_t n;
};

static int secs_read(Elf *elf, struct secs *s)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	s->n = 0;
	if (elf_getshdrnum(elf, &s->n))
		s->n = 0; /* no section: no symbol */
	s->v = calloc(s->n ? s->n : 1, sizeof(*s->v));
	if (!s->v)
		return -1;
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && elf_ndxscn(scn) < s->n)
			s->v[elf_ndxscn(scn)] =
			    (struct span){ sh.sh_addr, sh.sh_size };
	return 0;
}

static uint64_t sec_end(const struct secs *s, unsigned int shndx,
			uint64_t value)
{
	const struct span *x;

	if (shndx >= SHN_LORESERVE || shndx >= s->n)
		return 0;
	x = &s->v[shndx];
	return value >= x->off && value - x->off < x->size ? x->off + x->size
							   : 0;
}

static bool wanted(int type, unsigned int shndx, uint64_t value, uint64_t size)
{
	return (type == STT_FUNC || type == STT_GNU_IFUNC) &&
	       shndx != SHN_UNDEF && value && value + size >= value;
}

/* One table through libelf (what native64 refuses). */
static int funcs_libelf(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
			const struct secs *secs, elf_func_fn fn, void *ctx)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t i, count, len;
	int added = 0;

	if (!d || !d->d_buf)
		return 0;
	count = d->d_size / gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
	for (i = 0; i < count; i++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(d, (int)i, &sym))
			break;
		if (!wanted(GELF_ST_TYPE(sym.st_info), sym.st_shndx,
			    sym.st_value, sym.st_size))
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		len = unversioned(name, strlen(name));
		if (fn(ctx, sym.st_value, sym.st_size,
		       sec_end(secs, sym.st_shndx, sym.st_value),
		       GELF_ST_BIND(sym.st_info), name, len))
			return -1;
		added++;
	}
	return added;
}

/* One table in pieces from fd. */
static int funcs_pieces(Elf *elf, int fd, const GElf_Shdr *sh,
			const struct secs *secs, elf_func_fn fn, void *ctx)
{
	Elf64_Sym *piece = malloc(PIECE);
	struct strwin w = { .fd = fd, .cap = { WINDOW, WINDOW } };
	GElf_Shdr strsh;
	uint64_t at = 0;
	int added = 0;
	size_t got;

	w.buf[0] = malloc(WINDOW);
	w.buf[1] = malloc(WINDOW);
	if (!piece || !w.buf[0] || !w.buf[1] ||
	    !gelf_getshdr(elf_getscn(elf, sh->sh_link), &strsh) ||
	    strsh.sh_type != SHT_STRTAB) {
		added = piece && w.buf[0] && w.buf[1] ? 0 : -1;
		goto out;
	}
	w.tab = (struct span){ strsh.sh_offset, strsh.sh_size };
	while (
	    (got = span_read(fd, &(struct span){ sh->sh_offset, sh->sh_size },
			     at, piece, PIECE)) >= sizeof(*piece)) {
		size_t i, n = got / sizeof(*piece), len;

		at += n * sizeof(*piece);
		for (i = 0; i < n; i++) {
			const Elf64_Sym *s = &piece[i];
			const char *name;

			if (!wanted(ELF64_ST_TYPE(s->st_info), s->st_shndx,
				    s->st_value, s->st_size) ||
			    !(name = strwin_get(&w, s->st_name, &len)) || !len)
				continue;
			if (fn(ctx, s->st_value, s->st_size,
			       sec_end(secs, s->st_shndx, s->st_value),
			       ELF64_ST_BIND(s->st_info), name,
			       unversioned(name, len))) {
				added = -1;
				goto out;
			}
			added++;
		}
	}
out:
	free(piece);
	free(w.buf[0]);
	free(w.buf[1]);
	return added;
}

int elf_funcs(Elf *elf, int fd, unsigned int type, elf_func_fn fn, void *ctx)
{
	bool pieces = native64(elf, fd);
	struct secs secs;
	Elf_Scn *scn = NULL;
	int added = 0, r;

	if (secs_read(elf, &secs))
		return -1;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != type ||
		    !sh.sh_entsize || sh.sh_link >= secs.n)
			continue;
		if (pieces && sh.sh_entsize == sizeof(Elf64_Sym))
			r = funcs_pieces(elf, fd, &sh, &secs, fn, ctx);
		else
			r = funcs_libelf(elf, scn, &sh, &secs, fn, ctx);
		if (r < 0) {
			added = -1;
			break;
		}
		added += r;
	}
	free(secs.v);
	return added;
}

/* The slot of one relocation, if it fills one, with its symbol's name. */
static int slot_of(Elf *elf, Elf_Data *syms, size_t strndx, uint64_t got,
		   uint64_t info, elf_slot_fn fn, void *ctx)
{
	unsigned long type = GELF_R_TYPE(info);
	const char *name;
	GElf_Sym sym;

	if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT)
		return 1;
	if (!gelf_getsym(syms, (int)GELF_R_SYM(info), &sym))
		return 1;
	name = elf_strptr(elf, strndx, sym.st_name);
	if (!name || !*name)
		return 1;
	return fn(ctx, got, name) ? -1 : 0;
}

/* One table of relocations in pieces from fd; 0 or -1 as elf_slots. */
static int slots_pieces(Elf *elf, int fd, const GElf_Shdr *sh,
			const GElf_Shdr *symsh, Elf_Data *syms,
			Elf64_Rela *piece, unsigned int max, unsigned int *n,
			elf_slot_fn fn, void *ctx)
{
	struct span s = { sh->sh_offset, sh->sh_size };
	uint64_t at = 0;
	size_t i, got, count;
	int r = 0;

	while (*n < max &&
	       (got = span_read(fd, &s, at, piece, PIECE)) >= sizeof(*piece)) {
		count = got / sizeof(*piece);
		at += count * sizeof(*piece);
		for (i = 0; i < count && *n < max; i++) {
			r = slot_of(elf, syms, symsh->sh_link,
				    piece[i].r_offset, piece[i].r_info, fn,
				    ctx);
			if (r < 0)
				return -1;
			*n += !r;
		}
	}
	return 0;
}

/* The same through libelf. */
static int slots_libelf(Elf *elf, Elf_Scn *scn, const GElf_Shdr *symsh,
			Elf_Data *syms, unsigned int max, unsigned int *n,
			elf_slot_fn fn, void *ctx)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t i, count;
	int r;

	if (!d || !d->d_buf)
		return 0;
	count = d->d_size / gelf_fsize(elf, ELF_T_RELA, 1, EV_CURRENT);
	for (i = 0; i < count && *n < max; i++) {
		GElf_Rela rel;

		if (!gelf_getrela(d, (int)i, &rel))
			break;
		r = slot_of(elf, syms, symsh->sh_link, rel.r_offset, rel.r_info,
			    fn, ctx);
		if (r < 0)
			return -1;
		*n += !r;
	}
	return 0;
}

int elf_slots(Elf *elf, int fd, unsigned int max, elf_slot_fn fn, void *ctx)
{
	bool pieces = native64(elf, fd);
	Elf64_Rela *piece = pieces ? malloc(PIECE) : NULL;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh, symsh;
	unsigned int n = 0;
	int r = 0;

	if (pieces && !piece)
		return -1;
	while (!r && n < max && (scn = elf_nextscn(elf, scn))) {
		Elf_Scn *symscn;
		Elf_Data *syms;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA ||
		    !sh.sh_entsize || !sh.sh_link)
			continue;
		symscn = elf_getscn(elf, sh.sh_link);
		if (!symscn || !gelf_getshdr(symscn, &symsh) ||
		    symsh.sh_type != SHT_DYNSYM)
			continue;
		syms = elf_getdata(symscn, NULL);
		if (!syms || !syms->d_buf)
			continue;
		if (pieces && sh.sh_entsize == sizeof(Elf64_Rela))
			r = slots_pieces(elf, fd, &sh, &symsh, syms, piece, max,
					 &n, fn, ctx);
		else
			r = slots_libelf(elf, scn, &symsh, syms, max, &n, fn,
					 ctx);
	}
	free(piece);
	return r;
}

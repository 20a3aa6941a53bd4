// SPDX-License-Identifier: GPL-2.0
/* ELF files of the target, opened bounded; see sym/elf_open.h. */
#include <elf.h>
#include <errno.h>
#include <gelf.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/file.h"
#include "sym/elf_open.h"

#ifndef PT_GNU_EH_FRAME
#define PT_GNU_EH_FRAME 0x6474e550
#endif

int elf_file_backed(const struct elf_file *f, uint64_t off, uint64_t len)
{
	off_t hole;

	if (off > f->size || len > f->size - off)
		return 0;
	if (!len)
		return 1;
	/* the next hole at or after off: a sparse range reads as zeros, and
	 * costs memory it never took on disk */
	hole = lseek(f->fd, (off_t)off, SEEK_HOLE);
	if (hole < 0) /* EINVAL: no SEEK_HOLE here, a file without holes */
		return errno == EINVAL;
	return (uint64_t)hole >= off + len;
}

static int pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	return pread(fd, buf, len, (off_t)off) == (ssize_t)len ? 0 : -1;
}

/* Where the fields check_headers() reads are, per class (offsets in the
 * ELF header, then in section header 0), and the sizes they must have. */
struct layout {
	uint8_t word; /* bytes of an offset: 4 or 8 */
	uint8_t phoff, shoff, phent, phnum, shent, shnum, s0_size, s0_info;
	uint16_t shdr, phdr;
};

static const struct layout layouts[2] = {
	{ 4, 28, 32, 42, 44, 46, 48, 20, 28, sizeof(Elf32_Shdr),
	  sizeof(Elf32_Phdr) },
	{ 8, 32, 40, 54, 56, 58, 60, 32, 44, sizeof(Elf64_Shdr),
	  sizeof(Elf64_Phdr) },
};

/* A field of n bytes at p (the host's order: files of other machines are
 * not profiled here). */
static uint64_t field(const unsigned char *p, unsigned int n)
{
	uint64_t v = 0;

	memcpy(&v, p, n);
	return v;
}

/*
 * The ELF header, before libelf sees the file: section and program header
 * tables of a sane count and size, inside the file and on data (libelf
 * allocates per header it is told of).
 */
static int check_headers(const struct elf_file *f)
{
	unsigned char h[sizeof(Elf64_Ehdr)], s0[sizeof(Elf64_Shdr)];
	const struct layout *l;
	uint64_t shoff, phoff, shnum, phnum;

	if (pread_full(f->fd, h, sizeof(h), 0) || memcmp(h, ELFMAG, SELFMAG) ||
	    (h[EI_CLASS] != ELFCLASS32 && h[EI_CLASS] != ELFCLASS64))
		return -1;
	l = &layouts[h[EI_CLASS] == ELFCLASS64];
	shoff = field(h + l->shoff, l->word);
	phoff = field(h + l->phoff, l->word);
	shnum = field(h + l->shnum, 2);
	phnum = field(h + l->phnum, 2);
	/* extended numbering: the counts are in section header 0 */
	if (shoff && (!shnum || phnum == PN_XNUM)) {
		if (pread_full(f->fd, s0, l->shdr, shoff))
			return -1;
		if (!shnum)
			shnum = field(s0 + l->s0_size, l->word);
		if (phnum == PN_XNUM)
			phnum = field(s0 + l->s0_info, 4);
	}
	if (shoff &&
	    (field(h + l->shent, 2) != l->shdr || shnum > ELF_HEADERS_MAX ||
	     !elf_file_backed(f, shoff, shnum * l->shdr)))
		return -1;
	if (phoff && phnum &&
	    (field(h + l->phent, 2) != l->phdr || phnum > ELF_HEADERS_MAX ||
	     !elf_file_backed(f, phoff, phnum * l->phdr)))
		return -1;
	return 0;
}

/* Whether the part [off, off + size) is one we may read whole. */
static bool readable(const struct elf_file *f, uint64_t off, uint64_t size)
{
	return size <= ELF_SECTION_MAX && elf_file_backed(f, off, size);
}

/* A compressed section's size once inflated: bounded too (a zlib bomb). */
static bool inflates_within(const struct elf_file *f, const GElf_Shdr *sh)
{
	GElf_Chdr ch;
	Elf64_Chdr c64;
	Elf32_Chdr c32;

	if (!(sh->sh_flags & SHF_COMPRESSED))
		return true;
	if (gelf_getclass(f->elf) == ELFCLASS64) {
		if (pread_full(f->fd, &c64, sizeof(c64), sh->sh_offset))
			return false;
		ch.ch_size = c64.ch_size;
	} else {
		if (pread_full(f->fd, &c32, sizeof(c32), sh->sh_offset))
			return false;
		ch.ch_size = c32.ch_size;
	}
	return ch.ch_size <= ELF_SECTION_MAX;
}

/* Sections read by name, whatever their type. */
static bool read_by_name(const char *name)
{
	static const char *const names[] = {
		".gnu_debuglink", ".eh_frame_hdr", ".eh_frame", ".debug_frame",
		".zdebug_frame",  ".plt",	   ".plt.sec",	".plt.got",
	};

	for (size_t i = 0; name && i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/* Every section and segment that sym/ or libdw reads, bounded. */
static int check_parts(const struct elf_file *f)
{
	size_t shstrndx = 0, n = 0;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	GElf_Phdr ph;

	if (!elf_getshdrstrndx(f->elf, &shstrndx) && shstrndx &&
	    (scn = elf_getscn(f->elf, shstrndx)) && gelf_getshdr(scn, &sh) &&
	    sh.sh_type != SHT_NOBITS && !readable(f, sh.sh_offset, sh.sh_size))
		return -1;
	for (scn = NULL; (scn = elf_nextscn(f->elf, scn));) {
		const char *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		name = shstrndx ? elf_strptr(f->elf, shstrndx, sh.sh_name)
				: NULL;
		if (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM &&
		    sh.sh_type != SHT_STRTAB && sh.sh_type != SHT_NOTE &&
		    sh.sh_type != SHT_DYNAMIC && sh.sh_type != SHT_RELA &&
		    !read_by_name(name))
			continue;
		if (!readable(f, sh.sh_offset, sh.sh_size) ||
		    !inflates_within(f, &sh))
			return -1;
	}
	if (elf_getphdrnum(f->elf, &n))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (gelf_getphdr(f->elf, (int)i, &ph) &&
		    (ph.p_type == PT_NOTE || ph.p_type == PT_GNU_EH_FRAME ||
		     ph.p_type == PT_DYNAMIC) &&
		    !readable(f, ph.p_offset, ph.p_filesz))
			return -1;
	return 0;
}

int elf_file_open_fd(int fd, struct elf_file *f)
{
	static bool init;
	struct stat st;
	int e = ENOEXEC;

	if (!init) {
		elf_version(EV_CURRENT);
		init = true;
	}
	f->fd = fd;
	f->elf = NULL;
	f->size = 0;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		e = EINVAL;
		goto fail;
	}
	f->size = (uint64_t)st.st_size;
	if (check_headers(f))
		goto fail;
	f->elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF ||
	    gelf_getclass(f->elf) == ELFCLASSNONE || check_parts(f))
		goto fail;
	return 0;
fail:
	elf_file_close(f);
	errno = e;
	return -1;
}

int elf_file_open(int rootfd, const char *path, struct elf_file *f)
{
	/* the target's path: no device, no FIFO, no way out of its root */
	int fd = open_regular_in(rootfd, path);

	f->fd = -1;
	f->elf = NULL;
	if (fd < 0)
		return -1;
	return elf_file_open_fd(fd, f);
}

void elf_file_close(struct elf_file *f)
{
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	f->elf = NULL;
	f->fd = -1;
}

/* Whether scn's symbols (a symbol table in elf of nsec sections) define
 * the function name. */
static bool scn_defines(Elf *elf, Elf_Scn *scn, size_t nsec, const char *name)
{
	GElf_Shdr sh;
	Elf_Data *d;
	size_t count;

	if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNSYM ||
	    !sh.sh_entsize || sh.sh_link >= nsec ||
	    !(d = elf_getdata(scn, NULL)) || !d->d_buf)
		return false;
	count = d->d_size / gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
	for (size_t i = 0; i < count; i++) {
		const char *n;
		GElf_Sym sym;
		int st;

		if (!gelf_getsym(d, i, &sym))
			break;
		st = GELF_ST_TYPE(sym.st_info);
		if ((st == STT_FUNC || st == STT_GNU_IFUNC) &&
		    sym.st_shndx != SHN_UNDEF &&
		    (n = elf_strptr(elf, sh.sh_link, sym.st_name)) &&
		    !strcmp(n, name))
			return true;
	}
	return false;
}

int elf_file_defines(int fd, const char *name)
{
	struct elf_file f;
	Elf_Scn *scn = NULL;
	size_t nsec = 0;
	int r = 0;

	if (elf_file_open_fd(fd, &f))
		return -1;
	if (elf_getshdrnum(f.elf, &nsec))
		r = -1;
	while (!r && (scn = elf_nextscn(f.elf, scn)))
		r = scn_defines(f.elf, scn, nsec, name);
	elf_file_close(&f);
	return r;
}

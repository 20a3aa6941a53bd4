// SPDX-License-Identifier: GPL-2.0
/*
 * Finding the separate debug file of a stripped ELF file (see sym/debug_file.h):
 * the places gdb and perf look, below the target's root so that a process in
 * a container finds the debug files installed in it.
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
#include <zlib.h>

#include "lib/file.h"
#include "sym/debug_file.h"

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

/* The build-id note among the notes in d, as hex into out. */
static bool build_id_note(Elf_Data *d, char *out, size_t outsz)
{
	GElf_Nhdr nh;
	size_t off = 0, noff, doff, i;
	const unsigned char *desc;

	if (!d || !d->d_buf)
		return false;
	while (off < d->d_size &&
	       (off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
		if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
		    memcmp((char *)d->d_buf + noff, "GNU", 4) || !nh.n_descsz ||
		    nh.n_descsz * 2 >= outsz)
			continue;
		desc = (const unsigned char *)d->d_buf + doff;
		for (i = 0; i < nh.n_descsz; i++)
			sprintf(out + 2 * i, "%02x", desc[i]);
		return true;
	}
	return false;
}

void elf_build_id(Elf *elf, char *out, size_t outsz)
{
	Elf_Scn *scn = NULL;
	size_t n = 0, i;
	GElf_Shdr sh;
	GElf_Phdr ph;

	out[0] = '\0';
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_NOTE &&
		    build_id_note(elf_getdata(scn, NULL), out, outsz))
			return;
	/* No section headers (sstrip, or a memory image): the notes of the
	 * program headers. */
	if (elf_getphdrnum(elf, &n))
		return;
	for (i = 0; i < n; i++)
		if (gelf_getphdr(elf, i, &ph) && ph.p_type == PT_NOTE &&
		    build_id_note(elf_getdata_rawchunk(elf, ph.p_offset,
						       ph.p_filesz, ELF_T_NHDR),
				  out, outsz))
			return;
}

static bool has_section(Elf *elf, unsigned int type)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == type)
			return true;
	return false;
}

/* The .gnu_debuglink name and CRC; false when the file has none. */
static bool read_debuglink(Elf *elf, char *name, size_t namesz, uint32_t *crc)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *sn;
		Elf_Data *d;
		size_t len, coff;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		sn = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!sn || strcmp(sn, ".gnu_debuglink"))
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || d->d_size < 5)
			return false;
		len = strnlen(d->d_buf, d->d_size);
		coff = (len + 4) & ~(size_t)3;
		if (!len || len >= namesz || coff + 4 > d->d_size)
			return false;
		memcpy(name, d->d_buf, len);
		name[len] = '\0';
		memcpy(crc, (char *)d->d_buf + coff, 4);
		return !strchr(name, '/');
	}
	return false;
}

static bool file_crc_matches(int fd, uint32_t want)
{
	size_t bufsz = 1 << 16;
	unsigned char *buf = malloc(bufsz);
	uLong crc = crc32(0L, Z_NULL, 0);
	ssize_t r = -1;

	if (buf && lseek(fd, 0, SEEK_SET) == 0)
		while ((r = read(fd, buf, bufsz)) > 0)
			crc = crc32(crc, buf, (uInt)r);
	free(buf);
	return r == 0 && (uint32_t)crc == want;
}

int elf_file_open(const char *path, struct elf_file *f)
{
	f->elf = NULL;
	f->fd = open_regular(path); /* the target's path: no device, no FIFO */
	if (f->fd < 0)
		return -1;
	f->elf = elf_begin(f->fd, ELF_C_READ, NULL);
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF ||
	    gelf_getclass(f->elf) == ELFCLASSNONE) {
		if (f->elf)
			elf_end(f->elf);
		close(f->fd);
		f->fd = -1;
		f->elf = NULL;
		errno = ENOEXEC;
		return -1;
	}
	return 0;
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

/*
 * Opens a candidate debug file; with want_crc, only when its CRC matches;
 * with a build-id on both sides, only when they match; never the binary
 * itself (a debuglink naming a file in its own directory).
 */
static int open_debug(const char *path, const struct stat *self,
		      const char *build_id, const uint32_t *want_crc,
		      struct elf_file *f)
{
	struct stat st;
	char bid[129];

	if (stat(path, &st) || !S_ISREG(st.st_mode) ||
	    (st.st_dev == self->st_dev && st.st_ino == self->st_ino))
		return -1;
	if (elf_file_open(path, f))
		return -1;
	if (want_crc && !file_crc_matches(f->fd, *want_crc))
		goto bad;
	elf_build_id(f->elf, bid, sizeof(bid));
	if (*build_id && *bid && strcmp(build_id, bid))
		goto bad;
	if (!has_section(f->elf, SHT_SYMTAB))
		goto bad;
	return 0;
bad:
	elf_file_close(f);
	return -1;
}

int debug_file_find(Elf *elf, const char *root, const char *path,
		    const struct stat *self, const char *build_id,
		    struct elf_file *f, char **src)
{
	char cand[4096], link[256], dir[2048];
	const char *slash;
	uint32_t crc;
	int i;

	if (strlen(build_id) > 2) {
		snprintf(cand, sizeof(cand),
			 "%s/usr/lib/debug/.build-id/%.2s/%s.debug", root,
			 build_id, build_id + 2);
		if (!open_debug(cand, self, build_id, NULL, f))
			goto found_bid;
	}
	if (!read_debuglink(elf, link, sizeof(link), &crc))
		return -1;
	slash = strrchr(path, '/');
	if (!slash || (size_t)(slash - path) >= sizeof(dir))
		return -1;
	memcpy(dir, path, slash - path);
	dir[slash - path] = '\0';
	for (i = 0; i < 3; i++) {
		static const char *const fmt[] = { "%s%s/%s", "%s%s/.debug/%s",
						   "%s/usr/lib/debug%s/%s" };

		snprintf(cand, sizeof(cand), fmt[i], root, dir, link);
		if (!open_debug(cand, self, build_id, &crc, f)) {
			if (asprintf(src, "debuglink:%s", cand) < 0)
				*src = NULL;
			return 0;
		}
	}
	return -1;
found_bid:
	if (asprintf(src, "build-id:%s", cand) < 0)
		*src = NULL;
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Finding the separate debug file of a stripped ELF file (see sym/debug_file.h):
 * the places gdb and perf look, inside the target's root so that a process in
 * a container finds the debug files installed in it, and nothing else.
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

/*
 * The CRC of a debuglink candidate: over the whole file, so only for one of
 * at most DEBUG_CRC_MAX bytes, all of them data (a sparse terabyte reads
 * as zeros for an hour), and once per file (by device, inode, size and
 * mtime: unwind/ and sym/ both look for the same debug files).
 */
#define DEBUG_CRC_MAX ((uint64_t)256 << 20)
#define CRC_CACHE 64

struct crc_ent {
	uint64_t dev, ino, size, mtime_ns;
	uint32_t crc;
	bool ok; /* summed (not refused) */
};

static struct crc_ent crc_cache[CRC_CACHE];
static unsigned int crc_n, crc_next;

static bool file_crc(const struct elf_file *f, const struct stat *st,
		     uint32_t *crc)
{
	struct crc_ent k = { (uint64_t)st->st_dev, (uint64_t)st->st_ino,
			     (uint64_t)st->st_size,
			     (uint64_t)st->st_mtim.tv_sec * 1000000000ull +
				 (uint64_t)st->st_mtim.tv_nsec };
	unsigned char *buf;
	uLong c = crc32(0L, Z_NULL, 0);
	uint64_t off = 0;

	for (unsigned int i = 0; i < crc_n; i++) {
		const struct crc_ent *e = &crc_cache[i];

		if (e->dev == k.dev && e->ino == k.ino && e->size == k.size &&
		    e->mtime_ns == k.mtime_ns) {
			*crc = e->crc;
			return e->ok;
		}
	}
	if (k.size <= DEBUG_CRC_MAX && elf_file_backed(f, 0, k.size) &&
	    (buf = malloc(1 << 16))) {
		while (off < k.size) {
			ssize_t r = pread(f->fd, buf, 1 << 16, (off_t)off);

			if (r <= 0)
				break;
			c = crc32(c, buf, (uInt)r);
			off += (uint64_t)r;
		}
		free(buf);
		k.ok = off == k.size;
		k.crc = (uint32_t)c;
	}
	crc_cache[crc_next] = k;
	crc_next = (crc_next + 1) % CRC_CACHE;
	if (crc_n < CRC_CACHE)
		crc_n++;
	*crc = k.crc;
	return k.ok;
}

/*
 * Opens a candidate debug file (inside rootfd) when it is the one: never
 * the binary itself (a debuglink naming a file in its own directory); by
 * build-id when both files have one (a build-id path's file must have it),
 * else (want_crc) by the debuglink's CRC; and with a .symtab.
 */
static int open_debug(int rootfd, const char *path, const struct stat *self,
		      const char *build_id, const uint32_t *want_crc,
		      struct elf_file *f)
{
	struct stat st;
	char bid[129];
	uint32_t crc;

	if (elf_file_open(rootfd, path, f))
		return -1;
	if (fstat(f->fd, &st) ||
	    (st.st_dev == self->st_dev && st.st_ino == self->st_ino))
		goto bad;
	elf_build_id(f->elf, bid, sizeof(bid));
	if (*build_id && *bid) {
		if (strcmp(build_id, bid))
			goto bad;
	} else if (!want_crc || !file_crc(f, &st, &crc) || crc != *want_crc) {
		goto bad;
	}
	if (!has_section(f->elf, SHT_SYMTAB))
		goto bad;
	return 0;
bad:
	elf_file_close(f);
	return -1;
}

int debug_file_find(Elf *elf, int rootfd, const char *path,
		    const struct stat *self, const char *build_id,
		    struct elf_file *f, char **src)
{
	char cand[4096], link[256], dir[2048];
	const char *slash;
	uint32_t crc;
	int i;

	if (strlen(build_id) > 2) {
		snprintf(cand, sizeof(cand),
			 "/usr/lib/debug/.build-id/%.2s/%s.debug", build_id,
			 build_id + 2);
		if (!open_debug(rootfd, cand, self, build_id, NULL, f))
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
		static const char *const fmt[] = { "%s/%s", "%s/.debug/%s",
						   "/usr/lib/debug%s/%s" };

		snprintf(cand, sizeof(cand), fmt[i], dir, link);
		if (!open_debug(rootfd, cand, self, build_id, &crc, f)) {
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

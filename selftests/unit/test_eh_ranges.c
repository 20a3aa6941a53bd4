// SPDX-License-Identifier: GPL-2.0
/*
 * Naming frames in libraries that keep only .dynsym: on the system's libz,
 * every function start of its .eh_frame_hdr that no exported symbol covers
 * names its addresses "libz.so.1+0x<start>", exported functions keep their
 * names; a damaged table (huge count, unknown encoding, truncated) gives no
 * such names and no crash; a file with .symtab gets none.
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sym/debug_file.h"
#include "sym/eh_ranges.h"
#include "sym/elf.h"
#include "tap.h"

#define LIBZ "/lib/x86_64-linux-gnu/libz.so.1"

/* The file offset of .eh_frame_hdr in a file image, or 0. */
static size_t hdr_offset(void *img, size_t size)
{
	Elf *e = elf_memory(img, size);
	size_t shstrndx, off = 0;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (!e)
		return 0;
	if (!elf_getshdrstrndx(e, &shstrndx))
		while ((scn = elf_nextscn(e, scn)))
			if (gelf_getshdr(scn, &sh) &&
			    !strcmp(elf_strptr(e, shstrndx, sh.sh_name) ?: "",
				    ".eh_frame_hdr"))
				off = sh.sh_offset;
	elf_end(e);
	return off;
}

static void *read_all(const char *path, size_t *size)
{
	struct stat st;
	void *buf;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st)) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	buf = malloc(st.st_size);
	if (buf && read(fd, buf, st.st_size) != st.st_size) {
		free(buf);
		buf = NULL;
	}
	close(fd);
	*size = st.st_size;
	return buf;
}

/* How many lookups at start + 1 of each start give "<soname>+0x<start>". */
static unsigned int synthetic_named(const struct elf_symtab *t,
				    const uint64_t *starts, size_t n,
				    unsigned int *exported)
{
	unsigned int named = 0;
	char want[64];

	*exported = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t off;
		const char *s = elf_symtab_lookup(t, starts[i] + 1, &off);

		snprintf(want, sizeof(want), "libz.so.1+0x%llx",
			 (unsigned long long)starts[i]);
		if (s && !strcmp(s, want) && off == 1)
			named++;
		else if (s && !strchr(s, '+'))
			(*exported)++;
	}
	return named;
}

int main(void)
{
	struct elf_symtab *t, *self;
	struct elf_file f;
	uint64_t *starts = NULL, off;
	size_t n = 0, size, at;
	unsigned int named, exported;
	unsigned char *img;
	const char *s;

	char *libz = realpath(LIBZ, NULL);

	elf_version(EV_CURRENT);
	if (!libz || elf_file_open(ELF_ROOT_HOST, libz, &f)) {
		skip("libz names", LIBZ " is not installed");
		return tap_done();
	}
	int r = eh_frame_starts(f.elf, &starts, &n);

	ok(!r && n > 20, "libz: %zu function starts in .eh_frame_hdr", n);
	elf_file_close(&f);
	t = elf_symtab_load("", libz);
	ok(t && !strcmp(elf_symtab_source(t), "dynsym"),
	   "libz keeps .dynsym only (%s)", t ? elf_symtab_source(t) : "-");
	if (!t)
		return tap_done();
	named = synthetic_named(t, starts, n, &exported);
	ok(named > 0 && named + exported == n,
	   "every start is named: %u by libz.so.1+0x<start>, %u exported",
	   named, exported);
	s = elf_symtab_lookup(t, starts[n - 1] + 2, &off);
	ok(s && off == 2, "the last function is covered too (%s+%llu)",
	   s ? s : "-", (unsigned long long)off);
	elf_symtab_free(t);

	img = read_all(libz, &size);
	at = img ? hdr_offset(img, size) : 0;
	ok(at && at + 12 < size, ".eh_frame_hdr found in the image");
	if (at) {
		uint32_t huge = 0xfffffff0;

		memcpy(img + at + 8, &huge, 4); /* fde_count */
		t = elf_symtab_load_image(img, size);
		named = t ? synthetic_named(t, starts, n, &exported) : 0;
		ok(t && named == 0, "a count beyond the table: no such names");
		elf_symtab_free(t);
		img[at + 3] = 0x1b; /* a table encoding ld never writes */
		t = elf_symtab_load_image(img, size);
		ok(t && synthetic_named(t, starts, n, &exported) == 0,
		   "an unknown table encoding: no such names");
		elf_symtab_free(t);
		memset(img + at, 0xff, 12);
		t = elf_symtab_load_image(img, size);
		ok(t != NULL, "a clobbered header still loads the symbols");
		elf_symtab_free(t);
	}
	free(img);
	free(starts);
	free(libz);

	self = elf_symtab_load("", "/proc/self/exe");
	ok(self && !strcmp(elf_symtab_source(self), "symtab"),
	   "a file with .symtab is named from it alone");
	elf_symtab_free(self);
	return tap_done();
}

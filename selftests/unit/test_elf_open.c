// SPDX-License-Identifier: GPL-2.0
/*
 * sym/elf_open: a target's ELF file is refused before anything is read
 * when a table claims more than ELF_SECTION_MAX, lies in a hole of a sparse
 * file (on disk or a memfd), or the headers claim absurd counts; a normal
 * file still loads. Each refusal is timed and must not grow the RSS.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/clock.h"
#include "sym/elf.h"
#include "sym/elf_open.h"
#include "tap.h"

static char dir[64];

static long rss_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmRSS:", 6))
			kb = strtol(line + 6, NULL, 10);
	if (f)
		fclose(f);
	return kb;
}

static int copy_file(const char *from, int to)
{
	char buf[65536];
	int in = open(from, O_RDONLY);
	ssize_t n;

	if (in < 0)
		return -1;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(to, buf, (size_t)n) != n)
			n = -1;
	close(in);
	return n < 0 ? -1 : 0;
}

/* The file offset of the section header of the section called name. */
static long shdr_at(int fd, const char *name)
{
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	Elf64_Ehdr *eh = e ? elf64_getehdr(e) : NULL;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	long at = -1;

	if (!eh || elf_getshdrstrndx(e, &shstrndx))
		goto out;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *n;

		if (gelf_getshdr(scn, &sh) &&
		    (n = elf_strptr(e, shstrndx, sh.sh_name)) &&
		    !strcmp(n, name))
			at = (long)(eh->e_shoff +
				    elf_ndxscn(scn) * eh->e_shentsize);
	}
out:
	if (e)
		elf_end(e);
	return at;
}

/* Makes the section called name of the ELF in fd claim size bytes at the
 * end of the file, and the file that long (a hole: nothing written). */
static int claim(int fd, const char *name, uint64_t size)
{
	long at = shdr_at(fd, name);
	struct stat st;
	Elf64_Shdr sh;

	if (at < 0 || fstat(fd, &st) ||
	    pread(fd, &sh, sizeof(sh), at) != (ssize_t)sizeof(sh))
		return -1;
	sh.sh_offset = ((uint64_t)st.st_size + 4095) & ~4095ull;
	sh.sh_size = size;
	if (pwrite(fd, &sh, sizeof(sh), at) != (ssize_t)sizeof(sh))
		return -1;
	return ftruncate(fd, (off_t)(sh.sh_offset + size));
}

/* Loads path; true when refused (ENOEXEC) within 1 s and 20 MB. */
static int refused(const char *what, const char *path)
{
	long before = rss_kb(), grew;
	uint64_t t0 = now_ns();
	struct elf_symtab *t = elf_symtab_load("", path);
	int e = errno;
	double secs = (now_ns() - t0) / 1e9;

	grew = rss_kb() - before;
	elf_symtab_free(t);
	return ok(!t && e == ENOEXEC && secs < 1 && grew < 20 << 10,
		  "%s: refused (errno %d) in %.3f s, RSS +%ld kB", what, e,
		  secs, grew);
}

static void test_sparse(const char *self)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "%s/sparse", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || copy_file(self, fd) || claim(fd, ".symtab", 2ull << 30)) {
		ok(0, "sparse 2 GB .symtab made");
		return;
	}
	close(fd);
	refused("a .symtab claiming 2 GB of a sparse file", path);

	fd = memfd_create("pj-test", 0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (fd < 0 || copy_file(self, fd) || claim(fd, ".strtab", 2ull << 30)) {
		ok(0, "memfd with a 2 GB .strtab made");
	} else {
		refused("a memfd whose .strtab claims 2 GB", path);
	}
	if (fd >= 0)
		close(fd);

	/* on data, but past the bound: 200 MB of a .symtab really there */
	snprintf(path, sizeof(path), "%s/big", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0 && !copy_file(self, fd) &&
	    !claim(fd, ".symtab", 200ull << 20)) {
		struct stat st;
		static char junk[1 << 20];
		off_t at;

		fstat(fd, &st);
		at = st.st_size - (200 << 20);
		memset(junk, 1, sizeof(junk));
		for (int i = 0; i < 200; i++)
			if (pwrite(fd, junk, sizeof(junk), at + i * (1 << 20)) <
			    0)
				break;
		close(fd);
		refused("a 200 MB .symtab (over the 128 MiB bound)", path);
	} else {
		ok(0, "200 MB .symtab made");
	}
}

static void test_headers(const char *self)
{
	char path[128];
	Elf64_Ehdr eh;
	int fd;

	snprintf(path, sizeof(path), "%s/shnum", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || copy_file(self, fd) ||
	    pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh)) {
		ok(0, "copy made");
		return;
	}
	/* extended numbering: section 0 says 100 million sections */
	{
		Elf64_Shdr s0;
		int bad = pread(fd, &s0, sizeof(s0), (off_t)eh.e_shoff) !=
			  (ssize_t)sizeof(s0);

		s0.sh_size = 100000000;
		eh.e_shnum = 0;
		bad |= pwrite(fd, &s0, sizeof(s0), (off_t)eh.e_shoff) < 0;
		bad |= pwrite(fd, &eh, sizeof(eh), 0) < 0;
		bad |= ftruncate(fd, (off_t)eh.e_shoff + 100000000ll * 64);
		close(fd);
		if (bad) {
			ok(0, "100 million section headers made");
			return;
		}
	}
	refused("100 million section headers (extended numbering)", path);
}

int main(void)
{
	struct elf_symtab *t;
	const char *self = "/proc/self/exe";

	elf_version(EV_CURRENT);
	snprintf(dir, sizeof(dir), "/tmp/pj-elfopen.XXXXXX");
	if (!mkdtemp(dir)) {
		skip("elf_open", "no directory in /tmp");
		return tap_done();
	}
	t = elf_symtab_load("", self);
	ok(t && elf_symtab_count(t) > 10, "this test's own file loads");
	elf_symtab_free(t);
	test_sparse(self);
	test_headers(self);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd)) {
			/* left in /tmp */
		}
	}
	return tap_done();
}

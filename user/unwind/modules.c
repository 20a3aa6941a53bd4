// SPDX-License-Identifier: GPL-2.0
/*
 * The process's mapped files as Dwfl modules. Each file with executable code
 * is reported once, over the range of all its mappings; re-reporting after a
 * change of the maps keeps the modules (and the CFI libdw has cached for
 * them) whose name and range did not change. Files are opened below
 * /proc/PID/root as the target sees them and read with pread (sym/debug_file.h,
 * never mmap); a file whose inode is not the mapped one any more is read
 * through /proc/PID/map_files. Separate debug files (.debug_frame) are found
 * as the symbolizer finds them; libdw maps those itself, so it is given a
 * private copy (a file the target truncates under a mapping would raise
 * SIGBUS in the recorder).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/procfs.h"
#include "sym/debug_file.h"
#include "unwind/internal.h"

#define VDSO "[vdso]"
#define VDSO_MAX (1u << 20)

bool unwind_addr_mapped(const struct unwinder *u, uint64_t addr)
{
	return maps_find(&u->maps, addr) != NULL;
}

/* The mapping of modname with the lowest address, or NULL. */
static const struct pj_map *first_map(const struct unwinder *u,
				      const char *modname)
{
	for (unsigned int i = 0; i < u->maps.n; i++)
		if (!strcmp(u->maps.v[i].path, modname))
			return &u->maps.v[i];
	return NULL;
}

static int open_mapped(struct unwinder *u, const char *modname,
		       struct elf_file *f, struct stat *st)
{
	const struct pj_map *m = first_map(u, modname);
	char path[4200];

	if (!m)
		return -1;
	if ((size_t)snprintf(path, sizeof(path), "%s%s", u->root, modname) <
		sizeof(path) &&
	    !m->deleted && !elf_file_open(path, f)) {
		if (!fstat(f->fd, st) && st->st_ino == m->inode)
			return 0;
		elf_file_close(f);
	}
	snprintf(path, sizeof(path), "/proc/%d/map_files/%llx-%llx",
		 (int)u->pid, (unsigned long long)m->start,
		 (unsigned long long)m->end);
	if (elf_file_open(path, f))
		return -1;
	if (fstat(f->fd, st)) {
		elf_file_close(f);
		return -1;
	}
	return 0;
}

static int find_elf(Dwfl_Module *mod, void **userdata, const char *modname,
		    Dwarf_Addr base, char **file_name, Elf **elfp)
{
	struct unwinder *u = *userdata;
	struct elf_file f;
	struct stat st;

	*elfp = NULL;
	if (u && !strcmp(modname, VDSO)) {
		/* The image read from the target when it was reported. */
		if (!u->vdso)
			return -1;
		*elfp = elf_memory(u->vdso, u->vdso_len);
		return -1;
	}
	if (!u || open_mapped(u, modname, &f, &st))
		return -1;
	/* libdw owns both now: elf_end and close at dwfl_end. */
	*elfp = f.elf;
	return f.fd;
}

#define DEBUG_COPY_MAX (256u << 20) /* larger debug files are not used */

/* A copy of the open file fd in memory only the recorder holds; -1 when it
 * is larger than DEBUG_COPY_MAX or cannot be copied. */
static int private_copy(int fd)
{
	struct stat st;
	off_t off = 0;
	int m;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (uint64_t)st.st_size > DEBUG_COPY_MAX)
		return -1;
	m = memfd_create("perfjava-debug", MFD_CLOEXEC);
	if (m < 0)
		return -1;
	while (off < st.st_size) {
		ssize_t n = sendfile(m, fd, &off, (size_t)(st.st_size - off));

		if (n <= 0) {
			close(m);
			return -1;
		}
	}
	return m;
}

static int find_debuginfo(Dwfl_Module *mod, void **userdata,
			  const char *modname, Dwarf_Addr base,
			  const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	struct unwinder *u = *userdata;
	struct elf_file self, dbg;
	char build_id[129], *src = NULL;
	struct stat st;
	int fd;

	if (!u || !strcmp(modname, VDSO) || open_mapped(u, modname, &self, &st))
		return -1;
	elf_build_id(self.elf, build_id, sizeof(build_id));
	if (debug_file_find(self.elf, u->root, modname, &st, build_id, &dbg,
			    &src)) {
		elf_file_close(&self);
		return -1;
	}
	elf_file_close(&self);
	/* libdw maps the debug file itself from the descriptor. */
	fd = private_copy(dbg.fd);
	elf_file_close(&dbg);
	if (fd < 0) {
		free(src);
		return -1;
	}
	*debuginfo_file_name = src;
	return fd;
}

const Dwfl_Callbacks unwind_dwfl_callbacks = {
	.find_elf = find_elf,
	.find_debuginfo = find_debuginfo,
};

/* The [vdso]: its CFI covers the clock functions a program calls in a loop.
 * Read once; a process keeps the same vdso all its life. */
static Dwfl_Module *report_vdso(struct unwinder *u, const struct pj_map *m)
{
	size_t len = m->end - m->start;

	if (!u->vdso && len && len <= VDSO_MAX) {
		u->vdso = proc_read_mem(u->pid, m->start, len);
		u->vdso_len = u->vdso ? len : 0;
	}
	if (!u->vdso || u->vdso_len != len)
		return NULL;
	return dwfl_report_module(u->dwfl, VDSO, m->start, m->end);
}

/* The callbacks find the unwinder in the module's user data. */
static unsigned int own(Dwfl_Module *mod, struct unwinder *u)
{
	void **ud = NULL;

	if (dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL) &&
	    ud)
		*ud = u;
	return 1;
}

int unwind_report_modules(struct unwinder *u)
{
	struct pj_maps nm;
	unsigned int i, j, n = 0;

	u->reloads++;
	if (maps_load(u->pid, &nm))
		return -1;
	maps_free(&u->maps);
	u->maps = nm;
	dwfl_report_begin(u->dwfl);
	for (i = 0; i < nm.n; i++) {
		const struct pj_map *m = &nm.v[i];
		uint64_t lo, hi = m->end;
		bool exec = m->exec, seen = false;
		Dwfl_Module *mod;

		if (!strcmp(m->path, VDSO) && (mod = report_vdso(u, m))) {
			n += own(mod, u);
			continue;
		}
		if (m->path[0] != '/')
			continue;
		for (j = 0; j < i && !seen; j++)
			seen = !strcmp(nm.v[j].path, m->path);
		if (seen)
			continue;
		/* The load address: where file offset 0 is (or would be). */
		lo = m->start >= m->pgoff ? m->start - m->pgoff : m->start;
		for (j = i + 1; j < nm.n; j++) {
			if (strcmp(nm.v[j].path, m->path) ||
			    nm.v[j].inode != m->inode)
				continue;
			exec |= nm.v[j].exec;
			if (nm.v[j].end > hi)
				hi = nm.v[j].end;
		}
		if (!exec)
			continue;
		mod = dwfl_report_module(u->dwfl, m->path, lo, hi);
		if (mod)
			n += own(mod, u);
	}
	if (dwfl_report_end(u->dwfl, NULL, NULL))
		return -1;
	u->nmodules = n;
	return 0;
}

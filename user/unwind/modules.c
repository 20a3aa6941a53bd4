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

#include "lib/hash.h"
#include "lib/procfs.h"
#include "lib/u64map.h"
#include "sym/debug_file.h"
#include "unwind/internal.h"

#define VDSO "[vdso]"
#define VDSO_MAX (1u << 20)

bool unwind_addr_mapped(const struct unwinder *u, uint64_t addr)
{
	return maps_find(&u->maps, addr) != NULL;
}

bool unwind_addr_anon(const struct unwinder *u, uint64_t addr)
{
	const struct pj_map *m = maps_find(&u->maps, addr);

	return m && m->exec && !m->path[0];
}

bool unwind_addr_code(const struct unwinder *u, uint64_t addr)
{
	const struct pj_map *m = maps_find(&u->maps, addr);

	return m && m->exec;
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
	int fd = m ? maps_open_file(u->pid, u->rootfd, m) : -1;

	if (fd < 0 || elf_file_open_fd(fd, f))
		return -1;
	if (fstat(f->fd, st)) {
		elf_file_close(f);
		return -1;
	}
	return 0;
}

/*
 * Each file's Elf, shared by the modules of every process that maps it:
 * libelf counts an Elf's references (elf_begin(-1, ELF_C_READ, e) is e once
 * more; each dwfl_end lets one go) and keeps what it has read of the file,
 * so .eh_frame is read once in the recording instead of once per process (a
 * churn of short processes each mapping libc; each JVM's libjvm.so). Kept
 * for the whole recording, for the first SHARED_MAX files of SHARED_BYTES
 * in all (what an Elf keeps is read from its file: the bound of what the
 * table holds, whatever files the targets map), each with its descriptor
 * open (libelf reads through it); more are opened per process, as before.
 * A file is known by its identity as fstat gives it, compared whole.
 */
#define SHARED_MAX 128
#define SHARED_BYTES ((off_t)512 << 20)
struct shared_elf {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtim;
	Elf *elf;
};
static struct shared_elf shared[SHARED_MAX];
static unsigned int nshared;
static off_t shared_bytes;

static bool same_file(const struct shared_elf *e, const struct stat *st)
{
	return e->dev == st->st_dev && e->ino == st->st_ino &&
	       e->size == st->st_size && e->mtim.tv_sec == st->st_mtim.tv_sec &&
	       e->mtim.tv_nsec == st->st_mtim.tv_nsec;
}

/* A reference to the shared Elf of the file f (open, of identity st), f
 * closed or kept by the table; NULL when f is to be used as it is. */
static Elf *shared_elf(struct elf_file *f, const struct stat *st)
{
	Elf *e;

	for (unsigned int i = 0; i < nshared; i++) {
		if (!same_file(&shared[i], st))
			continue;
		e = elf_begin(-1, ELF_C_READ, shared[i].elf);
		if (e)
			elf_file_close(f);
		return e;
	}
	if (nshared >= SHARED_MAX ||
	    st->st_size > SHARED_BYTES - shared_bytes ||
	    !(e = elf_begin(-1, ELF_C_READ, f->elf)))
		return NULL;
	shared[nshared++] = (struct shared_elf){ st->st_dev, st->st_ino,
						 st->st_size, st->st_mtim,
						 f->elf };
	shared_bytes += st->st_size;
	return e; /* (f's descriptor stays open: the table's) */
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
	*elfp = shared_elf(&f, &st);
	if (*elfp) /* libdw holds a reference, the table the descriptor */
		return -1;
	/* libdw owns both now: elf_end and close at dwfl_end. */
	*elfp = f.elf;
	return f.fd;
}

#define DEBUG_COPY_MAX (256u << 20) /* larger debug files are not used */

/* A copy of the open file f in memory only the recorder holds; -1 when it
 * is larger than DEBUG_COPY_MAX, sparse, or cannot be copied. */
static int private_copy(const struct elf_file *f)
{
	off_t off = 0, size = (off_t)f->size;
	int m;

	if (!size || f->size > DEBUG_COPY_MAX ||
	    !elf_file_backed(f, 0, f->size))
		return -1;
	m = memfd_create("perfjava-debug", MFD_CLOEXEC);
	if (m < 0)
		return -1;
	while (off < size) {
		ssize_t n = sendfile(m, f->fd, &off, (size_t)(size - off));

		if (n <= 0) {
			close(m);
			return -1;
		}
	}
	return m;
}

/*
 * The unwinder wants a debug file for its .debug_frame only, which x86-64
 * code seldom has (its CFI is in .eh_frame). Handing libdw one without
 * costs a copy of the file and the inflating of all its debug sections
 * (libc6-dbg's: 4 MB read, 15 MB inflated) in every process that maps its
 * file, for nothing: whether a file's debug file has one is found once in
 * the recording, by the file and the root it was looked for in.
 */
#define FRAMES_KNOWN 4096
enum { FRAME_NONE = 1, FRAME_SOME = 2 };
static struct u64map frames_known; /* by frame_key: FRAME_NONE, FRAME_SOME */

static uint64_t frame_key(const struct unwinder *u, const struct stat *self)
{
	struct stat root = { 0 };
	uint64_t v[6];

	if (u->rootfd >= 0 && fstat(u->rootfd, &root))
		memset(&root, 0, sizeof(root));
	v[0] = self->st_dev;
	v[1] = self->st_ino;
	v[2] = (uint64_t)self->st_size;
	v[3] = (uint64_t)self->st_mtim.tv_sec << 30 ^
	       (uint64_t)self->st_mtim.tv_nsec;
	v[4] = root.st_dev;
	v[5] = root.st_ino;
	return hash_bytes(v, sizeof(v), 0) | 1; /* (never 0) */
}

/* Whether elf has a .debug_frame with contents. */
static bool has_debug_frame(Elf *elf)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && (!strcmp(name, ".debug_frame") ||
			     !strcmp(name, ".zdebug_frame")))
			return true;
	}
	return false;
}

static void frames_remember(uint64_t key, uint32_t what)
{
	if (frames_known.n < FRAMES_KNOWN)
		u64map_put(&frames_known, key, what);
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
	uint64_t key;
	uint32_t known = 0;
	int fd;

	if (!u || !strcmp(modname, VDSO) || open_mapped(u, modname, &self, &st))
		return -1;
	key = frame_key(u, &st);
	if (u64map_get(&frames_known, key, &known) && known == FRAME_NONE) {
		elf_file_close(&self);
		return -1;
	}
	elf_build_id(self.elf, build_id, sizeof(build_id));
	if (debug_file_find(self.elf, u->rootfd, modname, &st, build_id, &dbg,
			    &src)) {
		elf_file_close(&self);
		frames_remember(key, FRAME_NONE);
		return -1;
	}
	elf_file_close(&self);
	if (!has_debug_frame(dbg.elf)) {
		elf_file_close(&dbg);
		free(src);
		frames_remember(key, FRAME_NONE);
		return -1;
	}
	frames_remember(key, FRAME_SOME);
	/* libdw maps the debug file itself from the descriptor. */
	fd = private_copy(&dbg);
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

/* Map indexes in order of path, then of index (qsort_r). */
static int cmp_path(const void *a, const void *b, void *arg)
{
	const struct pj_maps *m = arg;
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;
	int r = strcmp(m->v[x].path, m->v[y].path);

	return r ? r : (x < y ? -1 : x > y);
}

/*
 * One module per file with executable code, at the first mapping of its
 * path, over the range of the mappings of that path and inode. Sorting by
 * path groups them: O(n log n), for a target that maps thousands of files.
 * A module whose end is 0 is not reported.
 */
static int group_files(const struct pj_maps *nm, uint64_t *hi)
{
	unsigned int *idx = malloc((nm->n ? nm->n : 1) * sizeof(*idx));
	unsigned int i, j, k;

	if (!idx)
		return -1;
	for (i = 0; i < nm->n; i++) {
		idx[i] = i;
		hi[i] = 0;
	}
	qsort_r(idx, nm->n, sizeof(*idx), cmp_path, (void *)nm);
	for (i = 0; i < nm->n; i = j) {
		const struct pj_map *f = &nm->v[idx[i]];
		bool exec = false;
		uint64_t end = f->end;

		for (j = i; j < nm->n && !strcmp(nm->v[idx[j]].path, f->path);
		     j++) {
			const struct pj_map *m = &nm->v[idx[j]];

			if (m->inode != f->inode)
				continue;
			exec |= m->exec;
			if (m->end > end)
				end = m->end;
		}
		if (f->path[0] != '/' || !exec)
			continue;
		for (k = i; k < j; k++) /* the first of its path: idx[i] */
			hi[idx[k]] = 0;
		hi[idx[i]] = end;
	}
	free(idx);
	return 0;
}

int unwind_report_modules(struct unwinder *u)
{
	struct pj_maps nm;
	uint64_t *hi;
	unsigned int i, n = 0;

	u->reloads++;
	if (maps_load(u->pid, &nm))
		return -1;
	hi = malloc((nm.n ? nm.n : 1) * sizeof(*hi));
	if (!hi || group_files(&nm, hi)) {
		free(hi);
		maps_free(&nm);
		return -1;
	}
	maps_free(&u->maps);
	u->maps = nm;
	dwfl_report_begin(u->dwfl);
	for (i = 0; i < nm.n; i++) {
		const struct pj_map *m = &nm.v[i];
		uint64_t lo;
		Dwfl_Module *mod;

		if (!strcmp(m->path, VDSO) && (mod = report_vdso(u, m))) {
			n += own(mod, u);
			continue;
		}
		/* a target mapping files by the thousand (memfds) gets CFI
		 * for its first UNWIND_MAX_MODULES: libdw's report is linear
		 * per module */
		if (!hi[i] || n >= UNWIND_MAX_MODULES)
			continue;
		/* The load address: where file offset 0 is (or would be). */
		lo = m->start >= m->pgoff ? m->start - m->pgoff : m->start;
		mod = dwfl_report_module(u->dwfl, m->path, lo, hi[i]);
		if (mod)
			n += own(mod, u);
	}
	free(hi);
	if (dwfl_report_end(u->dwfl, NULL, NULL))
		return -1;
	u->nmodules = n;
	return 0;
}

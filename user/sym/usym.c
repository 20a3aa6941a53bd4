// SPDX-License-Identifier: GPL-2.0
/*
 * Symbolizing the user addresses of one process.
 *
 * An address is found in the process's mappings, turned into a file offset
 * and then into the ELF virtual address of the mapped file, and named from
 * that file's symbol table. Symbol tables live in one cache shared by every
 * process (keyed by path, device and inode; the [vdso] by its contents), so
 * that forty JVMs load libjvm.so once. Files are opened through
 * /proc/PID/root so that a process in another mount namespace is read as it
 * sees its files; a deleted file through /proc/PID/map_files. The caller
 * (sym/symbolize.c) keeps the results: each address is resolved here once.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "sym/elf.h"
#include "sym/srcline.h"
#include "sym/maps.h"
#include "sym/usym.h"
#include "lib/procfs.h"
#include "lib/clock.h"
#include "lib/grow.h"
#include "lib/hash.h"
#include "lib/u64map.h"

#define UNKNOWN "[unknown]"
#define ANON "[anon]"
/* A miss re-reads the maps at most once per 20 ms; a re-read that did not
 * find the address (a garbage frame-pointer link, not new code) doubles that
 * interval up to 1 s, so that a stream of such addresses does not keep the
 * reader parsing /proc/PID/maps. A re-read that helped resets it. */
#define MISS_REFRESH_NS 20000000ull
#define MISS_REFRESH_MAX_NS 1000000000ull
#define VDSO_MAX (1u << 20)

/* One file's symbols in the shared cache; tab is NULL when the file could
 * not be read as ELF (remembered so that it is not retried). */
struct tab_entry {
	struct tab_entry *next;
	char *path;
	uint64_t inode;
	unsigned int dev_major, dev_minor;
	struct elf_symtab *tab;
	struct srclines *lines; /* its own line table, opened at first use */
	bool lines_tried;
	unsigned int refs;
};

/* Not locked: every usym lives on the recorder's one thread. */
#define TAB_BUCKETS 512
static struct tab_entry *tab_cache[TAB_BUCKETS];

struct interned {
	struct interned *next;
	char s[];
};

#define INTERN_BUCKETS 256

struct usym {
	pid_t pid;
	int rootfd; /* its root (/proc/PID/root), -1 when gone */
	struct pj_maps maps;
	struct tab_entry **map_tab; /* per mapping, once looked up */
	bool *map_tried;
	struct tab_entry **held; /* every entry referenced: released at free */
	unsigned int nheld, held_cap;
	struct u64map held_set; /* the same, by address */
	struct interned *strings[INTERN_BUCKETS];
	uint64_t last_miss_refresh;
	uint64_t miss_interval; /* MISS_REFRESH_NS .. MISS_REFRESH_MAX_NS */
	unsigned int reloads;
};

/* Module names outlive the maps they came from (results stay valid as long
 * as the usym), so they are interned per usym. */
static const char *intern(struct usym *u, const char *s)
{
	unsigned int b = hash_str(s, 0) % INTERN_BUCKETS;
	struct interned *i;
	size_t len = strlen(s);

	for (i = u->strings[b]; i; i = i->next)
		if (!strcmp(i->s, s))
			return i->s;
	i = malloc(sizeof(*i) + len + 1);
	if (!i)
		return UNKNOWN;
	memcpy(i->s, s, len + 1);
	i->next = u->strings[b];
	u->strings[b] = i;
	return i->s;
}

/* Takes a reference on e for u once (a target mapping thousands of files
 * finds each in held_set, not by a walk of held). */
static int hold(struct usym *u, struct tab_entry *e)
{
	uint32_t v;

	if (u64map_get(&u->held_set, (uint64_t)(uintptr_t)e, &v))
		return 0;
	if (GROW(u->held, u->held_cap, u->nheld + 1) ||
	    u64map_put(&u->held_set, (uint64_t)(uintptr_t)e, 1))
		return -1;
	u->held[u->nheld++] = e;
	e->refs++;
	return 1;
}

static void release(struct tab_entry *e)
{
	struct tab_entry **pp;
	unsigned int b;

	if (--e->refs)
		return;
	b = hash_str(e->path, e->inode) % TAB_BUCKETS;
	for (pp = &tab_cache[b]; *pp; pp = &(*pp)->next) {
		if (*pp == e) {
			*pp = e->next;
			break;
		}
	}
	elf_symtab_free(e->tab);
	srclines_free(e->lines);
	free(e->path);
	free(e);
}

/*
 * The shared entry for (path, dev, inode), loaded with load() on a miss.
 * Taken for u (its reference is dropped by usym_free).
 */
static struct tab_entry *tab_get(struct usym *u, const char *path,
				 uint64_t inode, unsigned int maj,
				 unsigned int min, const struct pj_map *m,
				 const void *image, size_t image_size)
{
	unsigned int b = hash_str(path, inode) % TAB_BUCKETS;
	struct tab_entry *e;

	for (e = tab_cache[b]; e; e = e->next)
		if (e->inode == inode && e->dev_major == maj &&
		    e->dev_minor == min && !strcmp(e->path, path))
			break;
	if (!e) {
		struct elf_symtab *t;

		int fd = image ? -1 : maps_open_file(u->pid, u->rootfd, m);

		errno = 0;
		t = image    ? elf_symtab_load_image(image, image_size)
		    : fd < 0 ? NULL
			     : elf_symtab_load_fd(fd, u->rootfd, path);
		/* Only "not ELF" is remembered for everyone: a file this
		 * process could not open may open for the next one. */
		if (!t && (image || errno != ENOEXEC)) {
			return NULL;
		}
		e = calloc(1, sizeof(*e));
		if (e)
			e->path = strdup(path);
		if (!e || !e->path) {
			free(e);
			elf_symtab_free(t);
			return NULL;
		}
		e->inode = inode;
		e->dev_major = maj;
		e->dev_minor = min;
		e->tab = t;
		e->next = tab_cache[b];
		tab_cache[b] = e;
	}
	if (hold(u, e) < 0 && !e->refs) {
		e->refs = 1;
		release(e);
		e = NULL;
	}
	return e;
}

/* Reads the [vdso] out of the target and keys it by its contents. */
static struct tab_entry *vdso_tab(struct usym *u, const struct pj_map *m)
{
	size_t len = m->end - m->start;
	struct tab_entry *e = NULL;
	void *buf;

	if (!len || len > VDSO_MAX)
		return NULL;
	buf = proc_read_mem(u->pid, m->start, len);
	if (buf) {
		uint64_t crc = crc32(0L, buf, (uInt)len);

		e = tab_get(u, "[vdso]", crc << 32 | len, 0, 0, m, buf, len);
	}
	free(buf);
	return e;
}

/*
 * The file behind a mapping is read as the target sees it, inside its root;
 * through /proc/PID/map_files when it was deleted or its path now holds
 * another inode (an upgraded library), since that link always reaches the
 * mapped file itself (sym/maps.h).
 */
static struct tab_entry *map_tab(struct usym *u, unsigned int idx)
{
	const struct pj_map *m = &u->maps.v[idx];

	if (u->map_tried[idx])
		return u->map_tab[idx];
	u->map_tried[idx] = true;
	if (!strcmp(m->path, "[vdso]")) {
		u->map_tab[idx] = vdso_tab(u, m);
		return u->map_tab[idx];
	}
	if (m->path[0] != '/')
		return NULL;
	u->map_tab[idx] = tab_get(u, m->path, m->inode, m->dev_major,
				  m->dev_minor, m, NULL, 0);
	return u->map_tab[idx];
}

/* Replaces the maps; keeps the old ones when the new cannot be read (the
 * process may have exited while its samples are still being resolved). */
static int reload(struct usym *u)
{
	struct pj_maps nm;
	struct tab_entry **nt;
	bool *ntried;

	u->reloads++;
	if (maps_load(u->pid, &nm))
		return -1;
	nt = calloc(nm.n ? nm.n : 1, sizeof(*nt));
	ntried = calloc(nm.n ? nm.n : 1, sizeof(*ntried));
	if (!nt || !ntried) {
		free(nt);
		free(ntried);
		maps_free(&nm);
		return -1;
	}
	maps_free(&u->maps);
	free(u->map_tab);
	free(u->map_tried);
	u->maps = nm;
	u->map_tab = nt;
	u->map_tried = ntried;
	return 0;
}

struct usym *usym_new(pid_t pid, bool by_records)
{
	struct usym *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	u->pid = pid;
	u->rootfd = proc_dir(pid, "root");
	u->map_tab = calloc(1, sizeof(*u->map_tab));
	u->map_tried = calloc(1, sizeof(*u->map_tried));
	if (!u->map_tab || !u->map_tried) {
		usym_free(u);
		return NULL;
	}
	/* A process that is already gone resolves everything as unknown. */
	if (!by_records)
		reload(u);
	return u;
}

void usym_free(struct usym *u)
{
	unsigned int i;

	if (!u)
		return;
	for (i = 0; i < u->nheld; i++)
		release(u->held[i]);
	free(u->held);
	u64map_free(&u->held_set);
	for (i = 0; i < INTERN_BUCKETS; i++) {
		struct interned *s = u->strings[i], *n;

		for (; s; s = n) {
			n = s->next;
			free(s);
		}
	}
	maps_free(&u->maps);
	free(u->map_tab);
	free(u->map_tried);
	if (u->rootfd >= 0)
		close(u->rootfd);
	free(u);
}

/* The source line of vaddr in m's file, when the file has a line table. */
static void src_line(struct usym *u, struct tab_entry *e,
		     const struct pj_map *m, uint64_t vaddr,
		     struct usym_result *res)
{
	int fd;

	if (!e->lines_tried) {
		e->lines_tried = true;
		fd = maps_open_file(u->pid, u->rootfd, m);
		e->lines = fd >= 0 ? srclines_open(fd, m->inode) : NULL;
	}
	if (e->lines)
		srclines_find(e->lines, vaddr, &res->file, &res->line);
}

/* Names addr from the mapping m (index idx). */
static void resolve_in_map(struct usym *u, unsigned int idx, uint64_t addr,
			   struct usym_result *res)
{
	const struct pj_map *m = &u->maps.v[idx];
	uint64_t off = addr - m->start + m->pgoff, vaddr, symoff;
	struct tab_entry *e;
	const char *name;

	res->name = UNKNOWN;
	res->known = 0;
	res->code = 1;
	res->vaddr = 0;
	res->file = NULL;
	res->line = 0;
	if (!m->path[0]) {
		res->module = ANON;
		res->offset = addr - m->start;
		return;
	}
	res->module = intern(u, m->path);
	res->offset = m->path[0] == '[' ? addr - m->start : off;
	if (!m->exec) {
		res->code = m->path[0] == '[';
		return;
	}
	if (m->path[0] != '[')
		res->vaddr = off; /* a file offset, until the file tells */
	e = map_tab(u, idx);
	if (!e || !e->tab)
		return;
	if (elf_symtab_offset_to_vaddr(e->tab, off, &vaddr))
		return;
	res->vaddr = vaddr;
	name = elf_symtab_lookup(e->tab, vaddr, &symoff);
	if (!name)
		return;
	res->name = name;
	res->offset = symoff;
	res->vaddr = vaddr - symoff;
	res->known = 1;
	src_line(u, e, m, vaddr, res);
}

void usym_resolve(struct usym *u, uint64_t addr, struct usym_result *res)
{
	const struct pj_map *m = maps_find(&u->maps, addr);

	if (!m) {
		uint64_t now = now_ns();

		/* New code mapped since the maps were read (dlopen, JIT)? */
		if (!u->miss_interval)
			u->miss_interval = MISS_REFRESH_NS;
		if (now - u->last_miss_refresh >= u->miss_interval) {
			u->last_miss_refresh = now;
			reload(u);
			m = maps_find(&u->maps, addr);
			if (m)
				u->miss_interval = MISS_REFRESH_NS;
			else if (u->miss_interval < MISS_REFRESH_MAX_NS)
				u->miss_interval *= 2;
		}
	}
	if (m) {
		resolve_in_map(u, m - u->maps.v, addr, res);
	} else {
		res->name = UNKNOWN;
		res->module = UNKNOWN;
		res->offset = addr;
		res->vaddr = 0;
		res->file = NULL;
		res->line = 0;
		res->known = 0;
		res->code = 1;
	}
}

unsigned int usym_reloads(const struct usym *u)
{
	return u->reloads;
}

int usym_add_map(struct usym *u, const struct pj_map *m)
{
	unsigned int n = u->maps.n, k = 0, i;
	struct pj_map *v;
	struct tab_entry **t;
	bool *tried, put = false;
	char *path;

	if (m->end <= m->start || n >= USYM_MAX_MAPS)
		return -1;
	path = strdup(m->path ? m->path : "");
	v = malloc((n + 1) * sizeof(*v));
	t = calloc(n + 1, sizeof(*t));
	tried = calloc(n + 1, sizeof(*tried));
	if (!path || !v || !t || !tried) {
		free(path);
		free(v);
		free(t);
		free(tried);
		return -1;
	}
	for (i = 0; i < n; i++) {
		const struct pj_map *o = &u->maps.v[i];

		if (o->start < m->end && m->start < o->end) {
			free(o->path); /* what m maps now */
			continue;
		}
		if (!put && o->start >= m->end) {
			v[k] = *m;
			v[k++].path = path;
			put = true;
		}
		t[k] = u->map_tab[i];
		tried[k] = u->map_tried[i];
		v[k++] = *o;
	}
	if (!put) {
		v[k] = *m;
		v[k++].path = path;
	}
	free(u->maps.v);
	free(u->map_tab);
	free(u->map_tried);
	u->maps.v = v;
	u->maps.n = k;
	u->map_tab = t;
	u->map_tried = tried;
	return 0;
}

int usym_inherit(struct usym *u, const struct usym *parent)
{
	unsigned int n = parent->maps.n;

	if (u->rootfd < 0 && parent->rootfd >= 0)
		u->rootfd = fcntl(parent->rootfd, F_DUPFD_CLOEXEC, 0);
	if (u->maps.n || !n)
		return 0;
	for (unsigned int i = 0; i < n; i++) {
		struct pj_map m = parent->maps.v[i];

		/* (its symbol tables are found again in the shared cache) */
		if (usym_add_map(u, &m))
			return -1;
	}
	return 0;
}

void usym_keep_root(struct usym *u, const struct usym *old)
{
	if (u && old && u->rootfd < 0 && old->rootfd >= 0)
		u->rootfd = fcntl(old->rootfd, F_DUPFD_CLOEXEC, 0);
}

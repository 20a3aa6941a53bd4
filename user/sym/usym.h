/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Symbolizing the user addresses of one process: its mappings plus a cache of
 * ELF symbol tables (shared by path between processes). Addresses outside
 * every known mapping make it re-read /proc/PID/maps (new dlopen, JIT code),
 * at most once per distinct miss interval. Not thread-safe: the recorder
 * uses every usym from its one thread.
 */
#ifndef PJ_USER_USYM_H
#define PJ_USER_USYM_H

#include <stdint.h>
#include <sys/types.h>

struct pj_map;
struct usym;

/* Mappings a usym holds at most from records (usym_add_map). */
#define USYM_MAX_MAPS 65536

struct usym_result {
	const char *name; /* function, or "[unknown]" */
	const char *module; /* mapping path, "[anon]" for anonymous memory */
	uint64_t offset; /* from the function's start, or from the map */
	/* in a file: the function's address there as nm shows it, or
	 * (no symbol) the address's own; 0 otherwise */
	uint64_t vaddr;
	/* its source file and line, when the file has a line table (-g) */
	const char *file;
	uint32_t line;
	int known; /* 1 when a symbol named it */
	int code; /* 0 when it lies in a file mapped without execute */
};

/* pid's symbols, its maps read now; by_records: none read, its mappings
 * come by usym_add_map (a process seen at its exec: the kernel announces
 * each of its new program's), /proc read on a miss as for any. */
struct usym *usym_new(pid_t pid, bool by_records);
void usym_free(struct usym *u);
/* Fills res (strings live as long as u). Never fails: unknown addresses give
 * "[unknown]" with their mapping. */
void usym_resolve(struct usym *u, uint64_t addr, struct usym_result *res);
/* How many times the maps were read (for statistics and tests). */
unsigned int usym_reloads(const struct usym *u);
/*
 * A mapping the kernel announced (PERF_RECORD_MMAP2, m->path copied): it
 * replaces what it overlaps. A process's records are read after it ran,
 * often after it exited: these name its addresses when its maps can no
 * longer be read. 0, or -1 (out of memory, or USYM_MAX_MAPS held).
 */
int usym_add_map(struct usym *u, const struct pj_map *m);
/* u had no maps (its process was gone when first read): parent's, which a
 * fork shares until an exec, and its root. 0, or -1 when out of memory. */
int usym_inherit(struct usym *u, const struct usym *parent);
/* u's root, when it has none (its process exec'd and then exited before
 * it was read again): old's. */
void usym_keep_root(struct usym *u, const struct usym *old);

#endif

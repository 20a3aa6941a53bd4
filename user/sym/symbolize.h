/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Record-time naming of addresses: kernel addresses through kallsyms (or the
 * perfjava_ksym module when kallsyms hides addresses), one ksymbolizer for
 * every process; each process's user addresses through its usym, one
 * symbolizer per process (the same address names different code in two
 * processes; usym shares the files' symbol tables between them). Each is
 * turned into a frame id of the profile being written, cached per address.
 */
#ifndef PJ_USER_SYMBOLIZE_H
#define PJ_USER_SYMBOLIZE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/u64map.h"
#include "sym/ksource.h"

struct pj_map;
struct pj_writer;
struct usym;

/* What naming a user address found (struct sym_user's facts). */
#define SYM_KNOWN 1u /* a symbol named it */
#define SYM_JNI_ENTRY 2u /* Java_*, JVM_*: entered from a Java native method */
#define SYM_THREAD_ENTRY 4u /* a thread's first function (start_thread) */
#define SYM_ANON 8u /* in anonymous memory: a JVM's JIT code, or junk */

/* A user address as named once: its facts and module, its frame. */
struct sym_user {
	unsigned int facts; /* SYM_* */
	const char *module; /* its mapping's path, "[anon]", "[unknown]" */
	uint32_t id; /* its frame + 1; 0 until symbolize_user named it */
};

/* Addresses kept named, at most (then the cache starts over). */
#define SYM_CACHE_MAX (1u << 20)

/* Kernel addresses, for every process. */
struct ksymbolizer {
	struct pj_writer *w;
	struct ksource kernel; /* kallsyms, the module, or none and why */
	struct u64map kcache;
	uint32_t kernel_unnamed; /* frame for kernel addresses nobody names */
};

/* One process's user addresses. */
struct symbolizer {
	struct pj_writer *w;
	struct usym *usym;
	struct u64map ucache; /* user key -> its sym_user + 1 in users */
	struct sym_user *users;
	size_t nusers, capusers;
};

/* Loads the kernel's symbols (kallsyms, or the module). */
void ksymbolizer_init(struct ksymbolizer *k, struct pj_writer *w);
void ksymbolizer_free(struct ksymbolizer *k);
/* The kernel_symbols metadata: the source and why it is not kallsyms. */
void ksymbolizer_write_meta(struct ksymbolizer *k);
uint32_t symbolize_kernel(struct ksymbolizer *k, uint64_t ip);
/* A new file (w): kernel frames are named again as they come. */
void ksymbolizer_new_file(struct ksymbolizer *k, struct pj_writer *w);

/* Prepares pid's user symbols (read when first asked; its maps now, or
 * by_records: usym_new). 0, or -1 when out of memory. */
int symbolizer_init(struct symbolizer *s, struct pj_writer *w, pid_t pid,
		    bool by_records);
void symbolizer_free(struct symbolizer *s);
/*
 * A user address named once: leaf is the sampled address itself; other
 * frames are return addresses and are looked up one byte earlier, inside
 * the call instruction. sym_user_facts only tells what it is (no frame is
 * written); symbolize_user gives its frame (*known, which may be NULL:
 * whether a symbol named it). Each address is looked up once, but one in
 * no mapping, which may be mapped since the maps were last read.
 */
struct sym_user sym_user_facts(struct symbolizer *s, uint64_t ip, bool leaf);
uint32_t symbolize_user(struct symbolizer *s, uint64_t ip, bool leaf,
			bool *known);
/* Whether name is a function a thread's stack starts with (start_thread,
 * clone3, _start, ...). */
bool sym_is_thread_entry(const char *name);
/* A new file (w): frame ids are the file's, named again as they come. */
void symbolizer_new_file(struct symbolizer *s, struct pj_writer *w);
/* The process exec'd another program: its user addresses are read anew
 * (its root kept when it is gone already). 0, or -1 when out of memory. */
int symbolizer_reload_user(struct symbolizer *s, pid_t pid);
/* A mapping the kernel announced (sym/usym.h usym_add_map). */
void symbolizer_add_map(struct symbolizer *s, const struct pj_map *m);
/* A process gone when first read: its parent's maps and root (a fork
 * shares them until an exec). */
void symbolizer_inherit(struct symbolizer *s, const struct symbolizer *parent);

#endif

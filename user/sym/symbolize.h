/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Record-time naming of addresses: kernel addresses through kallsyms (or the
 * perfjava_ksym module when kallsyms hides addresses), user addresses through
 * usym, each turned into a frame id of the profile being written. Results are
 * cached per address.
 */
#ifndef PJ_USER_SYMBOLIZE_H
#define PJ_USER_SYMBOLIZE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/u64map.h"
#include "sym/ksource.h"

struct pj_writer;
struct usym;

struct symbolizer {
	struct pj_writer *w;
	struct ksource kernel; /* kallsyms, the module, or none and why */
	struct usym *usym;
	struct u64map kcache, ucache;
	uint32_t kernel_unnamed; /* frame for kernel addresses nobody names */
};

/* Loads kernel symbols and prepares pid's user symbols. */
int symbolizer_init(struct symbolizer *s, struct pj_writer *w, pid_t pid);
void symbolizer_free(struct symbolizer *s);
/* The kernel_symbols metadata: the source and why it is not kallsyms. */
void symbolizer_write_meta(struct symbolizer *s);
uint32_t symbolize_kernel(struct symbolizer *s, uint64_t ip);
/* leaf: the sampled address itself; other frames are return addresses and
 * are looked up one byte earlier, inside the call instruction. *known
 * (may be NULL) tells whether a symbol named the address. */
uint32_t symbolize_user(struct symbolizer *s, uint64_t ip, bool leaf,
			bool *known);

#endif

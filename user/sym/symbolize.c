// SPDX-License-Identifier: GPL-2.0
/* Record-time naming of addresses; see sym/symbolize.h. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile/io.h"
#include "sym/symbolize.h"
#include "sym/usym.h"

int symbolizer_init(struct symbolizer *s, struct pj_writer *w, pid_t pid)
{
	memset(s, 0, sizeof(*s));
	s->w = w;
	/* PERFJAVA_KALLSYMS: another kallsyms file (tests feed a hidden one) */
	ksource_open(&s->kernel, getenv("PERFJAVA_KALLSYMS"));
	s->usym = usym_new(pid);
	return s->usym ? 0 : -1;
}

void symbolizer_free(struct symbolizer *s)
{
	ksource_close(&s->kernel);
	if (s->usym)
		usym_free(s->usym);
	u64map_free(&s->kcache);
	u64map_free(&s->ucache);
}

void symbolizer_write_meta(struct symbolizer *s)
{
	char why[512];

	pj_writer_meta(s->w, "kernel_symbols", ksource_name(&s->kernel));
	if (s->kernel.kind == KSOURCE_KALLSYMS)
		return;
	ksource_describe(&s->kernel, why, sizeof(why));
	pj_writer_meta(s->w, "kernel_symbols_why", why);
}

uint32_t symbolize_kernel(struct symbolizer *s, uint64_t ip)
{
	const char *name, *module = "";
	uint32_t id;

	if (u64map_get(&s->kcache, ip, &id))
		return id;
	name = ksource_lookup(&s->kernel, ip, &module);
	if (!name) {
		if (!s->kernel_unnamed)
			s->kernel_unnamed =
			    pj_writer_frame(s->w, PJ_FRAME_KERNEL, "[kernel]",
					    "", NULL, 0) +
			    1;
		id = s->kernel_unnamed - 1;
	} else {
		id = pj_writer_frame(s->w, PJ_FRAME_KERNEL, name, module, NULL,
				     0);
		pj_writer_frame_addr(s->w, id, ksource_start(&s->kernel, ip));
	}
	u64map_put(&s->kcache, ip, id);
	return id;
}

/* The cache keeps "no symbol named it" in the top bit of the frame id. */
#define UNKNOWN_BIT 0x80000000u

uint32_t symbolize_user(struct symbolizer *s, uint64_t ip, bool leaf,
			bool *known)
{
	struct usym_result r;
	const char *name;
	uint64_t key = leaf ? ip : ip - 1;
	uint32_t id;

	if (!key)
		key = 1;
	if (!u64map_get(&s->ucache, key, &id)) {
		usym_resolve(s->usym, key, &r);
		/*
		 * A return address no function holds the byte before, but that
		 * starts one: the kernel's return into a signal trampoline
		 * (libc's __restore_rt, zero-sized after sigaction's padding),
		 * which no call made.
		 */
		if (!leaf && !r.known && r.code) {
			struct usym_result at;

			usym_resolve(s->usym, ip, &at);
			if (at.known && !at.offset)
				r = at;
		}
		/*
		 * An address in a file that no symbol covers (a static function
		 * of a library stripped to .dynsym) is named by its file: a
		 * nameless frame, which reports show as [libz.so.1]. One in a
		 * file mapped without execute (a locale's data) is no code:
		 * a stale word an unwinder took for a return address.
		 */
		name = !r.known && r.module[0] == '/'
			   ? (r.code ? "" : "[not code]")
			   : r.name;
		id = pj_writer_frame(
		    s->w, r.known ? PJ_FRAME_NATIVE : PJ_FRAME_UNKNOWN, name,
		    r.module ? r.module : "", r.file, r.line);
		pj_writer_frame_addr(s->w, id, r.vaddr);
		if (!r.known)
			id |= UNKNOWN_BIT;
		/*
		 * An address in no mapping may belong to one mapped since usym
		 * last read the maps (it re-reads them at most every 20 ms, less
		 * often while re-reads find nothing):
		 * ask again next time instead of keeping [unknown].
		 */
		if (r.known || strcmp(r.module, "[unknown]"))
			u64map_put(&s->ucache, key, id);
	}
	if (known)
		*known = !(id & UNKNOWN_BIT);
	return id & ~UNKNOWN_BIT;
}

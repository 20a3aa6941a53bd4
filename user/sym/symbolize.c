// SPDX-License-Identifier: GPL-2.0
/* Record-time naming of addresses; see sym/symbolize.h. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sym/kallsyms.h"
#include "sym/ksym_module.h"
#include "profile/io.h"
#include "sym/symbolize.h"
#include "sym/usym.h"

int symbolizer_init(struct symbolizer *s, struct pj_writer *w, pid_t pid)
{
	memset(s, 0, sizeof(*s));
	s->w = w;
	s->ksym_fd = -1;
	/* PERFJAVA_KALLSYMS: another kallsyms file (tests feed a hidden one) */
	const char *kallsyms = getenv("PERFJAVA_KALLSYMS");

	s->ksyms = ksyms_load(kallsyms ? kallsyms : "/proc/kallsyms");
	s->kernel_hidden = !s->ksyms || ksyms_hidden(s->ksyms);
	s->kernel_source = "kallsyms";
	if (s->kernel_hidden) {
		/* kallsyms hides addresses: the perfjava_ksym module, if loaded,
		 * names them for a reader with CAP_SYSLOG. */
		s->ksym_fd = ksym_module_open();
		s->kernel_source = s->ksym_fd >= 0 ? "perfjava_ksym" : "none";
	}
	s->usym = usym_new(pid);
	return s->usym ? 0 : -1;
}

void symbolizer_free(struct symbolizer *s)
{
	if (s->ksyms)
		ksyms_free(s->ksyms);
	if (s->ksym_fd >= 0)
		close(s->ksym_fd);
	if (s->usym)
		usym_free(s->usym);
	u64map_free(&s->kcache);
	u64map_free(&s->ucache);
}

uint32_t symbolize_kernel(struct symbolizer *s, uint64_t ip)
{
	const char *name = NULL, *module = "";
	struct ksym_module_sym ms;
	uint64_t off;
	uint32_t id;

	if (u64map_get(&s->kcache, ip, &id))
		return id;
	if (!s->kernel_hidden) {
		name = ksyms_lookup(s->ksyms, ip, &module, &off);
	} else if (s->ksym_fd >= 0 &&
		   ksym_module_resolve(s->ksym_fd, &ip, 1, &ms) == 1 &&
		   ms.found) {
		name = ms.name;
		module = ms.module;
	}
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
		    r.module ? r.module : "", NULL, 0);
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

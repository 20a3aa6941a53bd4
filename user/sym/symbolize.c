// SPDX-License-Identifier: GPL-2.0
/* Record-time naming of addresses; see sym/symbolize.h. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/grow.h"
#include "profile/io.h"
#include "sym/symbolize.h"
#include "sym/usym.h"

void ksymbolizer_init(struct ksymbolizer *k, struct pj_writer *w)
{
	memset(k, 0, sizeof(*k));
	k->w = w;
	/* PERFJAVA_KALLSYMS: another kallsyms file (tests feed a hidden one) */
	ksource_open(&k->kernel, getenv("PERFJAVA_KALLSYMS"));
}

void ksymbolizer_free(struct ksymbolizer *k)
{
	ksource_close(&k->kernel);
	u64map_free(&k->kcache);
}

void ksymbolizer_write_meta(struct ksymbolizer *k)
{
	char why[512];

	pj_writer_meta(k->w, "kernel_symbols", ksource_name(&k->kernel));
	if (k->kernel.kind == KSOURCE_KALLSYMS)
		return;
	ksource_describe(&k->kernel, why, sizeof(why));
	pj_writer_meta(k->w, "kernel_symbols_why", why);
}

void ksymbolizer_new_file(struct ksymbolizer *k, struct pj_writer *w)
{
	k->w = w;
	u64map_free(&k->kcache);
	k->kernel_unnamed = 0;
}

int symbolizer_init(struct symbolizer *s, struct pj_writer *w, pid_t pid,
		    bool by_records)
{
	memset(s, 0, sizeof(*s));
	s->w = w;
	s->usym = usym_new(pid, by_records);
	return s->usym ? 0 : -1;
}

void symbolizer_free(struct symbolizer *s)
{
	if (s->usym)
		usym_free(s->usym);
	u64map_free(&s->ucache);
	free(s->users);
	memset(s, 0, sizeof(*s));
}

uint32_t symbolize_kernel(struct ksymbolizer *s, uint64_t ip)
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
	if (s->kcache.n >= SYM_CACHE_MAX) /* a cache: bounded */
		u64map_free(&s->kcache);
	u64map_put(&s->kcache, ip, id);
	return id;
}

bool sym_is_thread_entry(const char *name)
{
	static const char *const entries[] = {
		"_start",
		"start_thread",
		"clone",
		"clone3",
		"__clone",
		"__clone3",
		"__libc_start_main",
		"__libc_start_call_main",
		"thread_native_entry",
		"JavaMain",
	};

	for (size_t i = 0; i < sizeof(entries) / sizeof(entries[0]); i++)
		if (!strcmp(name, entries[i]))
			return true;
	return false;
}

static unsigned int facts_of(const struct usym_result *r)
{
	unsigned int f = 0;

	if (r->known && r->name) {
		f |= SYM_KNOWN;
		if (!strncmp(r->name, "Java_", 5) ||
		    !strncmp(r->name, "JVM_", 4))
			f |= SYM_JNI_ENTRY;
		if (sym_is_thread_entry(r->name))
			f |= SYM_THREAD_ENTRY;
	}
	if (r->module && !strcmp(r->module, "[anon]"))
		f |= SYM_ANON;
	return f;
}

/* The frame of key (ip, leaf) as resolved in r. */
static uint32_t frame_of(struct symbolizer *s, const struct usym_result *r)
{
	/*
	 * An address in a file that no symbol covers (a static function of a
	 * library stripped to .dynsym) is named by its file: a nameless
	 * frame, which reports show as [libz.so.1]. One in a file mapped
	 * without execute (a locale's data) is no code: a stale word an
	 * unwinder took for a return address.
	 */
	const char *name = !r->known && r->module[0] == '/'
			       ? (r->code ? "" : "[not code]")
			       : r->name;
	uint32_t id =
	    pj_writer_frame(s->w, r->known ? PJ_FRAME_NATIVE : PJ_FRAME_UNKNOWN,
			    name, r->module ? r->module : "", r->file, r->line);

	pj_writer_frame_addr(s->w, id, r->vaddr);
	return id;
}

/* The user address ip (leaf: see symbolize.h) resolved. */
static void resolve(struct symbolizer *s, uint64_t ip, bool leaf,
		    struct usym_result *r)
{
	uint64_t key = leaf ? ip : ip - 1;

	usym_resolve(s->usym, key ? key : 1, r);
	/*
	 * A return address no function holds the byte before, but that starts
	 * one: the kernel's return into a signal trampoline (libc's
	 * __restore_rt, zero-sized after sigaction's padding), which no call
	 * made.
	 */
	if (!leaf && !r->known && r->code) {
		struct usym_result at;

		usym_resolve(s->usym, ip, &at);
		if (at.known && !at.offset)
			*r = at;
	}
}

/*
 * What ip (leaf) is, with its frame when with_frame. Kept unless it lies in
 * no mapping: one mapped since usym last read the maps (it re-reads them at
 * most every 20 ms, less often while re-reads find nothing) is asked again
 * next time instead of keeping [unknown].
 */
static struct sym_user lookup(struct symbolizer *s, uint64_t ip, bool leaf,
			      bool with_frame)
{
	struct usym_result r;
	struct sym_user u;
	uint64_t key = leaf ? ip : ip - 1;
	uint32_t i;

	if (!key)
		key = 1;
	if (u64map_get(&s->ucache, key, &i)) {
		struct sym_user *c = &s->users[i - 1];

		if (with_frame && !c->id) { /* asked before without */
			resolve(s, ip, leaf, &r);
			c->id = frame_of(s, &r) + 1;
		}
		return *c;
	}
	resolve(s, ip, leaf, &r);
	/* return addresses are the target's to choose: a cache, bounded */
	if (s->nusers >= SYM_CACHE_MAX) {
		u64map_free(&s->ucache);
		s->nusers = 0;
	}
	u.facts = facts_of(&r);
	u.module = r.module ? r.module : "";
	u.id = with_frame ? frame_of(s, &r) + 1 : 0;
	if ((r.known || strcmp(u.module, "[unknown]")) &&
	    s->nusers < UINT32_MAX - 1 &&
	    !GROW(s->users, s->capusers, s->nusers + 1) &&
	    !u64map_put(&s->ucache, key, (uint32_t)s->nusers + 1))
		s->users[s->nusers++] = u;
	return u;
}

struct sym_user sym_user_facts(struct symbolizer *s, uint64_t ip, bool leaf)
{
	return lookup(s, ip, leaf, false);
}

uint32_t symbolize_user(struct symbolizer *s, uint64_t ip, bool leaf,
			bool *known)
{
	struct sym_user u = lookup(s, ip, leaf, true);

	if (known)
		*known = u.facts & SYM_KNOWN;
	return u.id - 1;
}

void symbolizer_new_file(struct symbolizer *s, struct pj_writer *w)
{
	s->w = w;
	for (size_t i = 0; i < s->nusers; i++)
		s->users[i].id = 0; /* what they are stays */
}

int symbolizer_reload_user(struct symbolizer *s, pid_t pid)
{
	struct usym *old = s->usym;

	u64map_free(&s->ucache);
	s->nusers = 0;
	s->usym = usym_new(pid, false);
	usym_keep_root(s->usym, old);
	usym_free(old);
	return s->usym ? 0 : -1;
}

void symbolizer_add_map(struct symbolizer *s, const struct pj_map *m)
{
	if (s->usym)
		usym_add_map(s->usym, m);
}

void symbolizer_inherit(struct symbolizer *s, const struct symbolizer *parent)
{
	if (s->usym && parent->usym)
		usym_inherit(s->usym, parent->usym);
}

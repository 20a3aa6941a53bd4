// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel symbols from /proc/kallsyms: "ffffffff81000000 T _stext" for the
 * kernel image, "ffffffffc0a01000 t foo_init\t[foo]" for a module.
 *
 * kallsyms gives no sizes: a symbol reaches up to the next one. Data symbols
 * are kept as boundaries (so that text does not seem to run on into data)
 * but never named; absolute symbols (per-CPU offsets) are dropped. When every
 * address reads 0 the reader may not see them (kptr_restrict): the table is
 * then hidden and every lookup fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/grow.h"
#include "lib/sort.h"
#include "lib/sorted.h"
#include "lib/strpool.h"
#include "sym/kallsyms.h"

struct ksym { /* 16 bytes: a distribution's kernel has 120,000 */
	uint64_t addr;
	uint32_t name; /* offset into names */
	uint32_t module : 31; /* offset into names; 0 is "" */
	uint32_t text : 1;
};

struct ksyms {
	struct ksym *v;
	unsigned int n, ntext;
	char *names;
	bool hidden;
};

/* The last symbol is given this much room (the next one is unknown). */
#define LAST_SYMBOL_SPAN 4096

struct pool {
	struct strpool s;
	char last_mod[64]; /* modules repeat: reuse the last one ("": none) */
	uint32_t last_mod_off;
};

/* Text first at one address, so that it is the one kept; then the first
 * in the file (names are pooled in file order). */
static bool ksym_less(const struct ksym *x, const struct ksym *y)
{
	if (x->addr != y->addr)
		return x->addr < y->addr;
	if (x->text != y->text)
		return x->text;
	return x->name < y->name;
}

SORT_DEFINE(sort_ksyms, struct ksym, ksym_less)

/* Bound of a kallsyms file (a few MiB with every module). */
#define KALLSYMS_MAX ((size_t)512 << 20)

/* The hexadecimal number at *pp (at most 16 digits), *pp moved past it;
 * false when there is none. */
static bool parse_hex(const char **pp, uint64_t *v)
{
	const char *q = *pp;
	uint64_t x = 0;
	unsigned int d = 0;

	for (;; q++, d++) {
		unsigned int c = (unsigned char)*q, h;

		if (c - '0' < 10)
			h = c - '0';
		else if ((c | 0x20) - 'a' < 6)
			h = (c | 0x20) - 'a' + 10;
		else
			break;
		if (d == 16)
			return false;
		x = x << 4 | h;
	}
	*pp = q;
	*v = x;
	return d > 0;
}

/* One line "ADDR TYPE NAME[\t[MODULE]]" of len bytes (its newline cut). */
static int parse_line(struct ksyms *k, struct pool *p, unsigned int *cap,
		      const char *line, size_t len, bool *all_zero)
{
	const char *end = line + len, *q = line, *name, *mod, *tab, *close;
	size_t nlen, mlen = 0;
	uint64_t addr;
	char type;
	struct ksym *s;

	if (!parse_hex(&q, &addr) || end - q < 4 || q[0] != ' ' || q[2] != ' ')
		return 0;
	type = q[1];
	name = q + 3;
	tab = memchr(name, '\t', (size_t)(end - name));
	nlen = (size_t)((tab ? tab : end) - name);
	mod = tab ? memchr(tab, '[', (size_t)(end - tab)) : NULL;
	if (mod) {
		mod++;
		close = memchr(mod, ']', (size_t)(end - mod));
		mlen = (size_t)((close ? close : end) - mod);
	}
	if (!nlen || memchr(name, 0, nlen))
		return 0;
	if (addr)
		*all_zero = false;
	if (type == 'a' || type == 'A' || type == 'U')
		return 0;
	if (GROW(k->v, *cap, k->n + 1))
		return -1;
	s = &k->v[k->n];
	s->addr = addr;
	s->text = (type == 't' || type == 'T' || type == 'w' || type == 'W') &&
		  !(nlen == 6 && !memcmp(name, "_etext", 6));
	s->module = 0;
	if (strpool_add(&p->s, name, nlen, &s->name))
		return -1;
	if (mlen) {
		uint32_t off;

		if (p->last_mod[0] && strlen(p->last_mod) == mlen &&
		    !memcmp(p->last_mod, mod, mlen)) {
			s->module = p->last_mod_off;
		} else {
			/* (the file's bound keeps offsets under 2^31) */
			if (strpool_add(&p->s, mod, mlen, &off))
				return -1;
			s->module = off;
			p->last_mod[0] = '\0';
			if (mlen < sizeof(p->last_mod)) {
				memcpy(p->last_mod, mod, mlen);
				p->last_mod[mlen] = '\0';
			}
			p->last_mod_off = off;
		}
	}
	k->n++;
	return 0;
}

/* Lines of one read at a time: the file (5 MB with a distribution's
 * modules) is never held whole. A line longer than this is dropped. */
#define CHUNK (64u << 10)

/* fd's lines parsed into k; 0, or -1 with errno. */
static int parse_file(struct ksyms *k, struct pool *p, int fd, bool *all_zero)
{
	char *buf = malloc(CHUNK + 1);
	unsigned int cap = 0;
	size_t have = 0, total = 0;
	bool skip = false; /* the rest of a line too long */

	/* room for a distribution's kernel (120,000 symbols, 3 MB of names)
	 * at once: grown by doubling, the tables were copied as they grew, in
	 * fresh memory each time; what is not used is never touched, and is
	 * given back (ksyms_load) */
	if (!buf || GROW(k->v, cap, 1u << 18) ||
	    GROW(p->s.buf, p->s.cap, (size_t)4 << 20)) {
		free(buf);
		return -1;
	}
	for (;;) {
		ssize_t r = read(fd, buf + have, CHUNK - have);
		char *line = buf, *end, *nl;

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || (total += (size_t)r) > KALLSYMS_MAX) {
			if (r >= 0)
				errno = EFBIG;
			break;
		}
		have += (size_t)r;
		end = buf + have;
		if (!r && have) /* the last line, without its newline */
			*end++ = '\n';
		while ((nl = memchr(line, '\n', (size_t)(end - line)))) {
			if (!skip &&
			    parse_line(k, p, &cap, line, (size_t)(nl - line),
				       all_zero)) {
				errno = ENOMEM;
				goto fail;
			}
			skip = false;
			line = nl + 1;
		}
		if (!r) {
			free(buf);
			return 0;
		}
		have = (size_t)(end - line);
		memmove(buf, line, have);
		if (have == CHUNK) {
			have = 0;
			skip = true;
		}
	}
fail:
	free(buf);
	return -1;
}

struct ksyms *ksyms_load(const char *path)
{
	struct ksyms *k = calloc(1, sizeof(*k));
	struct pool p = { 0 };
	unsigned int i, o;
	bool all_zero = true;
	uint32_t empty;
	int fd = -1, e;

	if (!k)
		return NULL;
	/* Offset 0 of the pool is "", the kernel image's module. */
	if (strpool_add(&p.s, "", 0, &empty))
		goto fail;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || parse_file(k, &p, fd, &all_zero))
		goto fail;
	close(fd);
	fd = -1;
	k->hidden = all_zero && k->n;
	if (k->n) /* an empty file has no table */
		sort_ksyms(k->v, k->n);
	for (i = 0, o = 0; i < k->n; i++) {
		if (o && k->v[o - 1].addr == k->v[i].addr)
			continue;
		k->v[o++] = k->v[i];
		if (k->v[i].text)
			k->ntext++;
	}
	k->n = o;
	k->names = p.s.buf;
	/* held all the recording: its room to its size */
	shrink_array((void **)&k->v, (size_t)k->n * sizeof(*k->v));
	shrink_array((void **)&k->names, p.s.len);
	return k;
fail:
	e = errno ? errno : ENOMEM;
	if (fd >= 0)
		close(fd);
	free(p.s.buf);
	free(k->v);
	free(k);
	errno = e;
	return NULL;
}

void ksyms_free(struct ksyms *k)
{
	if (!k)
		return;
	free(k->v);
	free(k->names);
	free(k);
}

bool ksyms_hidden(const struct ksyms *k)
{
	return k->hidden;
}

#define PEEK_MAX 65536

bool ksyms_peek_hidden(const char *path)
{
	char *buf = malloc(PEEK_MAX + 1), *line, *nl, *end;
	size_t len = 0;
	bool hidden = false;
	ssize_t n = 1;
	int fd;

	fd = buf ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	while (fd >= 0 && n > 0 && len < PEEK_MAX) {
		n = read(fd, buf + len, PEEK_MAX - len);
		if (n < 0 && errno == EINTR)
			n = 1;
		else if (n > 0)
			len += (size_t)n;
	}
	if (fd >= 0)
		close(fd);
	if (!buf)
		return false;
	buf[len] = '\0';
	/* whole lines only: the last may have been cut */
	for (line = buf; (nl = strchr(line, '\n')); line = nl + 1) {
		uint64_t addr = strtoull(line, &end, 16);

		if (end == line || end[0] != ' ' || !strchr("tT", end[1]) ||
		    !end[1] || end[2] != ' ')
			continue;
		hidden = addr == 0;
		break;
	}
	free(buf);
	return hidden;
}

const char *ksyms_lookup(const struct ksyms *k, uint64_t addr,
			 const char **module, uint64_t *offset)
{
	const struct ksym *s;
	size_t lo;

	if (!k || k->hidden)
		return NULL;
	lo = SORTED_UPTO(k->v, k->n, addr, addr);
	if (!lo)
		return NULL;
	s = &k->v[lo - 1];
	if (!s->text)
		return NULL;
	/* The last symbol of the kernel or of a module: the next one belongs
	 * elsewhere, so the span is a guess. */
	if (lo == k->n ||
	    strcmp(k->names + k->v[lo].module, k->names + s->module)) {
		if (addr - s->addr >= LAST_SYMBOL_SPAN)
			return NULL;
	}
	if (module)
		*module = k->names + s->module;
	if (offset)
		*offset = addr - s->addr;
	return k->names + s->name;
}

unsigned int ksyms_count(const struct ksyms *k)
{
	return k->ntext;
}

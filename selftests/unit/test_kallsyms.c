// SPDX-License-Identifier: GPL-2.0
/*
 * kallsyms: a synthesized file (kernel text, data, absolute, module symbols,
 * aliases), one with every address hidden, and the real /proc/kallsyms; the
 * peek at whether it hides addresses; the choice of source (sym/ksource.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "symtest_util.h"
#include "lib/clock.h"
#include "sym/kallsyms.h"
#include "sym/ksource.h"

static const char synth[] = "0000000000000000 A fixed_percpu_data\n"
			    "0000000000001000 A cpu_number\n"
			    "ffffffff81000000 T _text\n"
			    "ffffffff81000000 T _stext\n"
			    "ffffffff81000100 T do_one\n"
			    "ffffffff81000180 t static_two\n"
			    "ffffffff81000200 W weak_three\n"
			    "ffffffff81000300 T _etext\n"
			    "ffffffff82000000 D some_data\n"
			    "ffffffff82000100 d more_data\n"
			    "ffffffffc0001000 t mod_init\t[mymod]\n"
			    "ffffffffc0001040 T mod_work\t[mymod]\n"
			    "ffffffffc0001080 d mod_data\t[mymod]\n"
			    "ffffffffc0003000 t other_fn\t[other]\n"
			    "garbage line\n"
			    "ffffffffc0004000 t\n";

static const char hidden[] = "0000000000000000 T _text\n"
			     "0000000000000000 T do_one\n"
			     "0000000000000000 t mod_init\t[mymod]\n";

static void write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(s, f);
		fclose(f);
	}
}

static int is(const char *got, const char *want)
{
	return got && !strcmp(got, want);
}

/* ksyms_peek_hidden: hidden only when the first text symbol reads 0. */
static void peek(const char *path)
{
	char *big = malloc(80000);
	size_t at = 0;

	write_file(path, synth);
	ok(!ksyms_peek_hidden(path), "peek: real addresses, not hidden");
	write_file(path, hidden);
	ok(ksyms_peek_hidden(path), "peek: a zero text address, hidden");
	write_file(path, "0000000000000000 A fixed_percpu_data\n"
			 "ffffffff81000000 T _text\n");
	ok(!ksyms_peek_hidden(path),
	   "peek: a zero absolute symbol is not text");
	write_file(path, "");
	ok(!ksyms_peek_hidden(path), "peek: empty, not hidden (load tells)");
	ok(!ksyms_peek_hidden("/nonexistent/kallsyms"),
	   "peek: missing, not hidden");
	/* no text symbol in the first 64 KiB: unsure, so not hidden */
	while (big && at < 70000)
		at += (size_t)sprintf(big + at,
				      "0000000000000000 A percpu_%06zu\n", at);
	if (big) {
		strcpy(big + at, "0000000000000000 T _text\n");
		write_file(path, big);
	}
	ok(big && !ksyms_peek_hidden(path),
	   "peek: no text symbol in the first 64 KiB, not hidden");
	free(big);
}

/* ksource: kallsyms when it names, else the module, else none and why. */
static void peek_and_source(const char *path)
{
	struct ksource ks;
	const char *m = NULL, *name;
	char why[512];

	peek(path);
	write_file(path, synth);
	ksource_open(&ks, path);
	ksource_describe(&ks, why, sizeof(why));
	name = ksource_lookup(&ks, 0xffffffffc0001044, &m);
	ok(ks.kind == KSOURCE_KALLSYMS && is(ksource_name(&ks), "kallsyms") &&
	       is(name, "mod_work") && is(m, "mymod") &&
	       !strncmp(why, "named by ", 9) && strstr(why, path),
	   "source: kallsyms names them (%s)", why);
	ksource_close(&ks);
	if (!access(PJ_KSYM_DEVICE, F_OK)) {
		skip("source: none when kallsyms hides",
		     PJ_KSYM_DEVICE " exists here");
		return;
	}
	write_file(path, hidden);
	ksource_open(&ks, path);
	ksource_describe(&ks, why, sizeof(why));
	ok(ks.kind == KSOURCE_NONE && is(ksource_name(&ks), "none") &&
	       !ksource_lookup(&ks, 0xffffffff81000000, &m) &&
	       !strncmp(why, "unnamed: ", 9) && strstr(why, "kptr_restrict=") &&
	       strstr(why, "perfjava_ksym is not loaded; load perfjava_ksym"),
	   "source: none, and why (%s)", why);
	ksource_close(&ks);
	write_file(path, "");
	ksource_open(&ks, path);
	ksource_describe(&ks, why, sizeof(why));
	ok(ks.kind == KSOURCE_NONE && strstr(why, "holds no functions"),
	   "source: an empty file names nothing (%s)", why);
	ksource_close(&ks);
	ksource_open(&ks, "/nonexistent/kallsyms");
	ksource_describe(&ks, why, sizeof(why));
	ok(ks.kind == KSOURCE_NONE && strstr(why, "cannot read"),
	   "source: a missing file (%s)", why);
	ksource_close(&ks);
}

/* Read a chunk at a time: lines across reads, a line longer than a read
 * (dropped, the next ones kept), the last line without its newline. */
static void long_lines(const char *path)
{
	size_t n = 0, cap = 400000;
	char *t = malloc(cap);
	struct ksyms *k;
	unsigned int i;

	if (!t) {
		ok(0, "memory for a long file");
		return;
	}
	for (i = 0; i < 3000; i++) /* 3000 x ~40 bytes: across reads */
		n += (size_t)snprintf(t + n, cap - n, "%016llx t fn_%u\n",
				      0xffffffff81000000ull + i * 16, i);
	n += (size_t)snprintf(t + n, cap - n, "ffffffff82000000 t ");
	memset(t + n, 'x', 100000); /* a name longer than a read */
	n += 100000;
	n += (size_t)snprintf(t + n, cap - n,
			      "\nffffffff83000000 t after_long\n"
			      "ffffffff83000010 T last_no_newline");
	write_file(path, t);
	free(t);
	k = ksyms_load(path);
	ok(k && ksyms_count(k) == 3002 &&
	       is(ksyms_lookup(k, 0xffffffff81000000ull + 2999 * 16 + 1, NULL,
			       NULL),
		  "fn_2999") &&
	       is(ksyms_lookup(k, 0xffffffff83000000, NULL, NULL),
		  "after_long") &&
	       is(ksyms_lookup(k, 0xffffffff83000010, NULL, NULL),
		  "last_no_newline"),
	   "a file read a chunk at a time: 3000 lines across reads, a 100 KB "
	   "line dropped, the lines after it and the last without its "
	   "newline kept (%u)",
	   k ? ksyms_count(k) : 0);
	ksyms_free(k);
}

int main(void)
{
	const char *tmp = st_tmpdir(), *mod = NULL, *name;
	char path[512];
	struct ksyms *k;
	uint64_t off = 0, a, ws = 0;
	FILE *f;
	char line[512];
	double t0, t1;
	int match = 0;

	if (!ok(tmp != NULL, "temporary directory"))
		return tap_done();
	snprintf(path, sizeof(path), "%s/kallsyms", tmp);
	write_file(path, synth);
	k = ksyms_load(path);
	if (!ok(k != NULL, "synthesized file loads"))
		return tap_done();
	ok(!ksyms_hidden(k), "not hidden");
	ok(ksyms_count(k) == 7,
	   "7 text symbols (aliases merged, data, "
	   "absolute and garbage not counted): %u",
	   ksyms_count(k));
	name = ksyms_lookup(k, 0xffffffff81000000, &mod, &off);
	ok((is(name, "_text") || is(name, "_stext")) && is(mod, "") && !off,
	   "kernel start: %s", name ?: "NULL");
	name = ksyms_lookup(k, 0xffffffff81000150, &mod, &off);
	ok(is(name, "do_one") && is(mod, "") && off == 0x50,
	   "do_one+0x50 in the kernel image");
	ok(is(ksyms_lookup(k, 0xffffffff81000180, NULL, NULL), "static_two"),
	   "local text symbol");
	ok(is(ksyms_lookup(k, 0xffffffff810002ff, NULL, NULL), "weak_three"),
	   "weak symbol up to the next one");
	ok(!ksyms_lookup(k, 0xffffffff81000400, NULL, NULL),
	   "past _etext is not text");
	ok(!ksyms_lookup(k, 0xffffffff82000010, NULL, NULL),
	   "data is never named");
	name = ksyms_lookup(k, 0xffffffffc0001044, &mod, &off);
	ok(is(name, "mod_work") && is(mod, "mymod") && off == 4,
	   "module symbol with its module");
	ok(is(ksyms_lookup(k, 0xffffffffc0001000, &mod, NULL), "mod_init") &&
	       is(mod, "mymod"),
	   "first symbol of a module");
	ok(!ksyms_lookup(k, 0xffffffffc0001090, NULL, NULL),
	   "module data is not text");
	ok(is(ksyms_lookup(k, 0xffffffffc0003010, &mod, NULL), "other_fn") &&
	       is(mod, "other"),
	   "second module");
	ok(!ksyms_lookup(k, 0xffffffffc0013000, NULL, NULL),
	   "far past the last symbol is unknown");
	ok(!ksyms_lookup(k, 0x400000, NULL, NULL),
	   "a user address is not a kernel symbol");
	ok(!ksyms_lookup(k, 0x1000, NULL, NULL), "absolute symbols dropped");
	ksyms_free(k);

	write_file(path, hidden);
	k = ksyms_load(path);
	ok(k && ksyms_hidden(k), "all-zero addresses: hidden");
	ok(k && !ksyms_lookup(k, 0, NULL, NULL) &&
	       !ksyms_lookup(k, 0xffffffff81000000, NULL, NULL),
	   "hidden: lookups return NULL");
	ksyms_free(k);

	write_file(path, "");
	k = ksyms_load(path);
	ok(k && ksyms_count(k) == 0 && !ksyms_hidden(k) &&
	       !ksyms_lookup(k, 1, NULL, NULL),
	   "empty file: no symbols, not hidden");
	ksyms_free(k);
	errno = 0;
	ok(!ksyms_load("/nonexistent/kallsyms") && errno == ENOENT,
	   "missing file: NULL with ENOENT");
	long_lines(path);
	peek_and_source(path);

	/* The real thing. */
	t0 = now_ns() / 1e6;
	k = ksyms_load("/proc/kallsyms");
	t1 = now_ns() / 1e6;
	if (!ok(k != NULL, "/proc/kallsyms loads"))
		return tap_done();
	printf("# /proc/kallsyms: %u text symbols in %.1f ms\n", ksyms_count(k),
	       t1 - t0);
	if (ksyms_hidden(k)) {
		skip("real kernel symbols", "kallsyms addresses are hidden "
					    "(kptr_restrict)");
		ksyms_free(k);
		return tap_done();
	}
	f = fopen("/proc/kallsyms", "r");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long x;
		char t, n[256];

		if (sscanf(line, "%llx %c %255s", &x, &t, n) == 3 &&
		    (!strcmp(n, "ksys_write") ||
		     (!ws && !strcmp(n, "vfs_write"))))
			ws = x;
	}
	if (f)
		fclose(f);
	name = ws ? ksyms_lookup(k, ws + 1, &mod, &off) : NULL;
	ok((is(name, "ksys_write") || is(name, "vfs_write")) && is(mod, "") &&
	       off == 1,
	   "ksys_write/vfs_write found in the real kallsyms (%s)",
	   name ?: "NULL");
	a = 0;
	name = NULL;
	f = fopen("/proc/kallsyms", "r");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long x;
		char t, n[256], m[256];

		if (sscanf(line, "%llx %c %255s [%255[^]]]", &x, &t, n, m) ==
			4 &&
		    (t == 't' || t == 'T')) {
			a = x;
			name = ksyms_lookup(k, a, &mod, NULL);
			match = is(name, n) && is(mod, m);
			if (!match)
				printf("# %s [%s] gave %s [%s]\n", n, m,
				       name ?: "NULL", mod ?: "");
			break;
		}
	}
	if (f)
		fclose(f);
	if (a)
		ok(match, "a module symbol is named with its module (%s [%s])",
		   name ?: "NULL", mod ?: "");
	else
		skip("module symbols", "no module loaded");
	ksyms_free(k);
	return tap_done();
}

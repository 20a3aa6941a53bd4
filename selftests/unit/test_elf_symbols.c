// SPDX-License-Identifier: GPL-2.0
/*
 * ELF symbols against real files built here with gcc: exact names at the
 * addresses nm gives for a PIE, a non-PIE with a second executable segment, a
 * shared library, a stripped binary with its debug file found by build-id
 * and by .gnu_debuglink (in each of the three places, and refused when the
 * CRC does not match), demangled C++, damaged files, PLT entries, and the
 * time to load libjvm.so.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <sys/stat.h>

#include "tap.h"
#include "symtest_util.h"
#include "lib/clock.h"
#include "sym/elf.h"

static const char *tmp;
static char src[4200];

#define MAXSYMS 8192
static struct st_sym truth[MAXSYMS];

static const char *const own_fns[] = { "symtest_alpha", "symtest_beta",
				       "symtest_local", "symtest_far", "main" };

/* Every function of ours resolves to its exact name at its first and last
 * byte; every sized function nm lists resolves to something starting there. */
static void check_file(const char *what, struct elf_symtab *t,
		       const char *truth_file, const char *const *fns, int nfns)
{
	int n = st_nm(truth_file, 0, truth, MAXSYMS), i, bad = 0, checked = 0;

	if (!ok(t != NULL, "%s: loads", what))
		return;
	if (!ok(n > 0, "%s: nm lists its symbols", what))
		return;
	for (i = 0; i < nfns; i++) {
		const struct st_sym *s = st_find(truth, n, fns[i]);
		const char *got, *got_end;
		uint64_t off = 99, off_end = 99;

		if (!s || !s->size) {
			printf("# %s: nm has no sized %s\n", what, fns[i]);
			bad++;
			continue;
		}
		got = elf_symtab_lookup(t, s->addr, &off);
		got_end = elf_symtab_lookup(t, s->addr + s->size - 1, &off_end);
		if (!got || strcmp(got, fns[i]) || off || !got_end ||
		    strcmp(got_end, fns[i]) || off_end != s->size - 1) {
			printf(
			    "# %s: %s at %#llx gave %s+%llu, end gave %s+%llu\n",
			    what, fns[i], (unsigned long long)s->addr,
			    got ? got : "NULL", (unsigned long long)off,
			    got_end ? got_end : "NULL",
			    (unsigned long long)off_end);
			bad++;
		}
	}
	ok(!bad, "%s: %d functions named exactly at first and last byte", what,
	   nfns);
	bad = 0;
	for (i = 0; i < n; i++) {
		uint64_t off = 99;
		const char *got;

		if (!truth[i].size)
			continue;
		checked++;
		got = elf_symtab_lookup(t, truth[i].addr, &off);
		if (!got || off) {
			printf("# %s: %s at %#llx gave %s+%llu\n", what,
			       truth[i].name, (unsigned long long)truth[i].addr,
			       got ? got : "NULL", (unsigned long long)off);
			bad++;
		}
	}
	ok(!bad && checked, "%s: all %d sized functions found at their start",
	   what, checked);
}

/* PT_LOAD mapping: the middle of every loaded segment, by file offset. */
static void check_segments(const char *what, const char *file,
			   struct elf_symtab *t)
{
	int fd = open(file, O_RDONLY), bad = 0, nseg = 0;
	Elf *e;
	size_t n = 0, i;
	uint64_t v;

	elf_version(EV_CURRENT);
	e = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
	if (!e || elf_getphdrnum(e, &n)) {
		ok(0, "%s: reads program headers", what);
		goto out;
	}
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;
		uint64_t mid;

		if (!gelf_getphdr(e, i, &ph) || ph.p_type != PT_LOAD ||
		    !ph.p_filesz)
			continue;
		nseg++;
		mid = ph.p_filesz / 2;
		if (elf_symtab_offset_to_vaddr(t, ph.p_offset + mid, &v) ||
		    v != ph.p_vaddr + mid) {
			printf("# %s: offset %#llx gave %#llx, want %#llx\n",
			       what, (unsigned long long)(ph.p_offset + mid),
			       (unsigned long long)v,
			       (unsigned long long)(ph.p_vaddr + mid));
			bad++;
		}
	}
	ok(!bad && nseg >= 2, "%s: %d PT_LOAD segments map offsets to vaddrs",
	   what, nseg);
	ok(elf_symtab_offset_to_vaddr(t, 1ull << 40, &v) == -1,
	   "%s: an offset outside every segment is refused", what);
out:
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
}

static void test_pie_nopie_lib(void)
{
	static const char *const lib_fns[] = { "symlib_one", "symlib_hidden" };
	struct elf_symtab *t;
	char path[512];
	uint64_t off = 0;
	const struct st_sym *s;
	int n;

	snprintf(path, sizeof(path), "%s/pie", tmp);
	t = elf_symtab_load("", path);
	check_file("PIE", t, path, own_fns, 5);
	if (t) {
		ok(!strcmp(elf_symtab_source(t), "symtab"),
		   "PIE: symbols from its .symtab (%s)", elf_symtab_source(t));
		ok(strlen(elf_symtab_build_id(t)) == 40,
		   "PIE: build-id read (%s)", elf_symtab_build_id(t));
		check_segments("PIE", path, t);
		n = st_nm(path, 0, truth, MAXSYMS);
		s = st_find(truth, n, "symtest_nosize");
		ok(s && !s->size,
		   "PIE: symtest_nosize has no size in the file");
		ok(s &&
		       !strcmp(elf_symtab_lookup(t, s->addr + 2, &off) ?: "",
			       "symtest_nosize") &&
		       off == 2,
		   "PIE: a zero-sized function covers up to the next one");
		s = st_find(truth, n, "symtest_far");
		ok(s && !elf_symtab_lookup(t, s->addr + s->size + 16, NULL),
		   "PIE: nothing past the last function of a section");
		elf_symtab_free(t);
	}

	snprintf(path, sizeof(path), "%s/nopie", tmp);
	t = elf_symtab_load(NULL, path);
	check_file("non-PIE", t, path, own_fns, 5);
	if (t) {
		check_segments("non-PIE", path, t);
		elf_symtab_free(t);
	}

	snprintf(path, sizeof(path), "%s/libsym.so", tmp);
	t = elf_symtab_load("", path);
	check_file("shared library", t, path, lib_fns, 2);
	elf_symtab_free(t);
}

/* Zeroes e_shoff, e_shnum and e_shstrndx of a 64-bit ELF file. */
static int drop_sections(const char *path)
{
	Elf64_Ehdr eh;
	int fd = open(path, O_RDWR), r = -1;

	if (fd >= 0 && pread(fd, &eh, sizeof(eh), 0) == sizeof(eh)) {
		eh.e_shoff = 0;
		eh.e_shnum = 0;
		eh.e_shstrndx = 0;
		if (pwrite(fd, &eh, sizeof(eh), 0) == sizeof(eh))
			r = 0;
	}
	if (fd >= 0)
		close(fd);
	return r;
}

/* Loads root + "/usr/bin/prog" etc. and checks names and source. */
static void check_debug(const char *what, const char *root, const char *path,
			const char *want_source)
{
	char full[1024], dbg[1024];
	struct elf_symtab *t = elf_symtab_load(root, path);
	const char *src = t ? elf_symtab_source(t) : "";

	snprintf(full, sizeof(full), "%s/pie", tmp);
	ok(t && !strncmp(src, want_source, strlen(want_source)),
	   "%s: source %s (want %s)", what, src, want_source);
	if (t && strcmp(want_source, "dynsym")) {
		snprintf(dbg, sizeof(dbg), "%s", full);
		check_file(what, t, dbg, own_fns, 5);
	} else if (t) {
		int n = st_nm(full, 0, truth, MAXSYMS);
		const struct st_sym *s = st_find(truth, n, "symtest_alpha");

		const char *base = strrchr(path, '/');
		const char *got = s ? elf_symtab_lookup(t, s->addr, NULL)
				    : NULL;
		char want[300];

		/* Named by its start from .eh_frame_hdr (sym/eh_ranges.h). */
		snprintf(want, sizeof(want), "%s+0x%llx",
			 base ? base + 1 : path,
			 s ? (unsigned long long)s->addr : 0ull);
		ok(got && !strcmp(got, want),
		   "%s: a static function is named by its start without debug "
		   "info (%s)",
		   what, got ? got : "unnamed");
	}
	elf_symtab_free(t);
}

static void test_debug_files(void)
{
	struct elf_symtab *t;
	char root[512], bid[128], path[1024];

	snprintf(path, sizeof(path), "%s/pie", tmp);
	t = elf_symtab_load("", path);
	snprintf(bid, sizeof(bid), "%s", t ? elf_symtab_build_id(t) : "");
	elf_symtab_free(t);
	if (strlen(bid) < 4) {
		ok(0, "PIE has a build-id for the debug-file tests");
		return;
	}
	snprintf(root, sizeof(root), "%s/root", tmp);
	if (st_sh("cd %s && objcopy --only-keep-debug pie pie.debug && "
		  "mkdir -p root/usr/bin root/usr/lib/debug/.build-id/%.2s && "
		  "strip -s -o root/usr/bin/prog pie && "
		  "cp pie.debug root/usr/lib/debug/.build-id/%.2s/%s.debug",
		  tmp, bid, bid, bid + 2)) {
		ok(0, "debug file and stripped binary made");
		return;
	}
	check_debug("stripped, no debug file", tmp, "/root/usr/bin/prog",
		    "dynsym");
	check_debug("stripped, debug file by build-id", root, "/usr/bin/prog",
		    "build-id:");
	/* No section headers at all (sstrip): the build-id note is found
	 * through the program headers. */
	snprintf(path, sizeof(path), "%s/usr/bin/prog_nosh", root);
	if (!st_sh("cp %s/usr/bin/prog %s", root, path) && !drop_sections(path))
		check_debug("no section headers, debug file by build-id", root,
			    "/usr/bin/prog_nosh", "build-id:");
	else
		ok(0, "section headers dropped");

	/* .gnu_debuglink, in each place it may be; no build-id directory. */
	snprintf(root, sizeof(root), "%s/root2", tmp);
	if (st_sh("cd %s && mkdir -p root2/opt/app/.debug "
		  "root2/usr/lib/debug/opt/app && "
		  "strip -s -o root2/opt/app/prog pie && "
		  "objcopy --add-gnu-debuglink=pie.debug root2/opt/app/prog && "
		  "cp pie.debug root2/opt/app/pie.debug",
		  tmp)) {
		ok(0, "debuglinked binary made");
		return;
	}
	check_debug("debuglink next to the file", root, "/opt/app/prog",
		    "debuglink:");
	st_sh("cd %s/root2/opt/app && mv pie.debug .debug/", tmp);
	check_debug("debuglink in .debug/", root, "/opt/app/prog",
		    "debuglink:");
	st_sh(
	    "cd %s/root2 && mv opt/app/.debug/pie.debug usr/lib/debug/opt/app/",
	    tmp);
	check_debug("debuglink under /usr/lib/debug", root, "/opt/app/prog",
		    "debuglink:");
	/* One byte more: a wrong CRC, but both files have the build-id,
	 * which decides (no CRC is summed then). */
	st_sh("printf x >> %s/root2/usr/lib/debug/opt/app/pie.debug", tmp);
	check_debug("debuglink: the same build-id decides, not the CRC", root,
		    "/opt/app/prog", "debuglink:");
	/* Without build-ids the CRC decides. */
	if (st_sh("cd %s/root2/usr/lib/debug/opt/app && "
		  "objcopy --remove-section=.note.gnu.build-id pie.debug && "
		  "cd %s/root2/opt/app && "
		  "objcopy --remove-section=.note.gnu.build-id "
		  "--remove-section=.gnu_debuglink prog && cp "
		  "%s/root2/usr/lib/debug/opt/app/pie.debug . && "
		  "objcopy --add-gnu-debuglink=pie.debug prog && rm pie.debug",
		  tmp, tmp, tmp)) {
		ok(0, "build-ids removed");
		return;
	}
	check_debug("no build-ids: debuglink by its CRC", root, "/opt/app/prog",
		    "debuglink:");
	st_sh("printf x >> %s/root2/usr/lib/debug/opt/app/pie.debug", tmp);
	check_debug("no build-ids: a wrong CRC is refused", root,
		    "/opt/app/prog", "dynsym");
}

/*
 * What the target puts at its build-id path: a file of another build-id,
 * or none, is not its debug file; an absolute link there is resolved in
 * its root (where it names nothing), never on this machine; a FIFO is not
 * opened.
 */
static void test_debug_refused(void)
{
	char root[512], bid[128], path[1024], dir[700];
	struct elf_symtab *t;

	snprintf(path, sizeof(path), "%s/pie", tmp);
	t = elf_symtab_load("", path);
	snprintf(bid, sizeof(bid), "%s", t ? elf_symtab_build_id(t) : "");
	elf_symtab_free(t);
	snprintf(root, sizeof(root), "%s/root3", tmp);
	snprintf(dir, sizeof(dir), "%s/usr/lib/debug/.build-id/%.2s", root,
		 bid);
	if (strlen(bid) < 4 ||
	    st_sh("cd %s && mkdir -p %s root3/usr/bin && "
		  "strip -s -o root3/usr/bin/prog pie && "
		  "objcopy --only-keep-debug nopie other.debug && "
		  "objcopy --remove-section=.note.gnu.build-id pie.debug "
		  "nobid.debug",
		  tmp, dir)) {
		ok(0, "files for the refused debug files made");
		return;
	}
	st_sh("cp %s/other.debug %s/%s.debug", tmp, dir, bid + 2);
	check_debug("build-id path holding another build-id: refused", root,
		    "/usr/bin/prog", "dynsym");
	st_sh("cp %s/nobid.debug %s/%s.debug", tmp, dir, bid + 2);
	check_debug("build-id path holding a file without one: refused", root,
		    "/usr/bin/prog", "dynsym");
	/* the right file, on this machine, named by an absolute link */
	st_sh("ln -sf %s/pie.debug %s/%s.debug", tmp, dir, bid + 2);
	check_debug("an absolute link out of the root is not followed out",
		    root, "/usr/bin/prog", "dynsym");
	st_sh("ln -sf ../../../../../../../../../../..%s/pie.debug %s/%s.debug",
	      tmp, dir, bid + 2);
	check_debug("nor a relative one through ..", root, "/usr/bin/prog",
		    "dynsym");
	st_sh("rm -f %s/%s.debug && mkfifo %s/%s.debug", dir, bid + 2, dir,
	      bid + 2);
	check_debug("a FIFO there is not opened", root, "/usr/bin/prog",
		    "dynsym");
	/* inside the root, a link is fine */
	st_sh("rm -f %s/%s.debug && mkdir -p %s/store && cp %s/pie.debug "
	      "%s/store/ && ln -s /store/pie.debug %s/%s.debug",
	      dir, bid + 2, root, tmp, root, dir, bid + 2);
	check_debug("an absolute link inside the root is followed there", root,
		    "/usr/bin/prog", "build-id:");
}

static void test_cxx(void)
{
	struct elf_symtab *t;
	char path[512];
	const struct st_sym *s;
	const char *got;
	char *d;
	int n;

	d = pj_demangle("_ZN5symns6Widget4frobEi");
	ok(d && !strcmp(d, "symns::Widget::frob(int)"), "pj_demangle: %s", d);
	free(d);
	d = pj_demangle("plain_c_name");
	ok(d && !strcmp(d, "plain_c_name"), "pj_demangle leaves C names");
	free(d);
	d = pj_demangle("_Z_not_really");
	ok(d && !strcmp(d, "_Z_not_really"), "pj_demangle leaves bad names");
	free(d);

	snprintf(path, sizeof(path), "%s/libcxx.so", tmp);
	t = elf_symtab_load("", path);
	n = st_nm(path, 0, truth, MAXSYMS);
	s = st_find(truth, n, "_ZN5symns6Widget4frobEi");
	got = t && s ? elf_symtab_lookup(t, s->addr + 1, NULL) : NULL;
	ok(got && !strcmp(got, "symns::Widget::frob(int)"),
	   "C++ method demangled: %s", got ?: "NULL");
	s = st_find(truth, n, "_ZN5symns5twiceIiEET_S1_");
	got = t && s ? elf_symtab_lookup(t, s->addr, NULL) : NULL;
	ok(got && !strcmp(got, "int symns::twice<int>(int)"),
	   "C++ template demangled: %s", got ?: "NULL");
	elf_symtab_free(t);
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Loads a damaged copy in a child; returns 1 when the child crashed. */
static int load_damaged(const char *path, const unsigned char *img, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644), st;
	pid_t pid;

	if (fd < 0 || write(fd, img, len) != (ssize_t)len) {
		if (fd >= 0)
			close(fd);
		return 1;
	}
	close(fd);
	pid = fork();
	if (!pid) {
		struct elf_symtab *t = elf_symtab_load("", path);
		uint64_t v, a;

		if (t) {
			for (a = 0; a < 0x6000; a += 7)
				elf_symtab_lookup(t, a, NULL);
			elf_symtab_offset_to_vaddr(t, 0x1100, &v);
			elf_symtab_build_id(t);
			elf_symtab_free(t);
		}
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return 1;
	return !WIFEXITED(st) || WEXITSTATUS(st);
}

static void test_damaged(void)
{
	char path[512], bad[512];
	unsigned char *orig, *img;
	struct stat sb;
	int fd, i, crashes = 0, rounds = 400;
	Elf64_Ehdr eh;

	snprintf(path, sizeof(path), "%s/pie", tmp);
	snprintf(bad, sizeof(bad), "%s/damaged", tmp);
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &sb)) {
		ok(0, "damaged: read the original");
		return;
	}
	orig = malloc(sb.st_size);
	img = malloc(sb.st_size);
	if (!orig || !img || read(fd, orig, sb.st_size) != sb.st_size) {
		ok(0, "damaged: read the original");
		free(orig);
		free(img);
		close(fd);
		return;
	}
	close(fd);
	memcpy(&eh, orig, sizeof(eh));
	for (i = 0; i < rounds; i++) {
		size_t len = sb.st_size, k, nflip;

		memcpy(img, orig, len);
		switch (i % 4) {
		case 0: /* truncated */
			len = next_rand() % len;
			break;
		case 1: /* the ELF and program headers */
			nflip = 1 + next_rand() % 8;
			for (k = 0; k < nflip; k++)
				img[next_rand() % 0x300] = next_rand();
			break;
		case 2: /* the section headers */
			nflip = 1 + next_rand() % 8;
			for (k = 0; k < nflip; k++) {
				size_t at = eh.e_shoff +
					    next_rand() % (eh.e_shnum *
							   sizeof(Elf64_Shdr));
				if (at < len)
					img[at] = next_rand();
			}
			break;
		default: /* anywhere */
			nflip = 1 + next_rand() % 64;
			for (k = 0; k < nflip; k++)
				img[next_rand() % len] = next_rand();
		}
		crashes += load_damaged(bad, img, len);
	}
	ok(!crashes, "%d damaged copies loaded without a crash (%d crashed)",
	   rounds, crashes);
	ok(!load_damaged(bad, (const unsigned char *)"", 0),
	   "an empty file is survived");
	ok(!elf_symtab_load("", bad), "an empty file is not ELF");
	ok(!elf_symtab_load("", "/etc/hostname"), "a text file is not ELF");
	ok(!elf_symtab_load("", "/nonexistent/file") && errno == ENOENT,
	   "a missing file gives NULL with ENOENT");
	free(orig);
	free(img);
}

/* The address of a dynamic symbol, from nm -D. */
static uint64_t nm_dynamic(const char *file, const char *name)
{
	char cmd[1024], line[1024], n[512];
	unsigned long long a;
	uint64_t found = 0;
	char ty;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "nm -D --defined-only '%s'", file);
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p))
		if (sscanf(line, "%llx %c %511s", &a, &ty, n) == 3 &&
		    !strcmp(strtok(n, "@"), name)) /* name@@VERSION */
			found = a;
	if (p)
		pclose(p);
	return found;
}

/* this process's CPU time, ms: what a load costs, however busy the machine */
static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void test_libjvm(void)
{
	static const char *const jvms[] = {
		"/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so",
		"/usr/lib/jvm/temurin-25-jdk-amd64/lib/server/libjvm.so",
	};
	unsigned int i;

	for (i = 0; i < sizeof(jvms) / sizeof(jvms[0]); i++) {
		double t0, t1, t2, c0, c1;
		struct elf_symtab *t;
		uint64_t a = nm_dynamic(jvms[i], "JNI_CreateJavaVM"), k;
		const char *got;
		unsigned int nlook = 0, ncxx = 0;

		if (access(jvms[i], R_OK)) {
			skip("libjvm.so load time", "no JDK here");
			continue;
		}
		t0 = now_ns() / 1e6;
		c0 = cpu_ms();
		t = elf_symtab_load("", jvms[i]);
		c1 = cpu_ms();
		t1 = now_ns() / 1e6;
		if (!ok(t && elf_symtab_count(t) > 10000, "%s: %u symbols",
			jvms[i], t ? elf_symtab_count(t) : 0))
			continue;
		printf(
		    "# libjvm.so load: %u symbols (%s) in %.1f ms, %.1f ms of "
		    "CPU: %s\n",
		    elf_symtab_count(t), elf_symtab_source(t), t1 - t0, c1 - c0,
		    jvms[i]);
		ok(c1 - c0 < 2000,
		   "libjvm.so loads in under 2 s of CPU (%.1f ms)", c1 - c0);
		got = elf_symtab_lookup(t, a + 3, NULL);
		ok(a && got && !strcmp(got, "JNI_CreateJavaVM"),
		   "libjvm.so: JNI_CreateJavaVM named (%s)", got ?: "NULL");
		/* Lookups across the text, demangling as they go. */
		t1 = now_ns() / 1e6;
		for (k = 0; k < 200000; k++) {
			got = elf_symtab_lookup(t, 0x100000 + k * 61, NULL);
			nlook++;
			if (got && strstr(got, "::"))
				ncxx++;
		}
		t2 = now_ns() / 1e6;
		printf(
		    "# libjvm.so: %u lookups in %.1f ms (%.0f ns each, first "
		    "ones demangle)\n",
		    nlook, t2 - t1, (t2 - t1) * 1e6 / nlook);
		ok(ncxx > 1000, "libjvm.so: C++ names demangled (%u seen)",
		   ncxx);
		elf_symtab_free(t);
	}
}

/* PLT entries are named "function@plt" at the addresses objdump gives them,
 * in a lazily bound .plt, an IBT .plt.sec and a file bound at load. */
static void test_plt(void)
{
	static const char *const kinds[][2] = {
		{ "lazy .plt", "-fPIE -pie" },
		{ "IBT .plt.sec", "-fcf-protection=full -Wl,-z,ibtplt" },
		{ "bound at load", "-Wl,-z,now" },
	};

	for (unsigned int k = 0; k < 3; k++) {
		char bin[512], cmd[1024], line[512];
		struct elf_symtab *t;
		int seen = 0, bad = 0;
		FILE *p;

		snprintf(bin, sizeof(bin), "%s/plt%u", tmp, k);
		if (!ok(!st_sh("cd %s && gcc -O1 %s -o %s %s", tmp, kinds[k][1],
			       bin, src),
			"%s: built", kinds[k][0]))
			continue;
		t = elf_symtab_load("", bin);
		snprintf(cmd, sizeof(cmd), "objdump -d %s", bin);
		p = popen(cmd, "r");
		while (t && p && fgets(line, sizeof(line), p)) {
			unsigned long long addr;
			char name[300];
			const char *got;
			uint64_t off = 99;

			if (sscanf(line, "%llx <%299[^>]>:", &addr, name) !=
				2 ||
			    !strstr(name, "@plt") || strchr(name, '-') ||
			    strchr(name, '+'))
				continue;
			seen++;
			got = elf_symtab_lookup(t, addr, &off);
			if (!got || strcmp(got, name) || off) {
				printf("# %s: %s at %#llx gave %s+%llu\n",
				       kinds[k][0], name, addr,
				       got ? got : "NULL",
				       (unsigned long long)off);
				bad++;
			}
		}
		if (p)
			pclose(p);
		ok(t && seen >= 2 && !bad,
		   "%s: every PLT entry named as objdump names it (%d, %d "
		   "wrong)",
		   kinds[k][0], seen, bad);
		elf_symtab_free(t);
	}
}

/* The names of path's functions (by address, as nm gives them) the same
 * from a copy whose .symtab lists them in a random order: its names then
 * come in no order at all (a hostile file's), which the reader's windows on
 * the string table cannot follow; past its budget it reads the table whole
 * (sym/elf_funcs.c). */
static void shuffled(const char *path)
{
	char copy[600];
	struct elf_symtab *a = elf_symtab_load("", path), *b = NULL;
	unsigned char *img = NULL, tmp[sizeof(Elf64_Sym)];
	Elf *elf = NULL;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	struct stat st;
	int fd = open(path, O_RDONLY), moved = 0, same = 0;
	unsigned int i, n = 0;

	snprintf(copy, sizeof(copy), "%s.shuffled", path);
	if (fd >= 0 && !fstat(fd, &st) && (img = malloc((size_t)st.st_size)) &&
	    read(fd, img, (size_t)st.st_size) == st.st_size)
		elf = elf_memory((char *)img, (size_t)st.st_size);
	while (elf && (scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB &&
		    sh.sh_entsize == sizeof(Elf64_Sym))
			break;
	if (scn && sh.sh_offset + sh.sh_size <= (uint64_t)st.st_size) {
		unsigned char *v = img + sh.sh_offset;
		uint64_t rng = 12345;

		n = (unsigned int)(sh.sh_size / sizeof(Elf64_Sym));
		for (i = n - 1; i > 1; i--) { /* (entry 0 stays: null) */
			unsigned int j;

			rng = rng * 6364136223846793005ull + 1;
			j = 1 + (unsigned int)((rng >> 33) % i);
			memcpy(tmp, v + i * sizeof(tmp), sizeof(tmp));
			memcpy(v + i * sizeof(tmp), v + j * sizeof(tmp),
			       sizeof(tmp));
			memcpy(v + j * sizeof(tmp), tmp, sizeof(tmp));
			moved++;
		}
	}
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	fd = open(copy, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (moved && fd >= 0 &&
	    write(fd, img, (size_t)st.st_size) == st.st_size)
		b = elf_symtab_load("", copy);
	if (fd >= 0)
		close(fd);
	for (i = 0; a && b && i < elf_symtab_count(a); i++) {
		uint64_t s0, e0;
		const char *x = elf_symtab_symbol(a, i, &s0, &e0),
			   *y = elf_symtab_lookup(b, s0, NULL);

		same += x && y && !strcmp(x, y);
	}
	ok(a && b && same == (int)elf_symtab_count(a) && same >= 2000,
	   "long names, .symtab shuffled (%u entries): %d of %u named as in "
	   "order",
	   n, same, a ? elf_symtab_count(a) : 0);
	elf_symtab_free(a);
	elf_symtab_free(b);
	free(img);
}

/* A string table of 500 KB, its names of 30 to 500 bytes across every
 * boundary of the 64 KiB windows it is read through (sym/elf_funcs.h): each
 * of 2000 functions named as nm names it. */
static void test_windows(void)
{
	static const char *const fns[] = { "main" };
	char path[512], name[1100];
	struct elf_symtab *t;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "%s/windows.c", tmp);
	f = fopen(path, "w");
	if (!f) {
		ok(0, "windows.c written");
		return;
	}
	for (i = 0; i < 2000; i++) {
		int len = 30 + (i * 7919) % 470; /* (st_sym: 511) */

		snprintf(name, sizeof(name), "symtest_window_%04d_", i);
		memset(name + 20, 'x', (size_t)len - 20);
		name[len] = 0;
		fprintf(f,
			"__attribute__((noinline)) int %s(int x)"
			" { return x * %d + 1; }\n",
			name, i + 3);
	}
	fputs("int main(void) { return 0; }\n", f);
	fclose(f);
	if (!ok(!st_sh("cd %s && gcc -O1 -o windows windows.c", tmp),
		"a binary of 2000 long names built"))
		return;
	snprintf(path, sizeof(path), "%s/windows", tmp);
	t = elf_symtab_load("", path);
	check_file("long names", t, path, fns, 1);
	if (t) {
		int n = st_nm(path, 0, truth, MAXSYMS), same = 0;

		for (i = 0; i < n; i++) {
			const char *got =
			    elf_symtab_lookup(t, truth[i].addr, NULL);

			same +=
			    !strncmp(truth[i].name, "symtest_window_", 15) &&
			    got && !strcmp(got, truth[i].name);
		}
		ok(same == 2000, "long names: %d of 2000 named in full", same);
	}
	elf_symtab_free(t);
	shuffled(path);
}

int main(void)
{
	static const char lib_c[] =
	    "__attribute__((noinline)) int symlib_one(int x)\n"
	    "{ return x * 5 + 3; }\n"
	    "__attribute__((noinline, visibility(\"hidden\"))) int\n"
	    "symlib_hidden(int x) { return symlib_one(x) ^ 0x55; }\n"
	    "int symlib_two(int x) { return symlib_hidden(x) + 1; }\n";
	static const char cxx[] =
	    "namespace symns {\n"
	    "struct Widget { int v; int frob(int x); };\n"
	    "__attribute__((noinline)) int Widget::frob(int x)\n"
	    "{ return v * x + 1; }\n"
	    "template <typename T> T twice(T x) { return x + x; }\n"
	    "template int twice<int>(int);\n"
	    "}\n";
	char path[512];
	FILE *f;

	if (st_setup(&tmp, src, sizeof(src))) {
		ok(0, "temporary directory and %s", src);
		return tap_done();
	}
	snprintf(path, sizeof(path), "%s/lib.c", tmp);
	f = fopen(path, "w");
	fputs(lib_c, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/cxx.cpp", tmp);
	f = fopen(path, "w");
	fputs(cxx, f);
	fclose(f);
	if (!ok(!st_sh("cd %s && "
		       "gcc -O1 -g -fno-omit-frame-pointer -fPIE -pie "
		       "-Wl,--build-id -Wl,--section-start=symfar=0x200000 "
		       "-o pie %s && "
		       "gcc -O1 -g -fno-pie -no-pie "
		       "-Wl,--section-start=symfar=0x2000000 -o nopie %s && "
		       "gcc -O1 -g -shared -fPIC -o libsym.so lib.c && "
		       "g++ -O1 -g -shared -fPIC -o libcxx.so cxx.cpp",
		       tmp, src, src),
		"test binaries built with gcc"))
		return tap_done();
	test_pie_nopie_lib();
	test_debug_files();
	test_debug_refused();
	test_cxx();
	test_damaged();
	test_plt();
	test_windows();
	test_libjvm();
	return tap_done();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The per-process resolver against live processes: a target built here (PIE
 * and non-PIE) prints the runtime addresses of its functions and the test
 * expects their exact names through usym; then the heap, anonymous memory,
 * the vdso, libc, a library dlopen'ed after the maps were read, a deleted
 * executable, a process in another mount namespace, the cache shared between
 * processes, and the cost of a resolve.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sys/auxv.h>
#include <sys/stat.h>

#include "tap.h"
#include "symtest_util.h"
#include "lib/clock.h"
#include "sym/maps.h"
#include "sym/usym.h"

/* This thread's CPU time in ms. */
static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static const char *tmp;

#define MAXFN 16
struct target {
	struct st_proc p;
	char path[1024];
	struct {
		char name[64];
		uint64_t addr;
	} fn[MAXFN];
	int nfn;
	uint64_t nosize, getpid_addr, heap, anon, vdso, sym;
};

static void on_line(const char *line, void *arg)
{
	struct target *t = arg;
	char name[64];
	unsigned long long a;

	if (sscanf(line, "fn %63s %llx", name, &a) == 2 && t->nfn < MAXFN) {
		snprintf(t->fn[t->nfn].name, sizeof(t->fn[0].name), "%s", name);
		t->fn[t->nfn++].addr = a;
	} else if (sscanf(line, "nosize %llx", &a) == 1) {
		t->nosize = a;
	} else if (sscanf(line, "libc getpid %llx", &a) == 1) {
		t->getpid_addr = a;
	} else if (sscanf(line, "heap %llx", &a) == 1) {
		t->heap = a;
	} else if (sscanf(line, "anon %llx", &a) == 1) {
		t->anon = a;
	} else if (sscanf(line, "vdso %llx", &a) == 1) {
		t->vdso = a;
	} else if (sscanf(line, "sym %63s %llx", name, &a) == 2) {
		t->sym = a;
	}
}

/* Starts argv (argv[0] is the program) and reads its first report. */
static int start(struct target *t, const char *path, char *const argv[])
{
	memset(t, 0, sizeof(*t));
	snprintf(t->path, sizeof(t->path), "%s", path);
	if (st_spawn(&t->p, argv))
		return -1;
	return st_read_until_ready(&t->p, on_line, t);
}

static int is(const char *got, const char *want)
{
	return got && !strcmp(got, want);
}

/* Every function the target printed resolves to its exact name, in its
 * file, at offset 0 and at offset 1. */
static void check_functions(const char *what, struct target *t, struct usym *u)
{
	struct usym_result r, r1;
	int i, bad = 0;

	for (i = 0; i < t->nfn; i++) {
		usym_resolve(u, t->fn[i].addr, &r);
		usym_resolve(u, t->fn[i].addr + 1, &r1);
		if (!is(r.name, t->fn[i].name) || !is(r.module, t->path) ||
		    !r.known || r.offset || !is(r1.name, t->fn[i].name) ||
		    r1.offset != 1) {
			printf("# %s: %s at %#" PRIx64 " gave %s+%" PRIu64
			       " in %s (known %d)\n",
			       what, t->fn[i].name, t->fn[i].addr, r.name,
			       r.offset, r.module, r.known);
			bad++;
		}
	}
	ok(t->nfn >= 5 && !bad, "%s: %d functions named exactly in %s", what,
	   t->nfn, t->path);
}

/* The address of a vdso function in target t, from nm on our own vdso (the
 * kernel maps the same one into every process). */
static uint64_t vdso_function(const struct target *t, char *name, size_t namesz)
{
	uint64_t base = getauxval(AT_SYSINFO_EHDR), size = 0;
	char path[512], cmd[700], line[512], n[256];
	struct pj_maps m;
	const struct pj_map *vm;
	unsigned long long a;
	uint64_t found = 0;
	char ty;
	FILE *f;

	if (!base || maps_load(getpid(), &m))
		return 0;
	vm = maps_find(&m, base);
	if (vm)
		size = vm->end - vm->start;
	maps_free(&m);
	snprintf(path, sizeof(path), "%s/vdso.so", tmp);
	f = fopen(path, "w");
	if (!f || !size ||
	    fwrite((void *)(uintptr_t)base, 1, size, f) != size) {
		if (f)
			fclose(f);
		return 0;
	}
	fclose(f);
	snprintf(cmd, sizeof(cmd), "nm -D --defined-only '%s'", path);
	f = popen(cmd, "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &a, &ty, n) == 3 &&
		    !strcmp(strtok(n, "@"), "__vdso_clock_gettime")) {
			found = t->vdso + a;
			snprintf(name, namesz, "%s", n);
		}
	}
	if (f)
		pclose(f);
	return found;
}

static void test_pie(const char *pie, const char *lib)
{
	char *argv[] = { (char *)pie, NULL };
	struct target t, t2;
	struct usym *u, *u2;
	struct usym_result r, r2;
	char vname[256] = "";
	uint64_t va;
	unsigned int reloads;
	struct pj_maps m;
	uint64_t hdr;
	double t0, t1;
	int i;

	if (!ok(!start(&t, pie, argv), "PIE target runs")) {
		st_stop(&t.p);
		return;
	}
	u = usym_new(t.p.pid, false);
	ok(u && usym_reloads(u) == 1, "usym_new reads the maps once");
	check_functions("PIE", &t, u);

	/* A library loaded after the maps were read: one re-read (first,
	 * before any other miss, which would rate-limit it). */
	reloads = usym_reloads(u);
	fprintf(t.p.in, "dlopen %s symlib_one\n", lib);
	fflush(t.p.in);
	st_read_until_ready(&t.p, on_line, &t);
	usym_resolve(u, t.sym + 1, &r);
	ok(t.sym && is(r.name, "symlib_one") && is(r.module, lib) &&
	       r.offset == 1,
	   "dlopen'ed library found by re-reading the maps: %s in %s", r.name,
	   r.module);
	ok(usym_reloads(u) == reloads + 1, "exactly one re-read (%u)",
	   usym_reloads(u) - reloads);

	usym_resolve(u, t.nosize + 2, &r);
	ok(is(r.name, "symtest_nosize") && r.offset == 2,
	   "zero-sized assembly function: %s+%" PRIu64, r.name, r.offset);
	usym_resolve(u, t.getpid_addr, &r);
	ok(r.known && (is(r.name, "getpid") || is(r.name, "__getpid")) &&
	       strstr(r.module, "libc.so"),
	   "libc's getpid: %s in %s", r.name, r.module);
	usym_resolve(u, t.heap, &r);
	ok(is(r.name, "[unknown]") && is(r.module, "[heap]") && !r.known,
	   "heap: [unknown] in [heap]");
	usym_resolve(u, t.anon + 16, &r);
	ok(is(r.name, "[unknown]") && is(r.module, "[anon]") &&
	       r.offset == 16 && !r.known,
	   "anonymous memory: [unknown] in [anon] at +16");
	va = vdso_function(&t, vname, sizeof(vname));
	usym_resolve(u, va, &r);
	ok(va && r.known && is(r.module, "[vdso]") &&
	       (is(r.name, "__vdso_clock_gettime") ||
		is(r.name, "clock_gettime")),
	   "vdso read from the target: %s in %s", r.name, r.module);
	hdr = 0;
	if (!maps_load(t.p.pid, &m)) {
		for (i = 0; i < (int)m.n && !hdr; i++)
			if (!strcmp(m.v[i].path, pie) && !m.v[i].pgoff)
				hdr = m.v[i].start + 0x10;
		maps_free(&m);
	}
	usym_resolve(u, hdr, &r);
	ok(hdr && is(r.name, "[unknown]") && is(r.module, pie) && !r.known &&
	       r.offset == 0x10,
	   "the ELF header of the executable: [unknown] in its file at 0x10");

	/* Unmapped addresses: unknown, and the re-reads are rate-limited. */
	reloads = usym_reloads(u);
	t0 = (now_ns() / 1e6);
	for (i = 0; i < 1000; i++)
		usym_resolve(u, 0x1000 + i * 64, &r);
	t1 = (now_ns() / 1e6);
	ok(is(r.name, "[unknown]") && !r.known, "unmapped: [unknown]");
	ok(usym_reloads(u) - reloads <= 2 + (unsigned int)((t1 - t0) / 20),
	   "1000 misses in %.1f ms re-read the maps %u times", t1 - t0,
	   usym_reloads(u) - reloads);

	/* A second process of the same executable shares the symbol table. */
	if (!start(&t2, pie, argv)) {
		u2 = usym_new(t2.p.pid, false);
		usym_resolve(u, t.fn[0].addr, &r);
		usym_resolve(u2, t2.fn[0].addr, &r2);
		ok(is(r2.name, t.fn[0].name) && r.name == r2.name,
		   "second process: same name from the same shared table");
		usym_free(u2);
	} else {
		ok(0, "second PIE target runs");
	}
	st_stop(&t2.p);

	/* A process seen at its exec (record -a): no maps read; the mappings
	 * its records announce name its functions, a miss reads /proc. */
	u2 = usym_new(t.p.pid, true);
	ok(u2 && usym_reloads(u2) == 0, "by its records: no maps read");
	if (u2 && !maps_load(t.p.pid, &m)) {
		for (i = 0; i < (int)m.n; i++)
			if (!strcmp(m.v[i].path, pie))
				usym_add_map(u2, &m.v[i]);
		maps_free(&m);
	}
	if (u2) {
		usym_resolve(u2, t.fn[0].addr, &r2);
		ok(is(r2.name, t.fn[0].name) && usym_reloads(u2) == 0,
		   "... its program's mappings, as its records give them, name "
		   "%s; no maps read",
		   r2.name);
		usym_resolve(u2, t.getpid_addr, &r2);
		ok(r2.known && usym_reloads(u2) == 1,
		   "... a library no record announced: %s, the maps read on "
		   "the miss (%u)",
		   r2.name, usym_reloads(u2));
		usym_free(u2);
	}

	/* The cost of a resolve, cached (the same frames again and again):
	 * in CPU time, which other work on the machine does not stretch. */
	t0 = cpu_ms();
	for (i = 0; i < 1000000; i++)
		usym_resolve(u, t.fn[i % t.nfn].addr + (i & 15), &r);
	t1 = cpu_ms();
	printf("# usym_resolve, repeated addresses: %.0f ns each\n",
	       (t1 - t0) * 1e6 / 1000000);
	ok(t1 - t0 < 2000, "a million cached resolves in %.0f ms of CPU",
	   t1 - t0);
	t0 = (now_ns() / 1e6);
	for (i = 0; i < 100000; i++)
		usym_resolve(u, t.getpid_addr + (uint64_t)i * 37 % 0x100000,
			     &r);
	t1 = (now_ns() / 1e6);
	printf("# usym_resolve, 100000 distinct libc addresses: %.0f ns "
	       "each\n",
	       (t1 - t0) * 1e6 / 100000);
	usym_free(u);
	st_stop(&t.p);
}

static void test_nopie(const char *nopie)
{
	char *argv[] = { (char *)nopie, NULL };
	struct target t;
	struct usym *u;
	int i, far = 0;

	if (ok(!start(&t, nopie, argv), "non-PIE target runs")) {
		u = usym_new(t.p.pid, false);
		check_functions("non-PIE", &t, u);
		for (i = 0; i < t.nfn; i++)
			if (!strcmp(t.fn[i].name, "symtest_far"))
				far = t.fn[i].addr == 0x2000000;
		ok(far, "symtest_far sits in its own segment at 0x2000000");
		usym_free(u);
	}
	st_stop(&t.p);
}

static void test_deleted(const char *pie)
{
	char path[1024];
	char *argv[] = { path, NULL };
	struct target t;
	struct usym *u;

	snprintf(path, sizeof(path), "%s/deleted_prog", tmp);
	if (st_sh("cp '%s' '%s'", pie, path) || start(&t, path, argv)) {
		ok(0, "deleted: target runs");
		st_stop(&t.p);
		return;
	}
	unlink(path);
	u = usym_new(t.p.pid, false);
	check_functions("deleted executable", &t, u);
	usym_free(u);
	st_stop(&t.p);
}

/* The executable exists only inside the target's own mount namespace. */
static void test_mount_namespace(const char *pie)
{
	char dir[512], path[700], cmd[4096];
	char *argv[] = { "/usr/bin/unshare",
			 "--mount",
			 "--propagation",
			 "private",
			 "/bin/sh",
			 "-c",
			 cmd,
			 NULL };
	struct target t;
	struct usym *u;

	snprintf(dir, sizeof(dir), "%s/ns", tmp);
	snprintf(path, sizeof(path), "%s/prog", dir);
	snprintf(cmd, sizeof(cmd),
		 "mount -t tmpfs none '%s' && cp '%s' '%s' && exec '%s'", dir,
		 pie, path, path);
	if (mkdir(dir, 0755) || access(argv[0], X_OK) ||
	    start(&t, path, argv) || !t.nfn) {
		skip("mount namespace", "cannot unshare a mount namespace "
					"and mount tmpfs here");
		st_stop(&t.p);
		return;
	}
	ok(access(path, F_OK) && errno == ENOENT,
	   "the target's executable is invisible from here");
	u = usym_new(t.p.pid, false);
	check_functions("other mount namespace", &t, u);
	usym_free(u);
	st_stop(&t.p);
}

/* The nm address of a symbol (version suffix cut; demangled with -C). */
static uint64_t nm_addr(const char *file, const char *opts, const char *name)
{
	char cmd[1200], line[2048];
	unsigned long long a;
	uint64_t found = 0;
	char ty;
	int k;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "nm %s --defined-only '%s'", opts, file);
	f = popen(cmd, "r");
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n@")] = '\0';
		if (sscanf(line, "%llx %c %n", &a, &ty, &k) == 2 &&
		    !strcmp(line + k, name))
			found = a;
	}
	if (f)
		pclose(f);
	return found;
}

/* A real JVM: libjvm.so's exported C function and a C++ one, demangled. */
static void test_jvm(void)
{
	static const char java_home[] = "/usr/lib/jvm/java-17-openjdk-amd64";
	char java[256], wait_src[512], jvm[512] = "";
	char *argv[] = { java, "-Xmx64m", "-XX:TieredStopAtLevel=1", wait_src,
			 NULL };
	struct target t;
	struct pj_maps m;
	struct usym *u;
	struct usym_result r, r2;
	uint64_t base = 0, a1, a2;
	unsigned int i;
	double t0, t1;
	FILE *f;

	snprintf(java, sizeof(java), "%s/bin/java", java_home);
	snprintf(wait_src, sizeof(wait_src), "%s/Wait.java", tmp);
	if (access(java, X_OK)) {
		skip("JVM", "no JDK 17 here");
		return;
	}
	f = fopen(wait_src, "w");
	if (f) {
		fputs("public class Wait { public static void main(String[] a)"
		      " throws Exception { System.out.println(\"ready\");"
		      " System.in.read(); } }\n",
		      f);
		fclose(f);
	}
	if (!ok(!start(&t, java, argv), "JVM runs")) {
		st_stop(&t.p);
		return;
	}
	if (!maps_load(t.p.pid, &m)) {
		for (i = 0; i < m.n && !base; i++)
			if (strstr(m.v[i].path, "/libjvm.so") &&
			    !m.v[i].pgoff) {
				base = m.v[i].start;
				snprintf(jvm, sizeof(jvm), "%s", m.v[i].path);
			}
		maps_free(&m);
	}
	a1 = nm_addr(jvm, "-D", "JNI_CreateJavaVM");
	a2 = nm_addr(jvm, "-C", "Threads::destroy_vm()");
	u = usym_new(t.p.pid, false);
	t0 = (now_ns() / 1e6);
	usym_resolve(u, base + a1 + 4, &r);
	t1 = (now_ns() / 1e6);
	printf("# first resolve in the JVM's libjvm.so (loads it): %.1f ms\n",
	       t1 - t0);
	usym_resolve(u, base + a2, &r2);
	ok(base && a1 && is(r.name, "JNI_CreateJavaVM") && r.offset == 4 &&
	       is(r.module, jvm),
	   "JVM: %s+%" PRIu64 " in %s", r.name, r.offset, r.module);
	ok(base && a2 && is(r2.name, "Threads::destroy_vm()") && r2.known,
	   "JVM: C++ function demangled: %s", r2.name);
	usym_free(u);
	st_stop(&t.p);
}

int main(void)
{
	static const char lib_c[] =
	    "__attribute__((noinline)) int symlib_one(int x)\n"
	    "{ return x * 5 + 3; }\n";
	char src[4200], pie[512], nopie[512], lib[512], path[600];
	struct usym *u;
	struct usym_result r;
	FILE *f;

	if (st_setup(&tmp, src, sizeof(src))) {
		ok(0, "temporary directory and %s", src);
		return tap_done();
	}
	snprintf(pie, sizeof(pie), "%s/pie", tmp);
	snprintf(nopie, sizeof(nopie), "%s/nopie", tmp);
	snprintf(lib, sizeof(lib), "%s/libsym.so", tmp);
	snprintf(path, sizeof(path), "%s/lib.c", tmp);
	f = fopen(path, "w");
	if (f) {
		fputs(lib_c, f);
		fclose(f);
	}
	if (!ok(!st_sh("cd %s && "
		       "gcc -O1 -g -fno-omit-frame-pointer -fPIE -pie "
		       "-Wl,--section-start=symfar=0x200000 -o pie '%s' && "
		       "gcc -O1 -g -fno-pie -no-pie "
		       "-Wl,--section-start=symfar=0x2000000 -o nopie '%s' && "
		       "gcc -O1 -g -shared -fPIC -o libsym.so lib.c",
		       tmp, src, src),
		"test programs built with gcc"))
		return tap_done();

	test_pie(pie, lib);
	test_nopie(nopie);
	test_deleted(pie);
	test_mount_namespace(pie);
	test_jvm();

	u = usym_new(999999999, false);
	usym_resolve(u, 0x400000, &r);
	ok(u && is(r.name, "[unknown]") && !r.known,
	   "a process that does not exist: [unknown], no crash");
	usym_free(u);
	return tap_done();
}

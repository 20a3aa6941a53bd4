// SPDX-License-Identifier: GPL-2.0
/* The small shared helpers of user/lib: clock, hashing, checked growth,
 * bounded whole-file reads, /proc status fields, processes gone. */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/addr.h"
#include "lib/clock.h"
#include "lib/file.h"
#include "lib/grow.h"
#include "lib/hash.h"
#include "lib/idtable.h"
#include "lib/loghist.h"
#include "lib/procfs.h"
#include "lib/sorted.h"
#include "lib/u64map.h"
#include "tap.h"

/* This thread's CPU time in ns: what a loaded machine does not stretch. */
static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void test_clock(void)
{
	uint64_t a = now_ns(), b = now_ns();
	long long ms = now_ms();

	ok(a && b >= a, "now_ns is monotonic (%llu then %llu)",
	   (unsigned long long)a, (unsigned long long)b);
	ok(ms >= (long long)(a / 1000000) &&
	       ms <= (long long)(now_ns() / 1000000),
	   "now_ms is now_ns in milliseconds");
}

static void test_hash(void)
{
	/* Reference values of 64-bit FNV-1a. */
	ok(fnv1a_str("", FNV_SEED) == 0xcbf29ce484222325ull,
	   "fnv1a of the empty string is the offset basis");
	ok(fnv1a_str("a", FNV_SEED) == 0xaf63dc4c8601ec8cull,
	   "fnv1a(\"a\") is the published value");
	ok(fnv1a_str("foobar", FNV_SEED) == 0x85944171f73967e8ull,
	   "fnv1a(\"foobar\") is the published value");
	ok(fnv1a("foobar", 6, FNV_SEED) == fnv1a_str("foobar", FNV_SEED),
	   "fnv1a over bytes equals fnv1a over the string");
	ok(fnv1a("bar", 3, fnv1a("foo", 3, FNV_SEED)) ==
	       fnv1a_str("foobar", FNV_SEED),
	   "fnv1a continues from a previous hash");
	ok((hash_mix64(1) & 0xffff) != (hash_mix64(1ull << 40) & 0xffff),
	   "hash_mix64 carries high bits into the low bits");
}

static void test_grow(void)
{
	int *a = NULL;
	size_t cap = 0;
	uint8_t *b = NULL;
	uint8_t cap8 = 0;
	unsigned int ucap = 0;
	char *c = NULL;
	int r, e;

	ok(!GROW(a, cap, 1) && a && cap >= 1, "GROW allocates a first block");
	a[0] = 7;
	ok(!GROW(a, cap, 1000) && cap >= 1000 && a[0] == 7,
	   "GROW keeps the contents");
	ok(!GROW(a, cap, 10) && cap >= 1000, "GROW never shrinks");
	free(a);

	ok(!GROW(b, cap8, 200) && cap8 >= 200,
	   "a uint8_t capacity reaches 200");
	errno = 0;
	r = GROW(b, cap8, 256);
	e = errno;
	ok(r == -1 && e == EOVERFLOW && cap8 >= 200 && b,
	   "a uint8_t capacity refuses 256 (EOVERFLOW), array kept");
	ok(!GROW(b, cap8, 255) && cap8 == 255,
	   "a uint8_t capacity stops at 255, not wrapping");
	free(b);

	errno = 0;
	r = GROW(c, ucap, (size_t)UINT32_MAX + 1);
	ok(r == -1 && errno == EOVERFLOW && !c && !ucap,
	   "an unsigned int capacity refuses 2^32 elements");
	a = NULL;
	cap = 0;
	errno = 0;
	r = GROW(a, cap, SIZE_MAX / 2);
	ok(r == -1 && errno == EOVERFLOW && !a && !cap,
	   "the size in bytes never overflows");
	errno = 0;
	r = grow_array((void **)&c, &cap, (size_t)1 << 62, 1, SIZE_MAX);
	ok(r == -1 && errno == ENOMEM && !c && !cap,
	   "a failed allocation is ENOMEM and leaves the array alone");
}

static void test_file(void)
{
	char path[] = "/tmp/pj-test-lib-XXXXXX", small[16], *s;
	size_t len = 0;
	int fd = mkstemp(path);
	static char big[200000];

	if (fd < 0) {
		skip("whole-file reads", "cannot create a temporary file");
		return;
	}
	memset(big, 'x', sizeof(big));
	big[sizeof(big) - 1] = '\n';
	ok(write(fd, big, sizeof(big)) == (ssize_t)sizeof(big),
	   "wrote a 200000-byte file");
	close(fd);
	s = read_whole_file(path, 0, 1 << 20, &len);
	ok(s && len == sizeof(big) && !memcmp(s, big, len) && !s[len],
	   "read_whole_file reads it all, NUL-terminated");
	free(s);
	errno = 0;
	s = read_whole_file(path, 0, 1000, &len);
	ok(!s && errno == EFBIG, "a file over the bound is EFBIG");
	errno = 0;
	s = read_whole_file("/tmp", 0, 1000, &len);
	ok(!s && errno == EISDIR, "a directory is EISDIR");
	s = read_whole_file("/proc/self/stat", 0, 1 << 16, &len);
	ok(s && len > 10 && strlen(s) == len,
	   "a /proc file (st_size 0) is read whole (%zu bytes)", len);
	free(s);
	errno = 0;
	s = read_whole_file("/proc/self/stat", 0, 4, &len);
	ok(!s && errno == EFBIG, "a /proc file over the bound is EFBIG");

	ok(!read_small_file(path, small, sizeof(small)) &&
	       strlen(small) == sizeof(small) - 1,
	   "read_small_file keeps the start of a large file");
	ok(!read_small_file("/proc/sys/kernel/pid_max", small, sizeof(small)) &&
	       atoi(small) > 0 && !strchr(small, '\n'),
	   "read_small_file drops the trailing newline (\"%s\")", small);
	ok(read_small_file("/nonexistent/x", small, sizeof(small)) == -1 &&
	       !small[0],
	   "read_small_file of a missing file is -1 and \"\"");
	unlink(path);
}

static uint64_t keys[100000];

static uint64_t key_hash(const void *ctx, uint32_t i)
{
	const uint64_t *mod = ctx;

	return hash_mix64(keys[i]) % *mod;
}

static long find(const struct idtable *t, uint64_t key, uint64_t mod)
{
	uint32_t v;

	for (size_t j = idtable_first(t, hash_mix64(key) % mod);
	     (v = idtable_at(t, j)); j = idtable_next(t, j))
		if (keys[v - 1] == key)
			return v - 1;
	return -1;
}

/* mod: hashes reduced to mod values (1: every key collides). */
static void test_idtable_mod(uint64_t mod, uint32_t n)
{
	struct idtable t = { 0 };
	bool all = true, none = true;

	ok(find(&t, 1, mod) == -1, "an empty idtable finds nothing");
	for (uint32_t i = 0; i < n; i++) {
		keys[i] = i * 7919ull + 3;
		if (idtable_add(&t, hash_mix64(keys[i]) % mod, i, key_hash,
				&mod))
			all = false;
	}
	for (uint32_t i = 0; i < n; i++)
		if (find(&t, keys[i], mod) != (long)i)
			all = false;
	for (uint32_t i = 0; i < 100; i++)
		if (find(&t, i * 7919ull + 4, mod) != -1)
			none = false;
	ok(all && t.n == n && (t.mask + 1) >= 2 * (size_t)n,
	   "idtable: %u entries found after growing to %zu slots (%llu hashes)",
	   n, t.mask + 1, (unsigned long long)mod);
	ok(none, "idtable: absent keys are not found");
	idtable_free(&t);
	ok(!t.slots && !t.n, "idtable_free empties the table");
}

/* The inverse of k ^= k >> 33 (one step: 33 > 32). */
static uint64_t unshift33(uint64_t y)
{
	return y ^ (y >> 33);
}

/* The inverse of an odd multiplier mod 2^64 (Newton's iteration). */
static uint64_t inverse(uint64_t a)
{
	uint64_t x = a;

	for (int i = 0; i < 6; i++)
		x *= 2 - a * x;
	return x;
}

/*
 * Keys an attacker who knows the hash would send: u64map's hash before the
 * seed was the murmur3 half-finalizer, invertible; the keys whose hash has
 * its low 20 bits clear all land on one slot of any table up to 2^20
 * slots. Under the seeded hash they spread: inserting them all stays fast.
 */
static void test_seeded_maps(void)
{
	enum { N = 100000 };
	static uint64_t k[N];
	struct u64map m = { 0 }, um = { 0 };
	uint64_t inv = inverse(0xff51afd7ed558ccdull), t0, us;
	uint32_t v;
	bool all = true;

	for (uint32_t i = 0; i < N; i++)
		k[i] = unshift33(inv * unshift33((uint64_t)(i + 1) << 20));
	ok(((k[0] ^ k[0] >> 33) * 0xff51afd7ed558ccdull ^
	    ((k[0] ^ k[0] >> 33) * 0xff51afd7ed558ccdull) >> 33) >>
		   20 ==
	       1,
	   "the keys collide under the unseeded hash");
	t0 = cpu_ns();
	for (uint32_t i = 0; i < N; i++)
		u64map_put(&m, k[i], i + 1);
	for (uint32_t i = 0; i < N; i++)
		all &= u64map_get(&m, k[i], &v) && v == i + 1;
	us = (cpu_ns() - t0) / 1000;
	ok(all && us < 1000000,
	   "u64map: %d such keys in and found in %llu us of CPU (seeded)", N,
	   (unsigned long long)us);
	ok(m.probe_max <= 100,
	   "... its longest probe is short (%u slots: the seed spread them)",
	   m.probe_max);
	u64map_free(&m);
	/* keys that do collide under this run's seed (fmix64 inverted):
	 * the longest probe says so, as the recorder's stat would */
	for (uint32_t i = 0; i < 2000; i++) {
		uint64_t h = (uint64_t)(i + 1) << 20;

		h = unshift33(h) * inverse(0xc4ceb9fe1a85ec53ull);
		h = unshift33(h) * inverse(0xff51afd7ed558ccdull);
		u64map_put(&m, unshift33(h) ^ hash_seed, i + 1);
	}
	ok(m.probe_max >= 1000,
	   "u64map: 2000 keys of one slot under the run's seed: longest probe %u "
	   "slots",
	   m.probe_max);
	u64map_free(&m);
	/* the pointer map's old multiplicative hash (lib/umap.c, merged
	 * into u64map): keys i * 2^37 / golden all collided */
	inv = inverse(0x9e3779b97f4a7c15ull);
	t0 = cpu_ns();
	for (uint32_t i = 0; i < N; i++)
		u64map_slot(&um, inv * ((uint64_t)(i + 1) << 37))->p = &k[i];
	for (uint32_t i = 0; i < N; i++)
		all &= u64map_ptr(&um, inv * ((uint64_t)(i + 1) << 37)) ==
		       &k[i];
	us = (cpu_ns() - t0) / 1000;
	ok(all && us < 1000000,
	   "u64map of pointers: %d keys of one old slot in and found in %llu us of CPU",
	   N, (unsigned long long)us);
	u64map_free(&um);
	ok(hash_seed && hash_u64(1) != hash_fmix64(1),
	   "the seed is set before main (%016llx)",
	   (unsigned long long)hash_seed);
}

/* Another run's seed: this binary run again says it. */
static void test_seed_per_run(const char *self)
{
	char cmd[512], out[64] = "";
	FILE *f;

	snprintf(cmd, sizeof(cmd), "%s seed", self);
	f = popen(cmd, "r");
	if (!f || !fgets(out, sizeof(out), f)) {
		ok(0, "run again for its seed");
	} else {
		ok(strtoull(out, NULL, 16) != hash_seed,
		   "each run has its own seed (%016llx, then %s)",
		   (unsigned long long)hash_seed, strtok(out, "\n"));
	}
	if (f)
		pclose(f);
}

static void test_procfs(void)
{
	char buf[64];

	ok(!proc_status_field(getpid(), 0, "Tgid:", buf, sizeof(buf)) &&
	       atoi(buf) == getpid(),
	   "proc_status_field reads our Tgid");
	ok(!proc_status_field(getpid(), getpid(), "Pid:", buf, sizeof(buf)) &&
	       atoi(buf) == getpid(),
	   "proc_status_field reads a thread's status");
	ok(proc_status_field(getpid(), 0, "NoSuchField:", buf, sizeof(buf)),
	   "a missing field is -1");
	ok(!strcmp(proc_path(buf, sizeof(buf), 12, 34, "stat"),
		   "/proc/12/task/34/stat") &&
	       !strcmp(proc_path(buf, sizeof(buf), 12, 0, ""), "/proc/12"),
	   "proc_path names a process's and a thread's files");
	proc_comm(getpid(), getpid(), buf, sizeof(buf));
	ok(!strcmp(buf, "test_lib"), "proc_comm: the comm, no newline (%s)",
	   buf);
	proc_cmdline(getpid(), buf, sizeof(buf));
	ok(strstr(buf, "test_lib") && !strchr(buf, '\n'),
	   "proc_cmdline: the arguments on one line (%s)", buf);
	{
		uid_t uid = (uid_t)-2, kuid = (uid_t)-2;
		int kt = -2, kkt = -2;
		int r = proc_uid_kthread(getpid(), &uid, &kt);
		int kr = proc_uid_kthread(2, &kuid, &kkt);

		/* (pid 2, kthreadd, is the kernel's unless in a pid
		 * namespace, where it may be no one) */
		ok(!r && uid == getuid() && kt <= 0 && kt >= -1 &&
		       (kr || kkt == 1 || kkt == -1),
		   "proc_uid_kthread: our uid %d, not a kernel thread (%d), "
		   "kthreadd one (%d)",
		   (int)uid, kt, kkt);
	}
	ok(proc_exists(getpid(), getpid()) && !proc_exists(getpid(), 1) &&
	       proc_contains(getpid(), "cmdline", "test_lib") &&
	       !proc_contains(getpid(), "cmdline", "no such argument"),
	   "proc_exists and proc_contains");
}

static void test_gone(void)
{
	pid_t child = fork();
	int zombie, reaped;

	if (!child)
		_exit(0);
	/* a zombie until waited for: its status file says Z */
	for (int i = 0; i < 2000 && !proc_gone(child); i++)
		usleep(1000);
	zombie = proc_gone(child);
	waitpid(child, NULL, 0);
	reaped = proc_gone(child);
	ok(!proc_gone(getpid()) && zombie && reaped,
	   "proc_gone: a running process is not gone, a zombie (%d) and a reaped one (%d) are",
	   zombie, reaped);
}

static void test_sorted(void)
{
	static const struct {
		uint64_t start;
	} v[] = { { 10 }, { 20 }, { 20 }, { 30 } };
	bool good = true;
	/* key, elements <= key */
	static const uint64_t want[][2] = { { 0, 0 },  { 10, 1 }, { 15, 1 },
					    { 20, 3 }, { 29, 3 }, { 30, 4 },
					    { 99, 4 } };

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (SORTED_UPTO(v, 4, start, want[i][0]) != want[i][1])
			good = false;
	ok(good, "SORTED_UPTO counts the elements at or below a key");
	ok(SORTED_UPTO(v, 0, start, 99) == 0,
	   "SORTED_UPTO of no elements is 0");
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* against the exact quantiles of a sorted copy: spread over 40 powers of
 * two, a few equal values, and one huge */
static void test_loghist(void)
{
	static struct loghist h;
	static uint64_t v[100000];
	static const double qs[] = { 0, 0.01, 0.5, 0.9, 0.99, 0.999, 1 };
	uint64_t x = 88172645463325252ull, got, want, worst = 0;
	bool within = true, exact_small = true;
	size_t n = sizeof(v) / sizeof(v[0]);

	ok(!loghist_quantile(&h, 0.5, &got), "loghist: no quantile of nothing");
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		v[i] = i < 100	    ? 7
		       : i == n - 1 ? UINT64_MAX
				    : x >> (24 + x % 40);
		loghist_add(&h, v[i]);
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		size_t r = (size_t)(qs[i] * (double)n);

		want = v[r < n ? r : n - 1];
		loghist_quantile(&h, qs[i], &got);
		if (got < want || got - want > want / 16) /* its bucket's top */
			within = false;
		if (got - want > worst)
			worst = got - want;
	}
	for (uint64_t i = 0; i < 16; i++) {
		struct loghist one = { 0 };

		loghist_add(&one, i);
		exact_small &= loghist_quantile(&one, 0.5, &got) && got == i;
	}
	ok(within,
	   "loghist: quantiles within 1/16 above the exact ones (worst +%llu)",
	   (unsigned long long)worst);
	ok(exact_small, "loghist: values below 16 exact");
	ok(loghist_quantile(&h, 1, &got) && got == UINT64_MAX &&
	       h.max == UINT64_MAX,
	   "loghist: the largest value is kept exactly");
	ok(sizeof(h) <= 8192, "loghist: %zu bytes however many values",
	   sizeof(h));
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "seed")) {
		printf("%016llx\n", (unsigned long long)hash_seed);
		return 0;
	}
	test_seeded_maps();
	test_seed_per_run(argv[0]);
	test_sorted();
	test_loghist();
	test_clock();
	test_hash();
	test_grow();
	test_file();
	test_procfs();
	test_gone();
	test_idtable_mod(UINT64_MAX, 100000);
	test_idtable_mod(1, 3000);
	ok(addr_is_kernel(0xffffffff81000000ull) &&
	       !addr_is_kernel(0x00007fffffffe000ull),
	   "addr_is_kernel splits user and kernel addresses");
	return tap_done();
}

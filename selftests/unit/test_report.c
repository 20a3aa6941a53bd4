// SPDX-License-Identifier: GPL-2.0
/*
 * `perfjava report` on a profile of known content: exact text and collapsed
 * output, --threads, --lines, --total, --top, and every error a user can
 * cause. With `--make-profile FILE` it only writes that profile (used by
 * selftests/report/test_collapsed.sh).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile/io.h"
#include "report/report.h"
#include "tap.h"

static char data[300];
#include "report_util.h"

/*
 * Stacks (leaf first), threads 10 "main" and 11 "worker", period 1 ms:
 *   A  App.inner_[i] App.work_[j] App.main_[0] start_thread   6 x tid 10
 *   B  do_syscall_64_[k] App.c1_[1] App.main_[0] start_thread 3 x tid 11
 *   C  weird;name [libfoo.so] start_thread                    1 x tid 10
 *   D  [unknown]                                    2 x 0.5 ms, tid 11
 */
static int make_counts(const char *path, int na, int nb, int nc, int nd)
{
	uint32_t inl, work, mn, c1, start, k, semi, anon, unk;
	uint32_t a, b, c, d;
	struct pj_writer *w = report_writer(path);
	uint64_t t = 1000000000;

	if (!w)
		return -1;
	pj_writer_meta(w, "command", "java App");
	inl = pj_writer_frame(w, PJ_FRAME_INLINED, "App.inner", NULL,
			      "App.java", 30);
	work =
	    pj_writer_frame(w, PJ_FRAME_JIT, "App.work", NULL, "App.java", 20);
	mn = pj_writer_frame(w, PJ_FRAME_INTERPRETED, "App.main", NULL,
			     "App.java", 5);
	c1 = pj_writer_frame(w, PJ_FRAME_C1, "App.c1", NULL, NULL, 0);
	start = pj_writer_frame(w, PJ_FRAME_NATIVE, "start_thread",
				"/lib/libc.so.6", NULL, 0);
	k = pj_writer_frame(w, PJ_FRAME_KERNEL, "do_syscall_64", "vmlinux",
			    NULL, 0);
	semi = pj_writer_frame(w, PJ_FRAME_NATIVE, "weird;name",
			       "/usr/lib/libfoo.so", NULL, 0);
	anon = pj_writer_frame(w, PJ_FRAME_NATIVE, NULL, "/usr/lib/libfoo.so",
			       NULL, 0);
	unk = pj_writer_frame(w, PJ_FRAME_UNKNOWN, NULL, NULL, NULL, 0);
	a = pj_writer_stack(w, (uint32_t[]){ inl, work, mn, start }, 4);
	b = pj_writer_stack(w, (uint32_t[]){ k, c1, mn, start }, 4);
	c = pj_writer_stack(w, (uint32_t[]){ semi, anon, start }, 3);
	d = pj_writer_stack(w, (uint32_t[]){ unk }, 1);
	pj_writer_thread(w, 10, 10, "main");
	pj_writer_thread(w, 11, 10, "worker");
	for (int i = 0; i < na + nb + nc + nd; i++) {
		struct pj_sample s = { .time = t, .period = 1000000 };

		t += 1000000;
		if (i < na) {
			s.tid = 10;
			s.stack = a;
		} else if (i < na + nb) {
			s.tid = 11;
			s.stack = b;
		} else if (i < na + nb + nc) {
			s.tid = 10;
			s.stack = c;
		} else {
			s.tid = 11;
			s.stack = d;
			s.period = 500000;
		}
		pj_writer_sample(w, &s);
		if (i == 5)
			pj_writer_flush(w);
	}
	pj_writer_stat(w, "lost", 4);
	return pj_writer_close(w);
}

static int make_profile(const char *path)
{
	return make_counts(path, 6, 3, 1, 2);
}

/* The baseline of --diff tests: A 2, B 6, C 1, D 1 (10 samples). */
static int make_old_profile(const char *path)
{
	return make_counts(path, 2, 6, 1, 1);
}

static const char text_expected[] =
    "--- 6000000 ns (54.55%), 6 samples\n"
    "  [ 0] App.inner\n"
    "  [ 1] App.work\n"
    "  [ 2] App.main\n"
    "  [ 3] start_thread\n"
    "\n"
    "--- 3000000 ns (27.27%), 3 samples\n"
    "  [ 0] do_syscall_64_[k]\n"
    "  [ 1] App.c1\n"
    "  [ 2] App.main\n"
    "  [ 3] start_thread\n"
    "\n"
    "--- 1000000 ns (9.09%), 2 samples\n"
    "  [ 0] [unknown]\n"
    "\n"
    "--- 1000000 ns (9.09%), 1 sample\n"
    "  [ 0] weird;name\n"
    "  [ 1] [libfoo.so]\n"
    "  [ 2] start_thread\n"
    "\n"
    "          ns  percent  samples  top\n"
    "  ----------  -------  -------  ---\n"
    "     6000000   54.55%        6  App.inner\n"
    "     3000000   27.27%        3  do_syscall_64_[k]\n"
    "     1000000    9.09%        2  [unknown]\n"
    "     1000000    9.09%        1  weird;name\n";

static void test_text(void)
{
	char *t, *stacks;
	int rc = report("-i", data, "-o", out, (char *)NULL);

	t = slurp(out);
	ok(rc == 0 && !*slurp(errf), "text report runs cleanly");
	ok(strstr(t, "Event               : cpu-clock every 1 ms\n") &&
	       strstr(t, "Samples             : 12\n") &&
	       strstr(t, "Total               : 11000000 ns\n") &&
	       strstr(t, "Lost samples        : 4\n") &&
	       strstr(t, "Threads             : 2\n") &&
	       strstr(t, "Duration            : 0.011 s\n") &&
	       strstr(t, "command             : java App\n"),
	   "summary: event, samples, total, lost, threads, duration, meta");
	stacks = strstr(t, "\n\n--- ");
	ok(stacks && !strcmp(stacks + 2, text_expected),
	   "hottest stacks and leaf table, exactly");
	if (!stacks || strcmp(stacks + 2, text_expected))
		printf("# got:\n%s\n", t);

	rc = report("-i", data, "-o", out, "--top", "1", (char *)NULL);
	t = slurp(out);
	ok(rc == 0 && strstr(t, "--- 6000000 ns") &&
	       !strstr(t, "--- 3000000") && strstr(t, "6  App.inner\n") &&
	       !strstr(t, "3  do_syscall"),
	   "--top 1 keeps one stack and one row");
}

static const char collapsed_expected[] =
    "[unknown] 2\n"
    "start_thread;App.main_[0];App.c1_[1];do_syscall_64_[k] 3\n"
    "start_thread;App.main_[0];App.work_[j];App.inner_[i] 6\n"
    "start_thread;[libfoo.so];weird,name 1\n";

static void test_collapsed(void)
{
	int rc = report("-i", data, "--format", "collapsed", "-o", out,
			(char *)NULL);
	char *t = slurp(out);

	ok(rc == 0 && !strcmp(t, collapsed_expected),
	   "collapsed: root first, suffixes, no ';' inside names, counts");
	if (strcmp(t, collapsed_expected))
		printf("# got:\n%s", t);

	rc = report("-i", data, "--format=collapsed", "--threads", "--lines",
		    "-o", out, (char *)NULL);
	t = slurp(out);
	ok(rc == 0 && !strcmp(t, "[main tid=10];start_thread;App.main:5_[0];"
				 "App.work:20_[j];App.inner:30_[i] 6\n"
				 "[main tid=10];start_thread;[libfoo.so];"
				 "weird,name 1\n"
				 "[worker tid=11];[unknown] 2\n"
				 "[worker tid=11];start_thread;App.main:5_[0];"
				 "App.c1_[1];do_syscall_64_[k] 3\n"),
	   "--threads roots stacks at their thread, --lines adds lines");
	if (rc)
		printf("# got:\n%s", t);

	rc = report("-i", data, "--format", "collapsed", "--total", "-o", out,
		    (char *)NULL);
	t = slurp(out);
	ok(rc == 0 && strstr(t, "[unknown] 1000000\n") &&
	       strstr(t, "App.inner_[i] 6000000\n"),
	   "--total counts the periods");

	rc = report("-i", data, "--threads", "-o", out, (char *)NULL);
	t = slurp(out);
	ok(rc == 0 && strstr(t, "  [ 4] [main tid=10]\n"),
	   "--threads in text: the thread is the outermost frame");
}

/* Two stacks of two samples each, 1 ms apart, of thread 10; B's samples
 * carry 10 context switches each, and the file a switch cost of ps (0:
 * none), and thread 10 one of its own, own (0: none; signed), beside keys
 * that name no thread. */
static int make_switches(const char *path, uint64_t ps, int64_t own)
{
	struct pj_event_desc ev = { 0, "cpu-clock", "ns", 1, 0, 1000000, 0 };
	struct pj_writer *w;
	uint32_t spin, blocks, a, b;
	char err[256];

	w = pj_writer_open(path, err, sizeof(err));
	if (!w)
		return -1;
	pj_writer_event(w, &ev);
	spin = pj_writer_frame(w, PJ_FRAME_NATIVE, "spin", NULL, NULL, 0);
	blocks = pj_writer_frame(w, PJ_FRAME_NATIVE, "blocks", NULL, NULL, 0);
	a = pj_writer_stack(w, &spin, 1);
	b = pj_writer_stack(w, &blocks, 1);
	for (int i = 0; i < 4; i++)
		pj_writer_sample(w, &(struct pj_sample){
					.time = 1000000000 + i * 1000000,
					.period = 1000000,
					.tid = 10,
					.stack = i < 2 ? a : b,
					.switches = i < 2 ? 0 : 10,
				    });
	if (ps)
		pj_writer_stat(w, "switch_cost_ps", ps);
	if (own) {
		pj_writer_stat(w, "switch_cost_ps.x10", 7000000);
		pj_writer_stat(w, "switch_cost_ps.", 7000000);
		pj_writer_stat(w, "switch_cost_ps.99999999999", 7000000);
		pj_writer_stat(w, "switch_cost_ps.11", 7000000);
		pj_writer_stat(w, "switch_cost_ps.0", 7000000);
		pj_writer_stat(w, "switch_cost_ps.10", (uint64_t)own);
	}
	return pj_writer_close(w);
}

/* report --total's collapsed text of make_switches(path, ps, own), or of
 * path as it is when ps is (uint64_t)-1; NULL on a failed report. */
static char *switches_total(const char *path, uint64_t ps, int64_t own,
			    bool total)
{
	if (ps != (uint64_t)-1 && make_switches(path, ps, own))
		return NULL;
	if (report("-i", path, "--format", "collapsed", "-o", out,
		   total ? "--total" : (char *)NULL, (char *)NULL))
		return NULL;
	return slurp(out);
}

/* whether t holds each line of want ("" ends it), else says what it got */
static bool holds(const char *t, const char *const *want)
{
	for (; t && **want; want++)
		if (!strstr(t, *want)) {
			printf("# no \"%s\" in:\n%s", *want, t);
			return false;
		}
	return t != NULL;
}

static void test_switch_cost(void)
{
	char path[320];
	char *t;

	snprintf(path, sizeof(path), "%s/switches.data", dir);
	t = switches_total(path, 2500000, 0, true);
	ok(holds(t,
		 (const char *[]){ "blocks 2050000\n", "spin 2000000\n", "" }),
	   "--total adds each sample's switches at the file's cost");
	t = switches_total(path, (uint64_t)-1, 0, false);
	ok(holds(t, (const char *[]){ "blocks 2\n", "spin 2\n", "" }),
	   "sample counts stay counts");
	t = switches_total(path, 0, 0, true);
	ok(holds(t, (const char *[]){ "blocks 2000000\n", "" }),
	   "a file without the cost keeps its periods");
	/* its thread's own cost, not the file's: -50 us a switch */
	t = switches_total(path, 2500000, -50000000, true);
	ok(holds(t,
		 (const char *[]){ "blocks 1000000\n", "spin 2000000\n", "" }),
	   "--total takes a thread's own cost, signed, over the file's");
	t = switches_total(path, 2500000, 60000000, true);
	ok(holds(t, (const char *[]){ "blocks 3200000\n", "" }),
	   "a thread's own positive cost likewise");
	/* -200 us a switch: 2 ms off a 1 ms sample */
	t = switches_total(path, 0, -200000000, true);
	ok(holds(t, (const char *[]){ "spin 2000000\n", "" }) &&
	       !strstr(t, "blocks 1"),
	   "a sample's time goes down to 0, not below");
}

static void test_errors(void)
{
	char path[400], cut[400], line[600];
	char *buf;
	struct stat st;
	int fd, rc;

	ok(report("--bogus", (char *)NULL) == 2 &&
	       strstr(slurp(errf), "unknown option '--bogus'") &&
	       strstr(slurp(errf), "usage: perfjava report"),
	   "unknown option: usage, exit 2");
	ok(report("-i", data, "--format", "svg", (char *)NULL) == 2 &&
	       strstr(slurp(errf), "unknown format 'svg'"),
	   "unknown format: exit 2");
	ok(report("-i", data, "--top", "x", (char *)NULL) == 2,
	   "bad --top: exit 2");

	snprintf(path, sizeof(path), "%s/nope.data", dir);
	snprintf(line, sizeof(line),
		 "perfjava: cannot read %s: No such file or directory\n", path);
	ok(report("-i", path, (char *)NULL) == 1 && !strcmp(slurp(errf), line),
	   "missing file: one line, exit 1");

	{
		char cwd[400];

		if (getcwd(cwd, sizeof(cwd)) && !chdir(dir)) {
			ok(report(NULL) == 1 &&
			       !strcmp(slurp(errf),
				       "perfjava: cannot read perfjava.data: "
				       "No such file or directory\n"),
			   "default input is perfjava.data");
			if (chdir(cwd))
				printf("# chdir back failed\n");
		}
	}

	snprintf(path, sizeof(path), "%s/junk.data", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (write(fd, "hello, world, not a profile\n", 28) != 28)
		printf("# short write\n");
	close(fd);
	snprintf(line, sizeof(line),
		 "perfjava: cannot read %s: not a perfjava profile\n", path);
	ok(report("-i", path, (char *)NULL) == 1 && !strcmp(slurp(errf), line),
	   "not a profile: one line, exit 1");

	/* Damaged: flip a payload byte of the first chunk. */
	stat(data, &st);
	buf = malloc((size_t)st.st_size);
	fd = open(data, O_RDONLY);
	if (read(fd, buf, (size_t)st.st_size) != st.st_size)
		printf("# short read\n");
	close(fd);
	snprintf(cut, sizeof(cut), "%s/cut.data", dir);
	buf[50] ^= 0x10;
	fd = open(cut, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (write(fd, buf, (size_t)st.st_size) != st.st_size)
		printf("# short write\n");
	close(fd);
	buf[50] ^= 0x10;
	ok(report("-i", cut, (char *)NULL) == 1 &&
	       strstr(slurp(errf), ": damaged at offset 32: checksum"),
	   "damaged file: one line, exit 1");

	/* No END chunk (the last 16 bytes), but nothing cut short. */
	fd = open(cut, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (write(fd, buf, (size_t)st.st_size - 16) != st.st_size - 16)
		printf("# short write\n");
	close(fd);
	snprintf(line, sizeof(line),
		 "perfjava: warning: %s has no end marker (recording still "
		 "running or killed); reporting the 12 complete samples\n",
		 cut);
	ok(report("-i", cut, "-o", out, (char *)NULL) == 0 &&
	       !strcmp(slurp(errf), line) &&
	       strstr(slurp(out), "Samples             : 12\n"),
	   "no end marker: warning, then the report");

	/* Cut inside the STATS chunk. */
	fd = open(cut, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (write(fd, buf, (size_t)st.st_size - 18) != st.st_size - 18)
		printf("# short write\n");
	close(fd);
	snprintf(line, sizeof(line),
		 "perfjava: warning: %s is truncated (recording was "
		 "interrupted); reporting the 12 complete samples\n",
		 cut);
	ok(report("-i", cut, "--format", "collapsed", "-o", out,
		  (char *)NULL) == 0 &&
	       !strcmp(slurp(errf), line) &&
	       !strcmp(slurp(out), collapsed_expected),
	   "truncated: warning, then the report of the complete samples");
	free(buf);

	snprintf(path, sizeof(path), "%s/no/such/dir/out.txt", dir);
	snprintf(line, sizeof(line),
		 "perfjava: cannot create %s: No such file or directory\n",
		 path);
	ok(report("-i", data, "-o", path, (char *)NULL) == 1 &&
	       !strcmp(slurp(errf), line),
	   "unwritable -o: one line, exit 1");
	ok(report("-i", data, "-o", "/dev/full", (char *)NULL) == 1 &&
	       strstr(slurp(errf), "not a regular file"),
	   "a device as -o is refused");
	{
		struct rlimit old, lim = { 100, RLIM_INFINITY };

		getrlimit(RLIMIT_FSIZE, &old);
		lim.rlim_max = old.rlim_max;
		signal(SIGXFSZ, SIG_IGN);
		setrlimit(RLIMIT_FSIZE, &lim);
		rc = report("-i", data, "-o", out, (char *)NULL);
		setrlimit(RLIMIT_FSIZE, &old);
		signal(SIGXFSZ, SIG_DFL);
		ok(rc == 1 && strstr(slurp(errf), "File too large") &&
		       access(out, F_OK),
		   "a write error while writing the report: an error, and "
		   "no file (%s)",
		   slurp(errf));
	}
	ok(report("-i", data, "--event", "cycles", (char *)NULL) == 1 &&
	       strstr(slurp(errf), "no samples of event cycles"),
	   "--event of an event not in the file");
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--make-profile"))
		return make_profile(argv[2]) ? 1 : 0;
	if (argc == 3 && !strcmp(argv[1], "--make-old-profile"))
		return make_old_profile(argv[2]) ? 1 : 0;
	if (report_dir_make())
		return 1;
	snprintf(data, sizeof(data), "%s/known.data", dir);
	if (ok(make_profile(data) == 0, "profile of known content written")) {
		test_text();
		test_collapsed();
		test_switch_cost();
		test_errors();
	}
	report_dir_remove();
	return tap_done();
}

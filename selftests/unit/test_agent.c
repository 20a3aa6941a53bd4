// SPDX-License-Identifier: GPL-2.0
/*
 * The agent against real JVMs (JDK 17 and JDK 25), through the client API
 * of user/agent.h: attach to a JVM started without special flags, walk a
 * thread with a known call chain, -Xint, 1500-deep recursion, thread names,
 * the code map, ten attaches in a row, a client killed with SIGKILL mid-walk,
 * fault injection, attach disabled, a pid that is not a JVM. Walk latency
 * (request time -> walk time) is printed as median and p99.
 */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "jvm/client.h"
#include "jvm/codemap.h"
#include "perfjava/profile.h"
#include "tap.h"

#define JDK17 "/usr/lib/jvm/java-17-openjdk-amd64"
#define JDK25 "/usr/lib/jvm/temurin-25-jdk-amd64"

static char classdir[300], agent_so[512], tmpdir[64];

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

struct jvm {
	pid_t pid;
	int out;
	char stop[300], go[300];
	char buf[16384];
	size_t len;
};

/* Reads the JVM's stdout until needle shows or the deadline passes. */
static int jvm_read_until(struct jvm *j, const char *needle, int ms)
{
	uint64_t end = now_ns() + ms * 1000000ull;

	while (!needle || !strstr(j->buf, needle)) {
		struct pollfd p = { j->out, POLLIN, 0 };
		uint64_t now = now_ns();
		ssize_t n;

		if (now >= end || poll(&p, 1, (end - now) / 1000000 + 1) <= 0)
			return -1;
		n = read(j->out, j->buf + j->len, sizeof(j->buf) - 1 - j->len);
		if (n <= 0)
			return needle ? -1 : 0;
		j->len += n;
		j->buf[j->len] = 0;
	}
	return 0;
}

static int jvm_start(struct jvm *j, const char *jdk, const char *flag,
		     const char *env)
{
	static int seq;
	char java[256];
	int p[2];

	memset(j, 0, sizeof(*j));
	snprintf(java, sizeof(java), "%s/bin/java", jdk);
	snprintf(j->stop, sizeof(j->stop), "%s/stop%d", tmpdir, seq);
	snprintf(j->go, sizeof(j->go), "%s/go%d", tmpdir, seq++);
	if (pipe(p))
		return -1;
	j->pid = fork();
	if (j->pid == 0) {
		char *argv[8];
		int n = 0;

		dup2(p[1], 1);
		close(p[0]);
		if (env)
			putenv((char *)env);
		argv[n++] = java;
		if (flag)
			argv[n++] = (char *)flag;
		argv[n++] = "-cp";
		argv[n++] = classdir;
		argv[n++] = "AgentTarget";
		argv[n++] = j->stop;
		argv[n++] = j->go;
		argv[n] = NULL;
		execv(java, argv);
		_exit(127);
	}
	close(p[1]);
	j->out = p[0];
	return jvm_read_until(j, "ready\n", 30000);
}

static void touch(const char *path)
{
	int fd = open(path, O_CREAT | O_WRONLY, 0644);

	if (fd >= 0)
		close(fd);
}

/* Tells the JVM to finish; its output is in j->buf. Exit status or -1. */
static int jvm_finish(struct jvm *j)
{
	int st = -1, fd = open(j->stop, O_CREAT | O_WRONLY, 0644);

	if (fd >= 0)
		close(fd);
	jvm_read_until(j, NULL, 30000);
	close(j->out);
	if (waitpid(j->pid, &st, 0) != j->pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static pid_t find_thread(pid_t pid, const char *comm)
{
	char path[384], name[64];
	struct dirent *de;
	pid_t found = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	/* (a thread names itself once it runs: after the JVM said ready) */
	while (d && !found && (de = readdir(d))) {
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/task/%s/comm", pid,
			 de->d_name);
		f = fopen(path, "r");
		if (f && fgets(name, sizeof(name), f)) {
			name[strcspn(name, "\n")] = 0;
			if (!strcmp(name, comm))
				found = atoi(de->d_name);
		}
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	return found;
}

/* The expected output: the same arithmetic as AgentTarget.java. */
static void expected_output(char *buf, size_t len)
{
	uint64_t x = 42, y = 7;
	int i;

	for (i = 0; i < 1000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		y = y * 6364136223846793005ull + 1442695040888963407ull;
	}
	snprintf(buf, len, "ready\nspin %lld deep %lld\n",
		 (long long)((x ^ 1) + 1), (long long)(y + 1499));
}

struct walk {
	uint64_t cookie;
	int done, status;
	unsigned int n;
	const char *names[32];
	uint8_t types[32];
	unsigned int ndeep;
	const char *last;
	uint64_t walk_time;
};

static void on_walk(void *ctx, uint64_t cookie, int status,
		    const struct java_frame *f, unsigned int n, uint64_t wt)
{
	struct walk *w = ctx;
	unsigned int i;

	if (cookie != w->cookie)
		return;
	w->done = 1;
	w->status = status;
	w->n = n;
	w->walk_time = wt;
	w->ndeep = 0;
	for (i = 0; i < n; i++) {
		if (i < 32) {
			w->names[i] = f[i].name;
			w->types[i] = f[i].type;
		}
		if (java_same_method(f[i].name, "AgentTarget.deep"))
			w->ndeep++;
	}
	w->last = n ? f[n - 1].name : NULL;
}

static int walk_one(struct agent *a, pid_t tid, struct walk *w,
		    uint64_t *latency)
{
	static uint64_t cookie = 1;
	uint64_t t0 = now_ns(), end = t0 + 2000000000ull;

	memset(w, 0, sizeof(*w));
	w->cookie = cookie++;
	if (agent_request(a, tid, t0, w->cookie) || agent_flush(a))
		return -1;
	while (!w->done && now_ns() < end) {
		struct pollfd p = { agent_fd(a), POLLIN, 0 };

		poll(&p, 1, 100);
		if (agent_process(a, on_walk, w))
			return -1;
	}
	if (w->done && latency)
		*latency = w->walk_time > t0 ? w->walk_time - t0 : 0;
	return w->done ? 0 : -1;
}

/* Whether c, b, a, spin appear in this order (innermost first). */
static int has_chain(const struct walk *w)
{
	static const char *want[] = { "AgentTarget.c", "AgentTarget.b",
				      "AgentTarget.a", "AgentTarget.spin" };
	unsigned int i, k;

	for (i = 0; i + 4 <= w->n && i + 4 <= 32; i++) {
		for (k = 0; k < 4; k++)
			if (!w->names[i + k] ||
			    !java_same_method(w->names[i + k], want[k]))
				break;
		if (k == 4)
			return 1;
	}
	return 0;
}

/* Whether the walk reached the target's own code (AgentTarget.*). */
static int in_target(const struct walk *w)
{
	for (unsigned int i = 0; i < w->n && i < 32; i++)
		if (w->names[i] && !strncmp(w->names[i], "AgentTarget.", 12))
			return 1;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Pumps messages for ms (code map, thread names). */
static void pump(struct agent *a, int ms)
{
	uint64_t end = now_ns() + ms * 1000000ull;

	while (now_ns() < end) {
		struct pollfd p = { agent_fd(a), POLLIN, 0 };

		poll(&p, 1, 10);
		if (agent_process(a, NULL, NULL))
			return;
	}
}

static int code_named(struct agent *a, const char *want, int type,
		      uint64_t *start)
{
	const struct codemap *cm = agent_codemap(a);

	for (size_t i = 0; i < cm->n; i++) {
		const struct codemap_entry *e = &cm->e[i];

		if (e->type == type && java_same_method(e->name, want)) {
			const char *n2 = NULL;
			uint64_t mid = e->start + (e->end - e->start) / 2;

			*start = e->start;
			return codemap_type_at(cm, mid, &n2) == type && n2 &&
			       java_same_method(n2, want);
		}
	}
	return 0;
}

/* find_thread, waited for (bounded: 30 s) */
static pid_t wait_thread(pid_t pid, const char *comm)
{
	uint64_t end = now_ns() + 30000000000ull;
	pid_t t;

	while (!(t = find_thread(pid, comm)) && now_ns() < end)
		usleep(20000);
	return t;
}

/* Reads the agent's messages until it named both threads (at most 15 s). */
static void names_arrive(struct agent *a, pid_t t1, pid_t t2)
{
	uint64_t end = now_ns() + 15000000000ull;

	while (now_ns() < end &&
	       !(agent_thread_name(a, t1) && agent_thread_name(a, t2)))
		pump(a, 50);
}

/* Lets the JVM's threads start working and waits (bounded) until the spin
 * code is compiled (after the attach, so with non-safepoint debug info). */
static int go_and_warm(struct agent *a, struct jvm *j, int compiled)
{
	uint64_t end = now_ns() + 15000000000ull, s;

	touch(j->go);
	while (now_ns() < end) {
		pump(a, 50);
		if (!compiled ||
		    code_named(a, "AgentTarget.c", PJ_FRAME_JIT, &s) ||
		    code_named(a, "AgentTarget.a", PJ_FRAME_JIT, &s))
			return 0;
	}
	return -1;
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = { t / 1000000000ull, t % 1000000000ull };

	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

static void test_main_jvm(const char *jdk, const char *tag)
{
	char err[512], want[256];
	struct agent *a = NULL;
	struct jvm j;
	struct walk w;
	uint64_t lat[600], start, t;
	unsigned int nl = 0, chain = 0, ok = 0, i, k, jit = 0, lost = 0;
	unsigned int hist[2][AGENT_WALK_LOST + 1] = { { 0 } };
	pid_t spin, deep;
	unsigned int deep_ok = 0;
	int r, cycles_ok = 0;

	expected_output(want, sizeof(want));
	if (jvm_start(&j, jdk, NULL, NULL)) {
		ok(0, "%s: JVM starts", tag);
		return;
	}
	spin = wait_thread(j.pid, "pj-spin");
	deep = wait_thread(j.pid, "pj-deep");
	r = agent_start(j.pid, agent_so, &a, err, sizeof(err));
	if (!ok(r == 0, "%s: attach to a JVM started without flags", tag))
		printf("# %s\n", err);
	if (r == 0) {
		ok(go_and_warm(a, &j, 1) == 0,
		   "%s: the spin code gets compiled after the attach", tag);
		names_arrive(a, spin, deep);
		ok(agent_thread_name(a, spin) &&
		       !strcmp(agent_thread_name(a, spin), "pj-spin") &&
		       agent_thread_name(a, deep) &&
		       !strcmp(agent_thread_name(a, deep), "pj-deep"),
		   "%s: thread names of threads started before attach arrive",
		   tag);
		/* 1 kHz, alternating between the two threads */
		t = now_ns();
		for (i = 0; i < 600; i++) {
			uint64_t l;

			t += 1000000;
			sleep_until(t);
			/* an answer lost on a loaded machine is not the end;
			 * three in a row are (the agent is gone) */
			if (walk_one(a, i % 3 ? spin : deep, &w, &l)) {
				if (++lost >= 3)
					break;
				continue;
			}
			lost = 0;
			hist[i % 3 ? 0 : 1][w.status]++;
			if (w.status != AGENT_WALK_OK)
				continue;
			lat[nl++] = l;
			if (i % 3) {
				ok++;
				if (has_chain(&w))
					chain++;
				else if (ok - chain <= 3) /* what it was */
					printf(
					    "# %s: a walk without the chain: %u frames, top %s (type %u), %s, %s\n",
					    tag, w.n,
					    w.n && w.names[0] ? w.names[0]
							      : "-",
					    w.n ? (unsigned int)w.types[0] : 0u,
					    w.n > 1 && w.names[1] ? w.names[1]
								  : "-",
					    w.n > 2 && w.names[2] ? w.names[2]
								  : "-");
				jit += w.types[0] == PJ_FRAME_JIT ||
				       w.types[0] == PJ_FRAME_INLINED;
			} else if (w.ndeep >= 1500 && w.n < 2048 && w.last &&
				   strstr(w.last, "run")) {
				deep_ok++;
			}
		}
		ok(ok >= 100 && chain * 10 >= ok * 9,
		   "%s: walks of main -> a -> b -> c name c, b, a, spin in order (%u of %u)",
		   tag, chain, ok);
		ok(jit * 2 >= ok,
		   "%s: spinning code is typed JIT/inlined (%u of %u)", tag,
		   jit, ok);
		/* of the deep walks answered (a loaded machine times many
		 * out: 16 of 200 at load 100), nine in ten whole */
		ok(deep_ok >= 10 && deep_ok * 10 >= hist[1][0] * 9,
		   "%s: 1500-deep recursion is walked whole (%d of %u walks)",
		   tag, deep_ok, hist[1][0]);
		for (k = 0; k < 2; k++)
			printf(
			    "# %s: %s walks: ok %u, not java %u, not walkable %u, timeout %u, fault %u, gone %u, lost %u\n",
			    tag, k ? "deep" : "spin", hist[k][0], hist[k][1],
			    hist[k][2], hist[k][3], hist[k][4], hist[k][5],
			    hist[k][6]);
		{
			struct agent_stats as;

			agent_get_stats(a, &as);
			if (as.timed)
				printf(
				    "# %s: mean request -> agent %.1f us, agent -> walk %.1f us\n",
				    tag, as.to_agent_ns / 1e3 / as.timed,
				    as.to_walk_ns / 1e3 / as.timed);
		}
		qsort(lat, nl, sizeof(lat[0]), cmp_u64);
		if (nl)
			printf(
			    "# %s: walk latency at 1 kHz: median %.1f us, p99 %.1f us, max %.1f us (%u walks)\n",
			    tag, lat[nl / 2] / 1e3, lat[nl * 99 / 100] / 1e3,
			    lat[nl - 1] / 1e3, nl);
		/*
		 * The latency goal (median <= 200 us, p99 <= 2 ms at 1 kHz) is
		 * make bench's to measure, not a timed assertion here: what a
		 * test can hold is that every walk was timed, after its request.
		 */
		ok(nl >= 100 && lat[0] > 0,
		   "%s: every answered walk is timed after its request (%u walks, min %.1f us)",
		   tag, nl, nl ? lat[0] / 1e3 : 0.0);
		ok(code_named(a, "Interpreter", PJ_FRAME_VM, &start),
		   "%s: the code map has the interpreter", tag);
		r = code_named(a, "AgentTarget.c", PJ_FRAME_JIT, &start) ||
		    code_named(a, "AgentTarget.a", PJ_FRAME_JIT, &start) ||
		    code_named(a, "AgentTarget.spin", PJ_FRAME_JIT, &start);
		ok(r, "%s: the code map has the compiled spin code", tag);
		agent_stop(a);
	}
	/* ten attaches in a row */
	for (i = 0; i < 10; i++) {
		/* a busy machine times walks out (5 ms): tries, for at
		 * most 30 s */
		uint64_t end = now_ns() + 30000000000ull;
		int walked = 0;

		if (agent_start(j.pid, agent_so, &a, err, sizeof(err))) {
			printf("# attach %u: %s\n", i, err);
			continue;
		}
		for (k = 0; !walked && now_ns() < end; k++) {
			/*
			 * Each attach must walk the target: the exact chain of
			 * inlined frames is asserted above. (On JDK 25 a session
			 * now and then names only the outer compiled method.)
			 */
			walked = !walk_one(a, spin, &w, NULL) &&
				 w.status == AGENT_WALK_OK && in_target(&w);
			if (!walked && k < 5)
				printf(
				    "# attach %u: walk status %d, %u frames, top %s\n",
				    i, w.status, w.n, w.n ? w.names[0] : "-");
		}
		cycles_ok += walked;
		agent_stop(a);
	}
	ok(cycles_ok == 10, "%s: ten attaches in a row each walk (%d)", tag,
	   cycles_ok);
	/* a client killed with SIGKILL mid-walks */
	{
		int p[2], killed = 0;
		pid_t c;
		char b;

		if (pipe(p))
			return;
		c = fork();
		if (c == 0) {
			close(p[0]);
			if (agent_start(j.pid, agent_so, &a, err, sizeof(err)))
				_exit(1);
			for (i = 0;; i++) {
				walk_one(a, i & 1 ? spin : deep, &w, NULL);
				if (i == 50 && write(p[1], "x", 1) != 1)
					_exit(1);
			}
		}
		close(p[1]);
		if (read(p[0], &b, 1) == 1) {
			kill(c, SIGKILL);
			killed = 1;
		}
		waitpid(c, NULL, 0);
		close(p[0]);
		r = killed &&
		    !agent_start(j.pid, agent_so, &a, err, sizeof(err));
		if (r) {
			/* a busy machine times walks out (5 ms): tries, for
			 * at most 30 s */
			uint64_t end = now_ns() + 30000000000ull;

			for (r = 0; !r && now_ns() < end;)
				r = !walk_one(a, spin, &w, NULL) &&
				    w.status == AGENT_WALK_OK && in_target(&w);
			agent_stop(a);
		}
		if (!ok(r,
			"%s: after a client is killed mid-walk a new attach walks",
			tag))
			printf("# killed %d, attach: %s, last walk status %d\n",
			       killed, a ? "ok" : err, w.status);
	}
	r = jvm_finish(&j);
	if (!ok(r == 0 && !strcmp(j.buf, want),
		"%s: the JVM finishes with unchanged output", tag))
		printf("# exit %d, output:\n# %s", r, j.buf);
}

static void test_xint(const char *jdk, const char *tag)
{
	char err[512];
	struct agent *a;
	struct jvm j;
	struct walk w;
	unsigned int i, interp = 0, n = 0;

	if (jvm_start(&j, jdk, "-Xint", NULL)) {
		ok(0, "%s -Xint: JVM starts", tag);
		return;
	}
	if (!agent_start(j.pid, agent_so, &a, err, sizeof(err))) {
		pid_t spin = wait_thread(j.pid, "pj-spin");

		touch(j.go);
		for (i = 0; i < 500 && n < 50; i++) {
			if (walk_one(a, spin, &w, NULL) ||
			    w.status != AGENT_WALK_OK || !has_chain(&w))
				continue;
			n++;
			interp += w.types[0] == PJ_FRAME_INTERPRETED &&
				  w.types[1] == PJ_FRAME_INTERPRETED;
		}
		agent_stop(a);
	} else {
		printf("# %s\n", err);
	}
	ok(n == 50 && interp == n,
	   "%s -Xint: frames are named and interpreted (%u of %u)", tag, interp,
	   n);
	jvm_finish(&j);
}

static void test_fault(const char *jdk, const char *tag)
{
	char err[512], want[256];
	struct agent *a;
	struct jvm j;
	struct walk w;
	unsigned int faults = 0, good = 0, done = 0, okw = 0, late = 0;
	uint64_t end;
	int r;

	expected_output(want, sizeof(want));
	if (jvm_start(&j, jdk, NULL, "PERFJAVA_AGENT_TESTFAULT=3")) {
		ok(0, "%s fault: JVM starts", tag);
		return;
	}
	if (!agent_start(j.pid, agent_so, &a, err, sizeof(err))) {
		pid_t spin = wait_thread(j.pid, "pj-spin");

		go_and_warm(a, &j, 1);
		/* 60 walks that ran, in 60 s at most: on a loaded machine
		 * the thread does not answer in the agent's 5 ms at times
		 * (beside another make check, 60 in a row), and such a walk
		 * says nothing of faults */
		end = now_ns() + 60000000000ull;
		while (done < 60 && now_ns() < end) {
			if (walk_one(a, spin, &w, NULL))
				continue;
			if (w.status == AGENT_WALK_TIMEOUT) {
				late++;
				usleep(10000);
				continue;
			}
			done++;
			faults += w.status == AGENT_WALK_FAULT;
			/* between faults, walks still reach the target's code */
			okw += w.status == AGENT_WALK_OK;
			good += w.status == AGENT_WALK_OK && in_target(&w);
			if (w.status != AGENT_WALK_FAULT && !in_target(&w))
				printf("# walk status %d, %u frames, top %s\n",
				       w.status, w.n, w.n ? w.names[0] : "-");
		}
		agent_stop(a);
	} else {
		printf("# %s\n", err);
	}
	r = jvm_finish(&j);
	/* every third walk the handler takes faults: a quarter at least of
	 * those that came back walked or faulted (not the timed-out ones) */
	ok(done >= 45 && faults * 4 >= faults + okw && okw >= 20 &&
	       good * 10 >= okw * 9 && r == 0 && !strcmp(j.buf, want),
	   "%s: faults injected into walks are survived (%u faults, %u of %u good walks in the target, %u walks, %u more timed out, exit %d)",
	   tag, faults, good, okw, done, late, r);
}

static void test_disabled(const char *jdk, const char *tag)
{
	char err[512] = "";
	struct agent *a = NULL;
	struct jvm j;
	int r;

	if (jvm_start(&j, jdk, "-XX:+DisableAttachMechanism", NULL)) {
		ok(0, "%s: JVM with attach disabled starts", tag);
		return;
	}
	r = agent_start(j.pid, agent_so, &a, err, sizeof(err));
	ok(r && strstr(err, "DisableAttachMechanism") && !strchr(err, '\n'),
	   "%s: attach disabled gives one clear line", tag);
	printf("# %s\n", err);
	jvm_finish(&j);
	ok(!strstr(j.buf, "Full thread dump"),
	   "%s: the JVM with attach disabled is left alone", tag);
}

int main(void)
{
	const char *build = getenv("PJ_BUILD"), *top = getenv("PJ_TOP");
	const char *jdks[2] = { JDK17, JDK25 }, *tags[2] = { "jdk17", "jdk25" };
	char cmd[1024], err[512];
	struct agent *a;
	struct stat st;
	int k, r;

	setvbuf(stdout, NULL, _IOLBF, 0);
	snprintf(agent_so, sizeof(agent_so), "%s/libperfjava-agent.so",
		 build ? build : "build");
	if (stat(agent_so, &st) || stat(JDK17 "/bin/javac", &st)) {
		skip("agent tests", "no agent library or no JDK 17 here");
		return tap_done();
	}
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/pj-agent-test.XXXXXX");
	if (!mkdtemp(tmpdir))
		return 1;
	snprintf(classdir, sizeof(classdir), "%s/classes", tmpdir);
	snprintf(
	    cmd, sizeof(cmd),
	    JDK17
	    "/bin/javac --release 17 -d %s %s/selftests/java/AgentTarget.java",
	    classdir, top ? top : ".");
	if (!ok(system(cmd) == 0, "javac AgentTarget.java"))
		return tap_done();

	r = agent_start(getpid(), agent_so, &a, err, sizeof(err));
	ok(r && strstr(err, "not a Java VM"),
	   "a pid that is not a JVM gives a clear error");
	printf("# %s\n", err);

	for (k = 0; k < 2; k++) {
		if (stat(jdks[k], &st)) {
			skip(tags[k], "JDK not installed");
			continue;
		}
		test_main_jvm(jdks[k], tags[k]);
		test_xint(jdks[k], tags[k]);
		test_fault(jdks[k], tags[k]);
		test_disabled(jdks[k], tags[k]);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd)) {
		/* leftovers in /tmp only */
	}
	return tap_done();
}

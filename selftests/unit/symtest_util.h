/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the symbolization tests: a temporary directory, shell commands
 * (gcc, nm, objcopy), the truth about a binary's symbols from nm, and a
 * target process driven through pipes.
 */
#ifndef PJ_SELFTEST_SYMTEST_UTIL_H
#define PJ_SELFTEST_SYMTEST_UTIL_H

#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char st_tmp[256];

static inline void st_cleanup(void)
{
	char cmd[300];

	if (st_tmp[0] && !getenv("PJ_KEEP_TMP")) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", st_tmp);
		if (system(cmd))
			fprintf(stderr, "cannot remove %s\n", st_tmp);
	}
}

/* Makes the temporary directory (removed at exit); NULL on failure. */
static inline const char *st_tmpdir(void)
{
	snprintf(st_tmp, sizeof(st_tmp), "/tmp/pj-symtest.XXXXXX");
	if (!mkdtemp(st_tmp))
		return NULL;
	atexit(st_cleanup);
	return st_tmp;
}

/* The repository's top directory (tests run from there). */
static inline const char *st_top(void)
{
	static char top[4096];
	const char *t = getenv("PJ_TOP");

	if (!realpath(t && *t ? t : ".", top))
		snprintf(top, sizeof(top), ".");
	return top;
}

/* The temporary directory in *tmp and the test target's source
 * (selftests/progs/symtest_target.c) in src; -1 when either is missing. */
static inline int st_setup(const char **tmp, char *src, size_t len)
{
	*tmp = st_tmpdir();
	snprintf(src, len, "%s/selftests/progs/symtest_target.c", st_top());
	return !*tmp || access(src, R_OK) ? -1 : 0;
}

/* Runs a shell command; 0 when it exited 0. Output goes to stderr. */
__attribute__((format(printf, 1, 2))) static inline int st_sh(const char *fmt,
							      ...)
{
	char cmd[8192];
	va_list ap;
	int r;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	r = system(cmd);
	if (r)
		fprintf(stderr, "# command failed (%d): %s\n", r, cmd);
	return r;
}

struct st_sym {
	char name[512];
	uint64_t addr, size;
	char type;
};

/*
 * The function symbols of a file as nm sees them (demangled with nm -C when
 * demangle is set). Returns the count, -1 on failure.
 */
static inline int st_nm(const char *file, int demangle, struct st_sym *out,
			int max)
{
	char cmd[4200], line[1024];
	FILE *p;
	int n = 0;

	snprintf(cmd, sizeof(cmd), "nm -S --defined-only %s '%s'",
		 demangle ? "-C" : "", file);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p) && n < max) {
		unsigned long long a, s = 0;
		char t, name[512];
		int k;

		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%llx %llx %c %n", &a, &s, &t, &k) != 3) {
			s = 0;
			if (sscanf(line, "%llx %c %n", &a, &t, &k) != 2)
				continue;
		}
		if (t != 'T' && t != 't' && t != 'W' && t != 'i')
			continue;
		snprintf(name, sizeof(name), "%s", line + k);
		out[n].addr = a;
		out[n].size = s;
		out[n].type = t;
		snprintf(out[n].name, sizeof(out[n].name), "%s", name);
		n++;
	}
	if (pclose(p))
		return -1;
	return n;
}

static inline const struct st_sym *st_find(const struct st_sym *v, int n,
					   const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	return NULL;
}

/* A target process with its stdin and stdout on pipes. */
struct st_proc {
	pid_t pid;
	FILE *in, *out; /* we write in, read out */
};

static inline int st_spawn(struct st_proc *p, char *const argv[])
{
	int to[2], from[2];

	if (pipe(to) || pipe(from))
		return -1;
	p->pid = fork();
	if (p->pid < 0)
		return -1;
	if (!p->pid) {
		dup2(to[0], 0);
		dup2(from[1], 1);
		close(to[1]);
		close(from[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	p->in = fdopen(to[1], "w");
	p->out = fdopen(from[0], "r");
	return p->in && p->out ? 0 : -1;
}

/*
 * Reads lines until "ready"; calls fn for every other line. A bound on the
 * wait: the alarm kills the test if the target never answers (10 minutes:
 * a JVM took over 60 s to start at load 200; run.sh's bound is 15).
 */
static inline int st_read_until_ready(struct st_proc *p,
				      void (*fn)(const char *line, void *arg),
				      void *arg)
{
	char line[4096];

	alarm(600);
	while (fgets(line, sizeof(line), p->out)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strcmp(line, "ready")) {
			alarm(0);
			return 0;
		}
		if (fn)
			fn(line, arg);
	}
	alarm(0);
	return -1;
}

static inline void st_stop(struct st_proc *p)
{
	int status;

	if (p->in)
		fclose(p->in);
	if (p->pid > 0) {
		kill(p->pid, SIGKILL);
		waitpid(p->pid, &status, 0);
	}
	if (p->out)
		fclose(p->out);
	memset(p, 0, sizeof(*p));
}

#endif

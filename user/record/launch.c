// SPDX-License-Identifier: GPL-2.0
/*
 * Launching the command to profile. The child is forked and waits on a pipe
 * while the recorder opens its events with enable_on_exec: counting starts
 * at the exec, the command's first instruction. A second pipe, close-on-exec
 * in the child, tells the recorder that the exec happened (EOF) or why it
 * failed (errno). A JVM started directly gets -agentpath as its first option:
 * the agent is in from the start (exact inlining from the first compilation,
 * no JDK 21+ dynamic-agent warning) and connects to a socket in a private
 * directory at VMInit; the recorder takes the connection in its poll loop.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perfjava/agent_proto.h"
#include "lib/clock.h"
#include "record/family.h"
#include "record/launch.h"
#include "record/recorder.h"

struct launch {
	pid_t pid;
	int go_fd; /* write end: one byte lets the child exec */
	int status_fd; /* read end: EOF once the exec succeeded, else errno */
	int lfd; /* the agent's socket, -1 without a JVM */
	char dir[32]; /* private directory of the socket */
	char sock[64];
	unsigned int signals; /* stop signals received */
	char **argv; /* the command line the child runs */
	bool own_argv; /* argv is ours (a JVM's, with -agentpath) */
};

/* Whether file (a command name, searched in PATH when it has no '/') is
 * named java. */
static bool is_java(const char *file)
{
	const char *base = strrchr(file, '/');

	return !strcmp(base ? base + 1 : file, "java");
}

/* A private directory with the agent's socket in it; -1 on failure. */
static int agent_socket(struct launch *l)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	snprintf(l->dir, sizeof(l->dir), "/tmp/perfjava-XXXXXX");
	if (!mkdtemp(l->dir)) {
		l->dir[0] = 0;
		return -1;
	}
	snprintf(l->sock, sizeof(l->sock), "%s/agent.sock", l->dir);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", l->sock);
	l->lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l->lfd < 0 || bind(l->lfd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(l->lfd, 1))
		return -1;
	return 0;
}

static void remove_socket(struct launch *l)
{
	if (l->lfd >= 0)
		close(l->lfd);
	l->lfd = -1;
	if (l->sock[0])
		unlink(l->sock);
	if (l->dir[0])
		rmdir(l->dir);
	l->sock[0] = l->dir[0] = 0;
}

/* argv with -agentpath:LIB=sock=...,depth=N after argv[0]. */
static char **java_argv(struct launch *l, const char *lib, char **argv,
			int argc)
{
	char **v = calloc((size_t)argc + 2, sizeof(*v));
	char *opt;

	if (!v || asprintf(&opt, "-agentpath:%s=sock=%s,depth=%d", lib, l->sock,
			   PJA_DEFAULT_DEPTH) < 0) {
		free(v);
		return NULL;
	}
	v[0] = argv[0];
	v[1] = opt;
	for (int i = 1; i < argc; i++)
		v[i + 1] = argv[i];
	return v;
}

static void setup_java(struct record_opts *o, bool *java, struct launch *l)
{
	const char *lib = o->agent_path ? o->agent_path : agent_default_path();
	char real[PATH_MAX];

	if (o->no_java || !is_java(o->argv[0]))
		return;
	if (!realpath(lib, real) || access(real, R_OK)) {
		fprintf(stderr,
			"perfjava: java frames unavailable: no agent library "
			"at %s (build it with make); recording native frames "
			"only\n",
			lib);
		return;
	}
	if (agent_socket(l) ||
	    !(l->argv = java_argv(l, real, o->argv, o->argc))) {
		fprintf(stderr,
			"perfjava: java frames unavailable: cannot create the "
			"agent's socket in /tmp: %s; recording native frames "
			"only\n",
			strerror(errno));
		remove_socket(l);
		return;
	}
	*java = true;
}

static void free_launch(struct launch *l)
{
	remove_socket(l);
	if (l->own_argv) {
		free(l->argv[1]);
		free(l->argv);
	}
	free(l);
}

/* The child: wait for the go byte, then exec (or report errno). */
static void child(struct launch *l, int go_rd, int status_wr)
{
	char **argv = l->argv;
	sigset_t none;
	char c;
	int e;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	if (read(go_rd, &c, 1) != 1)
		_exit(127); /* the recorder went away */
	close(go_rd);
	execvp(argv[0], argv);
	e = errno;
	if (write(status_wr, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int launch_fork(struct record_opts *o, bool *java, struct launch **out)
{
	struct launch *l = calloc(1, sizeof(*l));
	int go[2] = { -1, -1 }, st[2] = { -1, -1 };

	*out = NULL;
	if (!l) {
		fprintf(stderr, "perfjava: out of memory\n");
		return -1;
	}
	l->lfd = -1;
	l->go_fd = l->status_fd = -1;
	setup_java(o, java, l);
	l->own_argv = l->argv != NULL;
	if (!l->argv)
		l->argv = o->argv;
	if (pipe2(go, O_CLOEXEC) || pipe2(st, O_CLOEXEC)) {
		fprintf(stderr, "perfjava: cannot start %s: %s\n", o->argv[0],
			strerror(errno));
		goto fail;
	}
	fflush(NULL);
	l->pid = fork();
	if (l->pid < 0) {
		fprintf(stderr, "perfjava: cannot start %s: %s\n", o->argv[0],
			strerror(errno));
		goto fail;
	}
	if (!l->pid) {
		close(go[1]);
		close(st[0]);
		if (l->lfd >= 0)
			close(l->lfd);
		child(l, go[0], st[1]);
	}
	close(go[0]);
	close(st[1]);
	l->go_fd = go[1];
	l->status_fd = st[0];
	o->pid = l->pid;
	*out = l;
	return 0;
fail:
	for (int i = 0; i < 2; i++) {
		if (go[i] >= 0)
			close(go[i]);
		if (st[i] >= 0)
			close(st[i]);
	}
	free_launch(l);
	return -1;
}

int launch_exec(struct recorder *rec)
{
	struct launch *l = rec->launch;
	int e = 0;
	ssize_t n;

	if (write(l->go_fd, "g", 1) != 1) {
		fprintf(stderr, "perfjava: cannot start %s: %s\n",
			rec->o.argv[0], strerror(errno));
		return -1;
	}
	close(l->go_fd);
	l->go_fd = -1;
	do
		n = read(l->status_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(l->status_fd);
	l->status_fd = -1;
	if (n == 0)
		return 0;
	fprintf(stderr, "perfjava: cannot run %s: %s\n", rec->o.argv[0],
		n == sizeof(e) ? strerror(e) : "it did not start");
	return -1;
}

int launch_agent_fd(const struct launch *l)
{
	return l ? l->lfd : -1;
}

void launch_agent_ready(struct recorder *rec)
{
	struct launch *l = rec->launch;
	struct proc *p = recorder_first(rec);
	struct agent *a;
	char err[512];

	if (!p || p->agent) {
		/* taken already */
	} else if (!agent_accept(l->pid, l->lfd, 1000, &a, err, sizeof(err))) {
		recorder_set_agent(rec, p, a);
		self_find(&p->self, p->pid, now_ns());
	} else {
		rproc(p)->java_failed = true;
		fprintf(stderr,
			"perfjava: java frames unavailable: %s; recording "
			"native frames only\n",
			err);
		pj_writer_meta(rec->w, "java_error", err);
	}
	remove_socket(l); /* one JVM, one connection */
	/* walks at the sample, once the agent confirms */
	if (p)
		ksig_setup(&p->ks, p->agent);
	/* its threads, carried by the rings opened before its exec, get
	 * their own, which signal them (record/family.h) */
	if (p && p->agent)
		family_promote(rec, p);
	rec->th.changed = true;
}

bool launch_signal(struct recorder *rec, const struct signalfd_siginfo *si)
{
	struct launch *l = rec->launch;

	if (l->signals++)
		return false;
	/* A terminal's signal (SI_KERNEL) reached the command already. */
	if (si->ssi_code == SI_USER || si->ssi_code == SI_QUEUE)
		kill(l->pid, (int)si->ssi_signo);
	return true;
}

int launch_wait(struct recorder *rec)
{
	struct launch *l = rec->launch;
	int status = 0;
	pid_t r;

	if (!l)
		return 0;
	remove_socket(l);
	do
		r = waitpid(l->pid, &status, 0);
	while (r < 0 && errno == EINTR);
	free_launch(l);
	rec->launch = NULL;
	if (r < 0)
		return 1;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

void launch_abort(struct recorder *rec)
{
	struct launch *l = rec->launch;

	if (!l)
		return;
	if (l->pid > 0)
		kill(l->pid, SIGKILL);
	if (l->go_fd >= 0)
		close(l->go_fd);
	if (l->status_fd >= 0)
		close(l->status_fd);
	l->go_fd = l->status_fd = -1;
	launch_wait(rec);
}

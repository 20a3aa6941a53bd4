// SPDX-License-Identifier: GPL-2.0
/* An attach beside the reader; see jvm/attacher.h. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jvm/attacher.h"
#include "jvm/client.h"
#include "perfjava/agent_proto.h"

/* What the child hands back (one SOCK_SEQPACKET message), the agent's
 * socket beside it when rc is 0. */
struct attach_result {
	int rc;
	struct pja_hello hello;
	char err[512];
};

/* In the child: the result, with fd when there is one. */
static void send_result(int sock, const struct attach_result *r, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { (void *)r, sizeof(*r) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (fd >= 0) {
		struct cmsghdr *c;

		mh.msg_control = cbuf;
		mh.msg_controllen = sizeof(cbuf);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	if (sendmsg(sock, &mh, MSG_NOSIGNAL) < 0) {
		/* the reader gave up on us: nothing to say it with */
	}
}

static void child_attach(int sock, pid_t parent, pid_t pid, const char *path)
{
	struct attach_result r;
	int fd = -1;

	memset(&r, 0, sizeof(r));
	/* never outlive the reader; it may have died before the prctl */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(1);
	/* not the reader's priority (it drains the rings): an attach waits */
	if (setpriority(PRIO_PROCESS, 0, 0)) {
		/* as it is, then */
	}
	r.rc = agent_connect(pid, path, &fd, &r.hello, r.err, sizeof(r.err));
	if (r.rc && fd >= 0) {
		close(fd);
		fd = -1;
	}
	send_result(sock, &r, r.rc ? -1 : fd);
	_exit(0); /* nothing of the reader's (stdio, atexit) is ours */
}

int attacher_start(struct attacher *at, pid_t pid, const char *agent_path,
		   uint64_t deadline_ns, char *err, size_t errlen)
{
	pid_t parent = getpid();
	int sv[2];

	at->pid = pid;
	at->child = 0;
	at->fd = -1;
	at->deadline = deadline_ns;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) {
		snprintf(err, errlen, "cannot attach to JVM %d: socketpair: %s",
			 pid, strerror(errno));
		return -1;
	}
	at->child = fork();
	if (at->child < 0) {
		snprintf(err, errlen, "cannot attach to JVM %d: fork: %s", pid,
			 strerror(errno));
		at->child = 0;
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	if (!at->child) {
		close(sv[0]);
		child_attach(sv[1], parent, pid, agent_path);
	}
	close(sv[1]);
	at->fd = sv[0];
	return 0;
}

/* The result and the fd passed with it (-1 for none); -1 for no result. */
static int recv_result(int sock, struct attach_result *r, int *fd)
{
	char cbuf[CMSG_SPACE(4 * sizeof(int))];
	struct iovec iov = { r, sizeof(*r) };
	struct msghdr mh = { .msg_iov = &iov,
			     .msg_iovlen = 1,
			     .msg_control = cbuf,
			     .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c;
	ssize_t n;

	*fd = -1;
	do
		n = recvmsg(sock, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	/* (every fd that came is taken, so none is left open) */
	for (c = n >= 0 ? CMSG_FIRSTHDR(&mh) : NULL; c;
	     c = CMSG_NXTHDR(&mh, c)) {
		unsigned int k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		for (unsigned int i = 0; i < k; i++) {
			int f;

			memcpy(&f, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
			if (*fd < 0)
				*fd = f;
			else
				close(f);
		}
	}
	if (n != (ssize_t)sizeof(*r) || (mh.msg_flags & MSG_CTRUNC) ||
	    (!r->rc && *fd < 0)) {
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
		return -1;
	}
	r->err[sizeof(r->err) - 1] = 0;
	return 0;
}

int attacher_take(struct attacher *at, struct agent **out, char *err,
		  size_t errlen)
{
	struct attach_result r;
	int fd, rc;

	*out = NULL;
	memset(&r, 0, sizeof(r));
	if (recv_result(at->fd, &r, &fd)) {
		snprintf(err, errlen,
			 "the attach of JVM %d ended without a result (its "
			 "process died)",
			 at->pid);
		rc = -1;
	} else if (r.rc) {
		snprintf(err, errlen, "%s", r.err);
		rc = r.rc == ATTACH_NOT_YET ? ATTACH_NOT_YET : -1;
	} else {
		rc = agent_adopt(at->pid, fd, &r.hello, out, err, errlen);
	}
	/* it has said all it had to: its end is near, or now */
	attacher_cancel(at);
	return rc;
}

void attacher_cancel(struct attacher *at)
{
	if (at->fd >= 0)
		close(at->fd);
	at->fd = -1;
	if (at->child > 0)
		kill(at->child, SIGKILL);
	attacher_reaped(at);
}

int attacher_reaped(struct attacher *at)
{
	if (at->child > 0 && waitpid(at->child, NULL, WNOHANG) != 0)
		at->child = 0; /* (or not ours to wait for: gone too) */
	return at->child <= 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The reader's side of the agent (jvm/client.h): a listening socket inside the
 * target's mount namespace (mode 0600, owned by the target, peer checked with
 * SO_PEERCRED), the HotSpot attach (jvm/attach.c), then the wire protocol of
 * include/perfjava/agent_proto.h: walk requests out; method definitions, walk
 * results, the JIT code map (a jvm/codemap.h table) and thread names in.
 * Thread ids are the reader's; they are mapped to the target's namespace
 * on the connection (jvm/conn.c).
 *
 * Strings handed out (frame names, code names, thread names) are interned and
 * stay valid until agent_stop().
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "jvm/attach.h"
#include "jvm/client.h"
#include "jvm/conn_internal.h"
#include "jvm/messages.h"
#include "jvm/rendezvous.h"
#include "lib/clock.h"
#include "lib/grow.h"
#include "lib/nspid.h"
#include "perfjava/agent_proto.h"
#include "perfjava/profile.h"

#define START_TIMEOUT_MS 5000
/* how long a loaded agent's connection may lag the JVM's answer */
#define ACCEPT_AFTER_LOAD_MS 1000
#define AGENT_MAX_PENDING 65536 /* walks asked and not answered yet */

static void set_err(char *err, size_t len, const char *fmt, const char *a,
		    int pid)
{
	snprintf(err, len, fmt, a, pid);
}

/* 0; -1 when the peer closed or failed, -2 when the deadline passed. */
static int read_exact(int fd, void *buf, size_t len, long long deadline)
{
	size_t off = 0;

	while (off < len) {
		struct pollfd p = { fd, POLLIN, 0 };
		long long left = deadline - now_ms();
		int k = left > 0 ? poll(&p, 1, (int)left) : 0;
		ssize_t n;

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (!k)
			return -2;
		n = read(fd, (char *)buf + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		off += n;
	}
	return 0;
}

/* Reads and forgets len bytes, in bounded steps. */
static int skip_exact(int fd, size_t len, long long deadline)
{
	char buf[256];

	while (len) {
		size_t n = len < sizeof(buf) ? len : sizeof(buf);

		if (read_exact(fd, buf, n, deadline))
			return -1;
		len -= n;
	}
	return 0;
}

/* The agent has another reader: name it (PJA_BUSY follows the HELLO). */
static void busy_error(int fd, pid_t pid, long long deadline, char *err,
		       size_t errlen)
{
	struct pja_hdr h;
	struct pja_busy b = { 0 };

	if (read_exact(fd, &h, sizeof(h), deadline) || h.type != PJA_BUSY ||
	    h.len < sizeof(b) || read_exact(fd, &b, sizeof(b), deadline))
		b.reader_pid = 0;
	if (b.reader_pid)
		snprintf(
		    err, errlen,
		    "JVM %d is being recorded by another perfjava (pid %u%s), which keeps its agent; stop that one for Java frames here",
		    pid, b.reader_pid,
		    nspid_same_ns(pid) ? "" : " in the JVM's pid namespace");
	else
		snprintf(
		    err, errlen,
		    "JVM %d is being recorded by another perfjava, which keeps its agent; stop that one for Java frames here",
		    pid);
}

/* The connection of the agent in JVM pid on lfd (within accept_ms) and its
 * HELLO (within timeout_ms), checked: the fd, or -1 with err;
 * ATTACH_NOT_YET (err too) when nothing connected in time. */
static int accept_hello(pid_t pid, int lfd, int accept_ms, int timeout_ms,
			struct pja_hello *hello, char *err, size_t errlen)
{
	struct ucred cred;
	socklen_t cl = sizeof(cred);
	struct pja_hdr h;
	struct pollfd p = { lfd, POLLIN, 0 };
	long long deadline = now_ms() + timeout_ms;
	long long until = now_ms() + accept_ms;
	int fd = -1, r, other = 0;

	/* only the JVM itself is the agent: another peer (the target's user,
	 * or whoever can reach the socket) is dropped and the wait goes on */
	for (;;) {
		long long left = until - now_ms();

		if (left <= 0 || poll(&p, 1, left) <= 0 ||
		    (fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC)) < 0) {
			if (other) {
				snprintf(
				    err, errlen,
				    "the agent loaded into JVM %d but did not connect back (pid %d did; refused)",
				    pid, other);
				goto fail;
			}
			snprintf(
			    err, errlen,
			    "the agent loaded into JVM %d but did not connect back",
			    pid);
			/* as a JVM still starting: tried again while the
			 * attach's window lasts (record/agents.c) */
			return ATTACH_NOT_YET;
		}
		if (!getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl) &&
		    cred.pid == pid)
			break;
		other = cred.pid;
		close(fd);
		fd = -1;
	}
	r = read_exact(fd, &h, sizeof(h), deadline);
	if (!r)
		r = read_exact(fd, hello, sizeof(*hello), deadline);
	if (r) { /* a slow or silent agent is not one of another version */
		snprintf(err, errlen,
			 r == -2 ? "the agent in JVM %d did not send its "
				   "HELLO within %d s"
				 : "the agent in JVM %d closed the connection "
				   "before its HELLO (%d s allowed)",
			 pid, timeout_ms / 1000);
		goto fail;
	}
	if ((r = agent_check_hello(&h, hello)) == -1) {
		snprintf(
		    err, errlen,
		    "the agent in JVM %d speaks another protocol version; rebuild perfjava and restart the JVM",
		    pid);
		goto fail;
	}
	if (r) {
		snprintf(
		    err, errlen,
		    "the agent in JVM %d asks for %u frames per walk (at most %u); refusing it",
		    pid, hello->depth, (unsigned int)PJA_MAX_DEPTH);
		goto fail;
	}
	if (skip_exact(fd, h.len - sizeof(*hello), deadline)) {
		snprintf(err, errlen,
			 "the agent in JVM %d did not finish its HELLO", pid);
		goto fail;
	}
	if (hello->flags & PJA_HELLO_BUSY) {
		busy_error(fd, pid, deadline, err, errlen);
		goto fail;
	}
	return fd;
fail:
	if (fd >= 0)
		close(fd);
	return -1;
}

int agent_adopt(pid_t pid, int fd, const struct pja_hello *hello,
		struct agent **out, char *err, size_t errlen)
{
	struct agent *a;

	*out = NULL;
	a = agent_alloc(pid, hello);
	if (!a) {
		if (errno == EDQUOT)
			snprintf(
			    err, errlen,
			    "the agents of JVM %d's user hold their share of the reader's memory (%zu MiB of %zu for all agents); no room for another",
			    pid, AGENTS_UID_BYTES >> 20,
			    AGENTS_MAX_BYTES >> 20);
		else
			snprintf(err, errlen, "out of memory");
		close(fd);
		return -1;
	}
	a->fd = fd;
	a->same_ns = nspid_same_ns(pid);
	/* the agent libraries the JVM maps: ours by any of its names */
	a->copies = rdv_agent_copies(pid, "libperfjava-agent.so");
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	*out = a;
	return 0;
}

int agent_accept(pid_t pid, int lfd, int timeout_ms, struct agent **out,
		 char *err, size_t errlen)
{
	struct pja_hello hello;
	int fd =
	    accept_hello(pid, lfd, timeout_ms, timeout_ms, &hello, err, errlen);

	*out = NULL;
	return fd < 0 ? -1 : agent_adopt(pid, fd, &hello, out, err, errlen);
}

static int offer_ring;

void agent_offer_rings(int on)
{
	offer_ring = on;
}

/* make bench's split of the walk's cost: PERFJAVA_AGENT_BENCH=signal,
 * walk or alt becomes the agent's bench= option (agent/agent.c), and so does
 * PERFJAVA_BENCH=alt-all; nothing else is passed on. */
static const char *bench_opt(void)
{
	const char *v = getenv("PERFJAVA_AGENT_BENCH");

	if (v && !strcmp(v, "signal"))
		return ",bench=signal";
	if (v && !strcmp(v, "walk"))
		return ",bench=walk";
	if (v && !strcmp(v, "alt"))
		return ",bench=alt";
	/* the recorder's own (record.c): the agent's wake-ups alternate too */
	v = getenv("PERFJAVA_BENCH");
	if (v && !strcmp(v, "alt-all"))
		return ",bench=alt-all";
	return "";
}

int agent_connect(pid_t pid, const char *agent_path, int *fd,
		  struct pja_hello *hello, char *err, size_t errlen)
{
	char name[64], tpath[80], lib[PATH_MAX], opts[256];
	struct tfs t;
	int lfd, r;

	*fd = -1;
	if ((r = attach_check(pid, err, errlen)))
		return r;
	if (access(agent_path, R_OK)) {
		set_err(
		    err, errlen,
		    "cannot find the agent library %s (build it with make) for JVM %d",
		    agent_path, pid);
		return -1;
	}
	if (tfs_open(&t, pid)) {
		snprintf(err, errlen, "cannot open /proc/%d/root/tmp: %s", pid,
			 strerror(errno));
		return -1;
	}
	if (rdv_agent_lib(&t, agent_path, lib, sizeof(lib))) {
		snprintf(
		    err, errlen,
		    "cannot copy the agent library into /proc/%d/root/tmp as uid %u: %s",
		    pid, (unsigned int)t.uid, strerror(errno));
		tfs_close(&t);
		return -1;
	}
	lfd = rdv_listen(&t, name, sizeof(name));
	if (lfd < 0) {
		snprintf(
		    err, errlen,
		    "cannot create the agent socket in /proc/%d/root/tmp as uid %u: %s",
		    pid, (unsigned int)t.uid, strerror(errno));
		tfs_close(&t);
		return -1;
	}
	snprintf(tpath, sizeof(tpath), "/tmp/%s", name);
	snprintf(opts, sizeof(opts), "sock=%s,depth=%d%s%s", tpath,
		 PJA_DEFAULT_DEPTH, offer_ring ? ",ring=1" : "", bench_opt());
	r = attach_load(pid, lib, opts, START_TIMEOUT_MS, err, errlen);
	if (!r) {
		/* Agent_OnAttach connects before it returns, and the JVM
		 * answers after: the connection is there, or will not come */
		*fd = accept_hello(pid, lfd, ACCEPT_AFTER_LOAD_MS,
				   START_TIMEOUT_MS, hello, err, errlen);
		r = *fd == ATTACH_NOT_YET ? ATTACH_NOT_YET : *fd < 0 ? -1 : 0;
		if (*fd < 0)
			*fd = -1;
	}
	close(lfd);
	tfs_unlink(&t, t.tmp, name);
	tfs_close(&t);
	return r;
}

int agent_start(pid_t pid, const char *agent_path, struct agent **out,
		char *err, size_t errlen)
{
	struct pja_hello hello;
	int fd, r = agent_connect(pid, agent_path, &fd, &hello, err, errlen);

	*out = NULL;
	return r ? r : agent_adopt(pid, fd, &hello, out, err, errlen);
}

int agent_fd(const struct agent *a)
{
	return a ? a->fd : -1;
}

int agent_request(struct agent *a, pid_t tid, uint64_t sample_time,
		  uint64_t cookie)
{
	struct pja_walk_req r = { cookie, sample_time, 0, 0 };
	struct pja_hdr h = { PJA_WALK, sizeof(r) };
	pid_t ns = agent_target_tid(a, tid);

	if (a->fd < 0 || ns <= 0)
		return -1;
	/* an agent that stops reading or answering costs a bounded amount:
	 * its own walks, refused at once and counted */
	if (a->pend_n >= AGENT_MAX_PENDING || a->out_len >= AGENT_MAX_UNSENT) {
		a->stats.unsent++;
		return -1;
	}
	r.tid = ns;
	if (agent_grow(a, &a->out, &a->out_cap,
		       a->out_len + sizeof(h) + sizeof(r)))
		return -1;
	if (a->pend_n == a->pend_cap) {
		size_t cap = a->pend_cap ? a->pend_cap * 2 : 256, i;
		uint64_t *p;

		if (agent_charge(a, (cap - a->pend_cap) * sizeof(*p)))
			return -1;
		p = malloc(cap * sizeof(*p));
		if (!p) {
			agent_refund(a, (cap - a->pend_cap) * sizeof(*p));
			return -1;
		}
		for (i = 0; i < a->pend_n; i++)
			p[i] = a->pending[(a->pend_head + i) % a->pend_cap];
		free(a->pending);
		a->pending = p;
		a->pend_cap = cap;
		a->pend_head = 0;
	}
	a->pending[(a->pend_head + a->pend_n++) % a->pend_cap] = cookie;
	/* one WALK message per flush: extend the last header if unsent */
	memcpy(a->out + a->out_len, &h, sizeof(h));
	memcpy(a->out + a->out_len + sizeof(h), &r, sizeof(r));
	a->out_len += sizeof(h) + sizeof(r);
	a->stats.requests++;
	return 0;
}

/* At most this many bytes are read per call, so that an agent that never
 * stops talking cannot hold the recorder here. */
#define PROCESS_READ_MAX (4u << 20)

bool agent_dropped(const struct agent *a)
{
	return a && a->dropped;
}

int agent_process(struct agent *a, agent_walk_cb cb, void *ctx)
{
	size_t total = 0;
	int gone = 0;

	if (!a || a->fd < 0)
		return -1;
	while (!gone && total < PROCESS_READ_MAX) {
		size_t room;
		ssize_t n;
		long used;

		/* the buffer holds one whole message at most, plus a read;
		 * an agent that cannot have it is dropped: left unread, its
		 * socket would stay readable, the reader spin on it and the
		 * agent wait forever */
		if (agent_grow(a, &a->in, &a->in_cap, a->in_len + 65536)) {
			a->dropped = true;
			gone = 1;
			break;
		}
		room = a->in_cap - a->in_len;
		n = read(a->fd, a->in + a->in_len, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n <= 0) {
			gone = 1;
			break;
		}
		a->in_len += n;
		a->stats.bytes_in += n;
		total += n;
		used = agent_consume(a, a->in, a->in_len, cb, ctx);
		if (used < 0) {
			gone = 1;
			break;
		}
		memmove(a->in, a->in + used, a->in_len - used);
		a->in_len -= used;
		/* A short read drained the socket: what comes later raises
		 * POLLIN again, so a read that would only say EAGAIN is saved. */
		if ((size_t)n < room)
			break;
	}
	if (gone) {
		close(a->fd);
		a->fd = -1;
		agent_lose_pending(a, cb, ctx);
		return -1;
	}
	return 0;
}

const char *agent_thread_name(const struct agent *a, pid_t tid)
{
	pid_t ns;

	if (!a)
		return NULL;
	ns = agent_target_tid((struct agent *)a, tid);
	return ns > 0 ? u64map_ptr(&a->threads, (uint64_t)ns) : NULL;
}

bool agent_thread_started(struct agent *a)
{
	bool started = a && a->thread_started;

	if (a)
		a->thread_started = false;
	return started;
}

const struct codemap *agent_codemap(const struct agent *a)
{
	return a ? &a->code : NULL;
}

void agent_get_stats(const struct agent *a, struct agent_stats *st)
{
	*st = a->stats;
	st->code_entries = a->code.n;
	st->methods = a->methods.n;
	st->methods_probe_max = a->methods.probe_max;
}

void agent_stop(struct agent *a)
{
	if (!a)
		return;
	if (a->fd >= 0) {
		struct pja_hdr h = { PJA_STOP, 0 };

		if (write(a->fd, &h, sizeof(h)) < 0) {
			/* the agent is gone already */
		}
		close(a->fd);
	}
	agent_free(a);
}

const char *agent_default_path(void)
{
	static char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 32);
	char *slash;

	if (n <= 0)
		return "libperfjava-agent.so";
	path[n] = 0;
	slash = strrchr(path, '/');
	strcpy(slash ? slash + 1 : path, "libperfjava-agent.so");
	return path;
}

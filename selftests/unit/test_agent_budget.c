// SPDX-License-Identifier: GPL-2.0
/*
 * The agents' memory budget (jvm/conn.c, issue 44): an agent that sends
 * methods without end is held to its uid's share; another agent of that
 * uid finds no room until the first is freed, which gives all of it back;
 * as root, agents of other uids (children that became them) each hold their
 * own share, and together no more than the one budget for all; an agent
 * with no room left to read its socket is dropped, not left unread.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jvm/client.h"
#include "jvm/conn_internal.h"
#include "jvm/messages.h"
#include "perfjava/agent_proto.h"
#include "tap.h"

/* One METHOD message with AGENT_MAX_LINES lines: 512 KiB the reader keeps. */
static char *msg;
static size_t mlen;

static void make_method(uint64_t id)
{
	struct pja_method m = { id, 1, 1, 0, 0, AGENT_MAX_LINES, 0 };
	struct pja_hdr h = { PJA_METHOD,
			     sizeof(m) + 2 +
				 AGENT_MAX_LINES * sizeof(struct pja_line) };

	mlen = sizeof(h) + h.len;
	memcpy(msg, &h, sizeof(h));
	memcpy(msg + sizeof(h), &m, sizeof(m));
	memcpy(msg + sizeof(h) + sizeof(m), "Cm", 2);
}

/* Sends methods to a until n are sent or it drops one; methods kept. */
static unsigned int fill(struct agent *a, unsigned int n, uint64_t base)
{
	for (unsigned int i = 0; i < n; i++) {
		make_method(base + i);
		agent_consume(a, msg, mlen, NULL, NULL);
	}
	return a->methods.n;
}

/* A child that takes uid and waits; its pid, or -1. */
static pid_t as_uid(uid_t uid)
{
	int p[2];
	char c;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (!pid) {
		close(p[0]);
		if (setuid(uid))
			_exit(1);
		if (write(p[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(p[1]);
	if (pid < 0 || read(p[0], &c, 1) != 1) {
		close(p[0]);
		return -1;
	}
	close(p[0]);
	return pid;
}

/* The last crumbs of a's uid's share, in thread names. */
static void spend_rest(struct agent *a)
{
	uint64_t before = a->stats.over_budget;

	for (uint32_t t = 1; t < 65536 && a->stats.over_budget == before; t++) {
		struct {
			struct pja_hdr h;
			struct pja_thread t;
			char name[512];
		} m = { { PJA_THREAD, sizeof(struct pja_thread) + 512 },
			{ t, 512 },
			{ 0 } };

		memset(m.name, 'n', sizeof(m.name));
		agent_consume(a, (const char *)&m, sizeof(m), NULL, NULL);
	}
}

/* Two agents of one uid, both in; the first spends the share before the
 * second's first read: the second, which cannot have its input buffer,
 * is dropped (before, its socket was left readable and unread: the reader
 * spun on it, 630,000 times a second, and the agent waited forever). */
static void dropped_unread(const struct pja_hello *hello)
{
	struct agent *a = agent_alloc(getpid(), hello);
	struct agent *b = agent_alloc(getpid(), hello);
	int sv[2] = { -1, -1 }, r = 0;

	if (a && b && !socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		fill(a,
		     2 * (unsigned int)(AGENTS_UID_BYTES /
					(AGENT_MAX_LINES *
					 sizeof(struct pja_line))),
		     1);
		spend_rest(a);
		b->fd = sv[0];
		sv[0] = -1;
		if (write(sv[1], "x", 1) != 1)
			r = 1;
		r = r ? 1 : agent_process(b, NULL, NULL);
	}
	ok(a && b && r == -1 && agent_dropped(b) && !agent_dropped(a),
	   "two agents of one uid, the share spent by the first before the "
	   "second read: the second is dropped, not left unread (%d)",
	   r);
	if (sv[1] >= 0)
		close(sv[1]);
	if (sv[0] >= 0)
		close(sv[0]);
	agent_free(b);
	agent_free(a);
}

int main(void)
{
	struct pja_hello hello = { PJA_MAGIC, PJA_VERSION, 1, 64 };
	struct agent *a, *b, *c[3] = { 0 };
	pid_t kids[3] = { 0 };
	unsigned int kept, share_methods;

	msg = malloc(PJA_MAX_MSG);
	if (!msg)
		return 1;
	a = agent_alloc(getpid(), &hello);
	ok(a != NULL, "an agent joins the budget");
	if (!a)
		return tap_done();
	/* twice its uid's share of line tables */
	share_methods =
	    (unsigned int)(AGENTS_UID_BYTES /
			   (AGENT_MAX_LINES * sizeof(struct pja_line)));
	kept = fill(a, 2 * share_methods, 1);
	ok(kept < share_methods && kept > share_methods * 9 / 10 &&
	       a->spent <= AGENTS_UID_BYTES && a->stats.over_budget > 0,
	   "%u methods of 512 KiB sent: %u kept, %zu MiB charged (share %zu "
	   "MiB), %llu dropped",
	   2 * share_methods, kept, a->spent >> 20, AGENTS_UID_BYTES >> 20,
	   (unsigned long long)a->stats.over_budget);
	spend_rest(a);
	b = agent_alloc(getpid(), &hello);
	ok(!b && errno == EDQUOT,
	   "another agent of that uid, its share spent: refused (EDQUOT)");
	if (b)
		agent_free(b);
	agent_free(a);
	b = agent_alloc(getpid(), &hello);
	ok(b != NULL && fill(b, 4, 1) == 4,
	   "once the first is gone, all it held is the next one's");
	if (b)
		agent_free(b);
	dropped_unread(&hello);

	if (geteuid()) {
		skip(
		    "agents of three other uids: each its share, all the budget",
		    "needs root (children of other uids)");
		free(msg);
		return tap_done();
	}
	for (int i = 0; i < 3; i++) {
		kids[i] = as_uid(60000 + i);
		c[i] = kids[i] > 0 ? agent_alloc(kids[i], &hello) : NULL;
	}
	if (c[0] && c[1]) {
		unsigned int k0 = fill(c[0], 2 * share_methods, 1),
			     k1 = fill(c[1], 2 * share_methods, 1);

		ok(k0 > share_methods * 9 / 10 && k1 > share_methods * 9 / 10,
		   "two agents of two uids: each holds its share (%u, %u "
		   "methods)",
		   k0, k1);
		if (c[2])
			fill(c[2], 4, 1);
		ok(!c[2] || c[2]->methods.n == 0,
		   "a third uid's agent: the budget for all (%zu MiB) is "
		   "spent, its methods are dropped",
		   AGENTS_MAX_BYTES >> 20);
	} else {
		ok(0, "agents of other uids could not be made");
	}
	for (int i = 0; i < 3; i++) {
		if (c[i])
			agent_free(c[i]);
		if (kids[i] > 0) {
			kill(kids[i], SIGKILL);
			waitpid(kids[i], NULL, 0);
		}
	}
	free(msg);
	return tap_done();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The reader's queue of walk requests to an agent (jvm/client.c, sent by
 * jvm/conn.c) and its list of walks asked (jvm/messages.c), against an agent that stops
 * reading and one that answers backwards: agent_flush never waits and the
 * queue stays bounded, the walks it could not ask are refused and counted;
 * answers in any order are taken off the list in O(log n); one that takes
 * nothing for a second is deaf (agent_deaf), not after a byte is taken.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "jvm/client.h"
#include "jvm/conn_internal.h"
#include "jvm/messages.h"
#include "lib/clock.h"
#include "tap.h"

static struct agent *new_agent(int sv[2])
{
	struct pja_hello hello = { PJA_MAGIC, PJA_VERSION, 1, 64 };
	struct agent *a = agent_alloc(getpid(), &hello);

	if (!a || socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return NULL;
	a->fd = sv[0];
	a->same_ns = 1;
	fcntl(sv[0], F_SETFL, fcntl(sv[0], F_GETFL) | O_NONBLOCK);
	return a;
}

static void test_deaf(void)
{
	int sv[2], r = 0;
	struct agent *a = new_agent(sv);
	uint64_t t0, slowest = 0, cookie = 0;
	unsigned int refused = 0;

	if (!ok(a != NULL, "an agent on a socket pair"))
		return;
	/* the peer never reads */
	for (int i = 0; i < 200000; i++) {
		uint64_t t;

		if (agent_request(a, getpid(), now_ns(), ++cookie))
			refused++;
		t0 = now_ns();
		r = agent_flush(a);
		t = now_ns() - t0;
		if (t > slowest)
			slowest = t;
		if (r < 0)
			break;
	}
	ok(r == 1 && slowest < 500000000,
	   "a full socket: agent_flush says so (%d) without waiting (slowest "
	   "%.1f ms)",
	   r, slowest / 1e6);
	ok(refused > 0 && a->stats.unsent == refused &&
	       a->out_len <= AGENT_MAX_UNSENT + 64,
	   "requests past %zu queued bytes refused and counted (%u, %llu); "
	   "%zu bytes queued",
	   AGENT_MAX_UNSENT, refused, (unsigned long long)a->stats.unsent,
	   a->out_len);
	/* the stop waits for no answer from an agent that took nothing for
	 * a second (record/recorder.c) */
	t0 = a->out_stuck_ns;
	ok(t0 && !agent_deaf(a, t0 + AGENT_DEAF_NS - 1) &&
	       agent_deaf(a, t0 + AGENT_DEAF_NS),
	   "nothing taken since the first full flush: deaf a second on, "
	   "not before");
	{
		char buf[65536];

		fcntl(sv[1], F_SETFL, fcntl(sv[1], F_GETFL) | O_NONBLOCK);
		while (read(sv[1], buf, sizeof(buf)) > 0)
			; /* the peer reads again: the queue moves */
	}
	agent_flush(a);
	ok(!agent_deaf(a, now_ns() + AGENT_DEAF_NS),
	   "a flush that sends a byte: not deaf");
	close(sv[1]);
	ok(agent_flush(a) == -1, "a peer gone: -1");
	close(a->fd);
	agent_free(a);
}

static unsigned int answered;

static void on_walk(void *ctx, uint64_t cookie, int status,
		    const struct java_frame *f, unsigned int n, uint64_t t)
{
	answered++;
}

/* N walks asked, answered last first: each answer finds its walk. */
static void test_backwards(void)
{
	enum { N = 60000 };
	static char
	    buf[N * (sizeof(struct pja_hdr) + sizeof(struct pja_walk_result))];
	int sv[2];
	struct agent *a = new_agent(sv);
	size_t len = 0;
	uint64_t t0, us;
	long used;

	if (!ok(a != NULL, "an agent on a socket pair"))
		return;
	for (uint64_t c = 1; c <= N; c++) {
		char sink[4096];

		agent_request(a, getpid(), 0, c);
		if (agent_flush(a) == 1) /* the peer reads, and forgets */
			while (read(sv[1], sink, sizeof(sink)) == sizeof(sink))
				;
	}
	for (uint64_t c = N; c >= 1; c--) {
		struct pja_hdr h = { PJA_WALK_RESULT,
				     sizeof(struct pja_walk_result) };
		struct pja_walk_result r = { .cookie = c };

		memcpy(buf + len, &h, sizeof(h));
		memcpy(buf + len + sizeof(h), &r, sizeof(r));
		len += sizeof(h) + sizeof(r);
	}
	t0 = now_ns();
	used = agent_consume(a, buf, len, on_walk, NULL);
	us = (now_ns() - t0) / 1000;
	ok(used == (long)len && answered == N && a->pend_n == 0,
	   "%d walks answered backwards: all taken off the list (%zu left) in "
	   "%llu us",
	   N, a->pend_n, (unsigned long long)us);
	ok(us < 1000000, "in well under a second (a walk of the list each: "
			 "minutes)");
	close(sv[1]);
	close(a->fd);
	agent_free(a);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN); /* as perfjava record: EPIPE, not death */
	test_deaf();
	test_backwards();
	return tap_done();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The reader's side of the walk ring (jvm/walkring.c) against an agent played
 * by the test over a socketpair: the offer carries a sealed memfd, the
 * agent's signal is taken only when it is a real-time one, walks written as
 * the agent writes them come out named, in order and across the ring's end,
 * and hostile records (no seal, a length that disagrees with the frame count,
 * too many frames, a head far ahead) are refused without reading outside the
 * mapping; a broken ring ends (walks go back to requests).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "jvm/client.h"
#include "jvm/conn_internal.h"
#include "jvm/messages.h"
#include "perfjava/profile.h"
#include "perfjava/walk_ring.h"
#include "tap.h"

#define SIZE (64u << 10)
#define DEPTH 64

struct fake {
	struct agent *a;
	int peer; /* the agent's end of the socket */
	char *map; /* the ring as the agent maps it */
	uint64_t head;
};

static struct {
	unsigned int n, frames;
	pid_t tid;
	int fd, status;
	unsigned int unknown; /* frames named "[unknown Java method]" */
	uint64_t time;
	char first[64];
} got;

static void on_walk(void *ctx, const struct ring_walk *w)
{
	got.n++;
	got.frames += w->n;
	got.tid = w->tid;
	got.fd = w->fd;
	got.time = w->time;
	got.status = w->status;
	snprintf(got.first, sizeof(got.first), "%s",
		 w->n ? w->frames[0].name : "");
	got.unknown = 0;
	for (unsigned int i = 0; i < w->n; i++)
		got.unknown +=
		    !strcmp(w->frames[i].name, "[unknown Java method]");
}

static void send_msg(struct agent *a, uint32_t type, const void *p,
		     uint32_t len)
{
	char buf[512];
	struct pja_hdr h = { type, len };

	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), p, len);
	agent_consume(a, buf, sizeof(h) + len, NULL, NULL);
}

/* Offers a ring and takes it as the agent would; -1 when that fails. */
static int fake_start(struct fake *f, int signo)
{
	struct pja_hello hello = { PJA_MAGIC, PJA_VERSION,    1,
				   DEPTH,     PJA_HELLO_RING, 0 };
	struct pja_ring_ready rr = { signo, 0 };
	int sv[2], fd = -1;
	char buf[64], cb[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr mh = { .msg_iov = &iov,
			     .msg_iovlen = 1,
			     .msg_control = cb,
			     .msg_controllen = sizeof(cb) };
	struct cmsghdr *c;

	memset(f, 0, sizeof(*f));
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return -1;
	f->a = agent_alloc(getpid(), &hello);
	f->a->fd = sv[0];
	f->peer = sv[1];
	if (agent_ring_offer(f->a, SIZE) || recvmsg(f->peer, &mh, 0) < 16)
		return -1;
	for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
		if (c->cmsg_type == SCM_RIGHTS)
			memcpy(&fd, CMSG_DATA(c), sizeof(fd));
	if (fd < 0)
		return -1;
	ok(ftruncate(fd, 4096) && errno == EPERM,
	   "the ring's memfd is sealed: the agent cannot shrink it");
	f->map = mmap(NULL, PJW_HEAD_BYTES + SIZE, PROT_READ | PROT_WRITE,
		      MAP_SHARED, fd, 0);
	close(fd);
	if (f->map == MAP_FAILED)
		return -1;
	ok(agent_ring_signal(f->a) == 0, "no signal before the agent answers");
	send_msg(f->a, PJA_RING_READY, &rr, sizeof(rr));
	return 0;
}

/* Writes a walk as the agent does; len_delta and seal_delta break it. */
static void put(struct fake *f, uint32_t tid, uint32_t n, uint64_t method,
		int len_delta, int seal_delta)
{
	char *data = f->map + PJW_HEAD_BYTES;
	struct pjw_rec r = { .time = 1000 + f->head,
			     .tid = tid,
			     .fd = 7,
			     .status = PJA_WALK_OK,
			     .nframes = n };
	uint64_t len = pjw_rec_len(n);
	uint32_t i;

	pjw_put(data, SIZE, f->head + 8, (char *)&r + 8, sizeof(r) - 8);
	for (i = 0; i < n; i++) {
		struct pja_frame fr = { method + i, 3, PJ_FRAME_JIT, { 0 } };

		pjw_put(data, SIZE, f->head + sizeof(r) + i * 16, &fr, 16);
	}
	r.word = (len + len_delta) << 32 | (pjw_seal(f->head) + seal_delta);
	pjw_put(data, SIZE, f->head, &r.word, 8);
	f->head += len;
	__atomic_store_n(&((struct pjw_head *)f->map)->head, f->head,
			 __ATOMIC_RELEASE);
}

static void method(struct agent *a, uint64_t id, const char *cls,
		   const char *name)
{
	char buf[256];
	struct pja_method m = { .id = id,
				.class_len = strlen(cls),
				.name_len = strlen(name),
				.sig_len = 3 };

	memcpy(buf, &m, sizeof(m));
	memcpy(buf + sizeof(m), cls, m.class_len);
	memcpy(buf + sizeof(m) + m.class_len, name, m.name_len);
	memcpy(buf + sizeof(m) + m.class_len + m.name_len, "()V", 3);
	send_msg(a, PJA_METHOD, buf,
		 sizeof(m) + m.class_len + m.name_len + m.sig_len);
}

int main(void)
{
	struct fake f, g;
	unsigned int i, total = 0;

	if (fake_start(&g, SIGPROF) == 0)
		ok(agent_ring_signal(g.a) < 0,
		   "a standard signal from the agent is refused");
	else
		ok(0, "ring offer (SIGPROF case)");
	agent_stop(g.a);
	if (fake_start(&f, SIGRTMIN + 3)) {
		ok(0, "ring offer");
		return tap_done();
	}
	ok(agent_ring_signal(f.a) == SIGRTMIN + 3,
	   "the agent's real-time signal is taken");

	method(f.a, 0x1000, "demo.Walk", "leaf");
	method(f.a, 0x1001, "demo.Walk", "mid");
	put(&f, 42, 3, 0x1000, 0, 0);
	memset(&got, 0, sizeof(got));
	/* its third method is on the socket still, unread */
	ok(agent_ring_drain(f.a, on_walk, NULL, false) == 0 && !got.n,
	   "a walk naming a method not read yet waits for the next drain");
	method(f.a, 0x1002, "demo.Walk", "root");
	ok(agent_ring_drain(f.a, on_walk, NULL, false) == 1 && got.tid == 42 &&
	       got.fd == 7 && got.frames == 3 && got.status == AGENT_WALK_OK &&
	       !strcmp(got.first, "demo.Walk.leaf()V") && !got.unknown,
	   "... which names it: the walk comes out with its thread, fd, "
	   "frames and names (%s)",
	   got.first);
	put(&f, 42, 1, 0x1fff, 0, 0); /* a method never sent */
	ok(agent_ring_drain(f.a, on_walk, NULL, false) == 0 &&
	       agent_ring_drain(f.a, on_walk, NULL, false) == 0,
	   "a method never sent holds its walk over several drains");
	nanosleep(&(struct timespec){ 0, WALK_HOLD_NS + 10000000 }, NULL);
	ok(agent_ring_drain(f.a, on_walk, NULL, false) == 1 && got.unknown == 1,
	   "... for WALK_HOLD_NS at most: then named as it is");
	put(&f, 42, 1, 0x1ffe, 0, 0); /* another, at the recording's end */
	ok(agent_ring_drain(f.a, on_walk, NULL, true) == 1 && got.unknown == 1,
	   "... and at once in the last drain");
	for (i = 0; i < DEPTH; i++)
		method(f.a, 0x2000 + i, "demo.Laps", "m");
	method(f.a, 0x3000, "demo.Seal", "a");
	method(f.a, 0x3001, "demo.Seal", "b");

	/* many laps of the ring, records across its end */
	memset(&got, 0, sizeof(got));
	for (i = 0; i < 4000; i++) {
		put(&f, 43, i % DEPTH, 0x2000, 0, 0);
		if (i % 50 == 49)
			total += agent_ring_drain(f.a, on_walk, NULL, false);
	}
	total += agent_ring_drain(f.a, on_walk, NULL, false);
	ok(total == 4000 && got.n == 4000,
	   "4000 walks over %u laps of the ring all come out (%u)",
	   (unsigned int)(f.head / SIZE), total);

	put(&f, 44, 2, 0x3000, 0, 1); /* the seal of another position */
	ok(agent_ring_drain(f.a, on_walk, NULL, false) == 0,
	   "a record without the seal of its position is not taken");
	f.head -= pjw_rec_len(2);
	put(&f, 44, 2, 0x3000, 0, 0);
	ok(agent_ring_drain(f.a, on_walk, NULL, false) == 1,
	   "... and is taken once written");

	((struct pjw_head *)f.map)->head = f.head + 100 * (uint64_t)SIZE;
	ok(agent_ring_drain(f.a, on_walk, NULL, false) == 0,
	   "a head far ahead reads nothing past the records");
	put(&f, 45, 2, 0x3000, 16, 0); /* len says 3 frames, nframes 2 */
	ok(agent_ring_drain(f.a, on_walk, NULL, false) == 0 &&
	       agent_ring_signal(f.a) < 0,
	   "a length that disagrees with its frames ends the ring");
	put(&f, 46, 1, 0x3000, 0, 0);
	ok(agent_ring_drain(f.a, on_walk, NULL, false) == 0,
	   "... and nothing is read from it after");

	agent_stop(f.a);
	if (fake_start(&g, SIGRTMIN + 3) == 0) {
		put(&g, 47, DEPTH + 1, 0x4000, 0, 0);
		ok(agent_ring_drain(g.a, on_walk, NULL, false) == 0 &&
		       agent_ring_signal(g.a) < 0,
		   "more frames than the depth end the ring");
	}
	agent_stop(g.a);
	return tap_done();
}

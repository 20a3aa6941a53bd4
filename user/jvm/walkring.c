// SPDX-License-Identifier: GPL-2.0
/*
 * The reader's side of the walk ring (jvm/walkring.h, perfjava/walk_ring.h):
 * the reader makes the memory, a memfd sealed against shrinking and growing
 * (so that nothing the agent does can make our mapping fault), offers it to
 * the agent over the socket (PJA_RING, the fd as SCM_RIGHTS), learns the
 * agent's signal from PJA_RING_READY, then reads the walks the agent's
 * signal handlers took at the sample.
 *
 * Everything in the mapping is the target's to write: the reader keeps its
 * own tail and the size it chose, reads each record into its own memory
 * before checking it, takes a record only when its first word carries the
 * seal of the position it is read at, and bounds each length by the ring and
 * each frame count by the depth. A record that breaks a rule ends the ring
 * (the walks go back to requests); nothing in it can make the reader read
 * outside the mapping or loop longer than one ring's worth.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "jvm/conn_internal.h"
#include "jvm/jevents.h"
#include "jvm/walkring.h"
#include "jvm/walks.h"
#include "lib/clock.h"
#include "lib/text.h"
#include "perfjava/walk_ring.h"

enum { R_OFFERED = 0, R_READY = 1, R_OFF = -1 };

struct walk_ring {
	int state;
	int signo;
	char *map;
	uint64_t size, tail;
	struct java_frame *frames; /* hello.depth entries */
	struct agent_ring_stats st;
	/* the agent's last pump time as it said it, and when (our clock:
	 * its own may be a time namespace's) that changed */
	uint64_t pump_at, pump_seen_ns;
	/* records before this position are named as they are, methods
	 * unknown or not (agent_ring_drain); since when the record at the
	 * tail waits for its methods' names (0: none waits) */
	uint64_t named_as_is, held_ns;
};

static int send_fd(int sock, const void *msg, size_t len, int fd)
{
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(int))];
	} cm;
	struct iovec iov = { (void *)msg, len };
	struct msghdr mh = { .msg_iov = &iov,
			     .msg_iovlen = 1,
			     .msg_control = cm.b,
			     .msg_controllen = sizeof(cm.b) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
	ssize_t n;

	memset(cm.b, 0, sizeof(cm.b));
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(fd));
	for (;;) {
		struct pollfd p = { sock, POLLOUT, 0 };

		n = sendmsg(sock, &mh, MSG_NOSIGNAL);
		if (n >= 0 || (errno != EAGAIN && errno != EINTR))
			break;
		if (errno == EAGAIN && poll(&p, 1, 1000) <= 0)
			return -1;
	}
	if (n == (ssize_t)len)
		return 0;
	if (n <= 0)
		return -1;
	/* the rest of the message without the fd */
	iov.iov_base = (char *)msg + n;
	iov.iov_len = len - n;
	mh.msg_control = NULL;
	mh.msg_controllen = 0;
	return sendmsg(sock, &mh, MSG_NOSIGNAL) == (ssize_t)(len - n) ? 0 : -1;
}

int agent_ring_offer(struct agent *a, uint64_t size)
{
	struct {
		struct pja_hdr h;
		struct pja_ring r;
	} msg = { { PJA_RING, sizeof(struct pja_ring) }, { size } };
	struct walk_ring *r;
	struct pjw_head *hd;
	int fd;

	if (!(a->hello.flags & PJA_HELLO_RING) || a->ring ||
	    size < PJW_MIN_SIZE || size > PJW_MAX_SIZE || (size & (size - 1)))
		return -1;
	/* its pages are the reader's (populated below): charged */
	if (agent_charge(a, PJW_HEAD_BYTES + size))
		return -2;
	r = calloc(1, sizeof(*r));
	if (!r) {
		agent_refund(a, PJW_HEAD_BYTES + size);
		return -1;
	}
	r->frames = calloc(a->hello.depth + 1, sizeof(*r->frames));
	fd = memfd_create("perfjava-walks", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (!r->frames || fd < 0 || ftruncate(fd, PJW_HEAD_BYTES + size) ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL))
		goto fail;
	/* populated now: the ring's pages are taken once, at the start, not
	 * one by one as the agent's writes first reach them (minutes of RSS
	 * creeping up to the ring's size, which looks like a leak) */
	r->map = mmap(NULL, PJW_HEAD_BYTES + size, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_POPULATE, fd, 0);
	if (r->map == MAP_FAILED) {
		r->map = NULL;
		goto fail;
	}
	r->size = size;
	hd = (struct pjw_head *)r->map;
	hd->magic = PJW_MAGIC;
	hd->version = PJW_VERSION;
	hd->size = size;
	if (a->out_len || send_fd(a->fd, &msg, sizeof(msg), fd))
		goto fail;
	close(fd);
	r->state = R_OFFERED;
	a->ring = r;
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	if (r->map)
		munmap(r->map, PJW_HEAD_BYTES + size);
	free(r->frames);
	free(r);
	agent_refund(a, PJW_HEAD_BYTES + size);
	return -1;
}

void agent_ring_decline(struct agent *a)
{
	struct {
		struct pja_hdr h;
		struct pja_ring r;
	} msg = { { PJA_RING, sizeof(struct pja_ring) }, { 0 } };

	if (!(a->hello.flags & PJA_HELLO_RING) || a->ring || a->out_len)
		return;
	if (send(a->fd, &msg, sizeof(msg), MSG_NOSIGNAL) != sizeof(msg)) {
		/* the agent waits no longer than its bound */
	}
}

void agent_ring_ready(struct agent *a, const char *p, uint32_t len)
{
	struct pja_ring_ready rr;
	struct walk_ring *r = a->ring;

	if (!r || r->state != R_OFFERED || len < sizeof(rr)) {
		a->stats.dropped++;
		return;
	}
	memcpy(&rr, p, sizeof(rr));
	/* only a real-time signal: a standard one could merge with, or be,
	 * a signal the JVM relies on */
	if (rr.signo < SIGRTMIN || rr.signo > SIGRTMAX) {
		r->state = R_OFF;
		return;
	}
	r->signo = rr.signo;
	r->state = R_READY;
}

int agent_ring_signal(const struct agent *a)
{
	if (!a || !a->ring || a->ring->state == R_OFF || a->fd < 0)
		return -1;
	return a->ring->state == R_READY ? a->ring->signo : 0;
}

bool agent_ring_traps(const struct agent *a)
{
	/* with another copy of the agent in the JVM, a perf SIGTRAP may
	 * reach the other's handler first, and one of an earlier build
	 * keeps it: the real-time signal is this copy's alone */
	return a && (a->hello.flags & PJA_HELLO_RING) &&
	       (a->hello.flags & PJA_HELLO_SIGTRAP) && a->copies <= 1;
}

int agent_copies(const struct agent *a)
{
	return a ? a->copies : 0;
}

/* What the agent says became of the signals at a sample (its numbers, and
 * its SIGTRAP handler's owner made safe); unknown from one that never
 * said (an agent before these fields: pump_at_ns stays 0). */
static void signal_stats(struct walk_ring *r, const struct pjw_head *hd)
{
	struct agent_ring_stats *st = &r->st;
	uint64_t at = __atomic_load_n(&hd->pump_at_ns, __ATOMIC_RELAXED);
	uint64_t now = now_ns();
	size_t n;

	if (at != r->pump_at) {
		r->pump_at = at;
		r->pump_seen_ns = now;
	}

	st->sig_taken = __atomic_load_n(&hd->sig_taken, __ATOMIC_RELAXED);
	st->sig_off = __atomic_load_n(&hd->sig_off, __ATOMIC_RELAXED);
	st->sig_passed = __atomic_load_n(&hd->sig_passed, __ATOMIC_RELAXED);
	st->stuck_ns = __atomic_load_n(&hd->stuck_ns, __ATOMIC_RELAXED);
	st->idle_ns = at ? now - r->pump_seen_ns : 0;
	st->trap_first =
	    !at ? 2 : __atomic_load_n(&hd->trap_first, __ATOMIC_RELAXED) != 0;
	memcpy(st->trap_owner, hd->trap_owner, sizeof(st->trap_owner) - 1);
	st->trap_owner[sizeof(st->trap_owner) - 1] = 0;
	n = strlen(st->trap_owner);
	text_clean(st->trap_owner, n);
}

unsigned int agent_ring_drain(struct agent *a, agent_ring_cb cb, void *ctx,
			      bool last)
{
	struct walk_ring *r = a ? a->ring : NULL;
	const struct pjw_head *hd;
	const char *data;
	uint64_t head, end;
	unsigned int count = 0;

	if (!r || r->state != R_READY)
		return 0;
	hd = (const struct pjw_head *)r->map;
	data = r->map + PJW_HEAD_BYTES;
	head = __atomic_load_n(&hd->head, __ATOMIC_ACQUIRE);
	end = head - r->tail > r->size ? r->tail + r->size : head;
	while (end - r->tail >= sizeof(struct pjw_rec)) {
		uint64_t word = __atomic_load_n(
		    (const uint64_t *)(data + (r->tail & (r->size - 1))),
		    __ATOMIC_ACQUIRE);
		uint64_t len = word >> 32;
		struct pjw_rec rec;
		struct pjw_event pe;
		struct ring_event re;
		struct ring_walk w = { 0 };
		uint64_t at;
		unsigned int i;
		bool unknown;

		if ((uint32_t)word != pjw_seal(r->tail))
			break; /* not written yet */
		pjw_get(data, r->size, r->tail, &rec, sizeof(rec));
		if (len > end - r->tail || rec.nframes > a->hello.depth ||
		    len != pjw_rec_len_ext(rec.nframes, rec.flags)) {
			r->st.bad++;
			r->state = R_OFF; /* lost track of the records */
			break;
		}
		at = r->tail + sizeof(rec);
		if (rec.flags & PJW_REC_EVENT) {
			pjw_get(data, r->size, at, &pe, sizeof(pe));
			at += sizeof(pe);
			re.kind = pe.kind < PJW_EV_MAX ? pe.kind : PJW_EV_MAX;
			re.flags = pe.flags;
			re.value = pe.value;
			re.cls = agent_class_name(a, pe.cls);
			re.vthread = pe.vthread;
			re.owner = agent_class_name(a, pe.owner);
			w.ev = &re;
		}
		unknown = false;
		for (i = 0; i < rec.nframes; i++) {
			struct pja_frame f;

			pjw_get(data, r->size, at + i * 16, &f, sizeof(f));
			unknown |= !agent_name_frame(a, &f, &r->frames[i]);
		}
		/* a method the walk names is sent before the walk is
		 * published, but may come on the socket after the caller
		 * read it (ksig_collect), or later when the agent's thread
		 * waits for a CPU: the records from here wait for the next
		 * calls, which read the socket first, WALK_HOLD_NS at most
		 * whatever an agent sends (a fifth of the ring's second) */
		if (unknown && r->tail >= r->named_as_is) {
			uint64_t now = now_ns();

			if (!r->held_ns) {
				r->held_ns = now;
				r->st.held++;
			}
			if (!last && now - r->held_ns < WALK_HOLD_NS)
				break;
			r->named_as_is = head;
		}
		r->held_ns = 0;
		w.tid = (pid_t)rec.tid;
		w.fd = rec.fd;
		w.time = rec.time;
		/* an event is no walk at a sample: not counted as one */
		w.status =
		    w.ev && w.ev->kind != PJW_EV_CPU
			? (rec.status ? AGENT_WALK_NOT_WALKABLE : AGENT_WALK_OK)
			: agent_count_walk(a, rec.status, rec.asgct, rec.flags);
		w.frames = r->frames;
		w.n = w.status == AGENT_WALK_OK ? rec.nframes : 0;
		r->tail += len;
		r->st.walks++;
		count++;
		if (cb)
			cb(ctx, &w);
	}
	__atomic_store_n(&((struct pjw_head *)r->map)->tail, r->tail,
			 __ATOMIC_RELEASE);
	r->st.full = __atomic_load_n(&hd->full, __ATOMIC_RELAXED);
	r->st.busy = __atomic_load_n(&hd->busy, __ATOMIC_RELAXED);
	r->st.timed = __atomic_load_n(&hd->timed, __ATOMIC_RELAXED);
	r->st.own = __atomic_load_n(&hd->own, __ATOMIC_RELAXED);
	for (unsigned int i = 0; i < PJW_PARTS; i++) {
		r->st.part_ns[i] =
		    __atomic_load_n(&hd->part_ns[i], __ATOMIC_RELAXED);
		r->st.part_med_ns[i] =
		    __atomic_load_n(&hd->part_med_ns[i], __ATOMIC_RELAXED);
	}
	r->st.pumped = __atomic_load_n(&hd->pumped, __ATOMIC_RELAXED);
	r->st.pump_ns = __atomic_load_n(&hd->pump_ns, __ATOMIC_RELAXED);
	r->st.checked = __atomic_load_n(&hd->checked, __ATOMIC_RELAXED);
	r->st.check_same = __atomic_load_n(&hd->check_same, __ATOMIC_RELAXED);
	signal_stats(r, hd);
	return count;
}

void agent_ring_get_stats(const struct agent *a, struct agent_ring_stats *st)
{
	if (a && a->ring)
		*st = a->ring->st;
	else
		memset(st, 0, sizeof(*st));
}

void agent_ring_free(struct agent *a)
{
	struct walk_ring *r = a->ring;

	if (!r)
		return;
	if (r->map)
		munmap(r->map, PJW_HEAD_BYTES + r->size);
	free(r->frames);
	free(r);
	a->ring = NULL;
}

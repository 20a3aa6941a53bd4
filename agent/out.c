// SPDX-License-Identifier: GPL-2.0
/*
 * The outgoing queue: JVMTI callbacks (compiler and service threads, new
 * threads) and the session thread append messages under a lock; only the
 * session thread writes them to the socket, so messages keep their order and
 * no JVM thread ever blocks on the reader. The socket has a send timeout, so
 * a reader that stops reading ends the session instead of hanging us.
 *
 * The session thread is woken (pja.wake_fd) once per batch, and only for what
 * the reader is waiting on: code (loads and unloads, one at a time and many a
 * second while the JIT compiles) goes with its next pump (400 ms at most,
 * wring.c) unless OUT_WAKE_BYTES are queued; the walks it moves are sent
 * after what is queued before them, so a walk never comes before its code.
 * What the session thread queues itself never wakes it: it flushes at the
 * end of each turn of its loop. A wake-up costs the target a switch to that
 * thread and back.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pja.h"
#include "out.h"

#define OUT_LIMIT (64u << 20)
#define OUT_WAKE_BYTES (256u << 10)

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static char *out_buf, *spare;
static size_t out_len, out_cap, spare_cap;
static int woken; /* a wake-up is on its way since the last flush */
static pthread_t sender; /* the session thread, when sending */
static int has_sender;

void out_sender(int on)
{
	pthread_mutex_lock(&out_lock);
	sender = pthread_self();
	has_sender = on;
	pthread_mutex_unlock(&out_lock);
}

static int wakes(uint32_t type)
{
	if (woken || (has_sender && pthread_equal(sender, pthread_self())))
		return 0;
	return (type != PJA_CODE_LOAD && type != PJA_CODE_UNLOAD) ||
	       out_len >= OUT_WAKE_BYTES;
}

void out_reset(void)
{
	pthread_mutex_lock(&out_lock);
	out_len = 0;
	woken = 0;
	pthread_mutex_unlock(&out_lock);
}

int out_msg(uint32_t type, const void *a, size_t alen, const void *b,
	    size_t blen, const void *c, size_t clen)
{
	struct pja_hdr h = { type, alen + blen + clen };
	size_t need = sizeof(h) + h.len;
	uint64_t one = 1;
	int wake;

	pthread_mutex_lock(&out_lock);
	if (out_len + need > OUT_LIMIT) {
		pthread_mutex_unlock(&out_lock);
		return -1;
	}
	if (out_len + need > out_cap) {
		size_t cap = out_cap ? out_cap : 65536;
		char *p;

		while (cap < out_len + need)
			cap *= 2;
		p = realloc(out_buf, cap);
		if (!p) {
			pthread_mutex_unlock(&out_lock);
			return -1;
		}
		out_buf = p;
		out_cap = cap;
	}
	memcpy(out_buf + out_len, &h, sizeof(h));
	out_len += sizeof(h);
	if (alen)
		memcpy(out_buf + out_len, a, alen);
	out_len += alen;
	if (blen)
		memcpy(out_buf + out_len, b, blen);
	out_len += blen;
	if (clen)
		memcpy(out_buf + out_len, c, clen);
	out_len += clen;
	wake = wakes(type);
	woken |= wake;
	pthread_mutex_unlock(&out_lock);
	if (wake && pja.wake_fd >= 0 &&
	    write(pja.wake_fd, &one, sizeof(one)) < 0) {
		/* the counter is full: the session thread is awake anyway */
	}
	return 0;
}

int out_flush(void)
{
	char *buf;
	size_t len, off = 0, cap;

	pthread_mutex_lock(&out_lock);
	buf = out_buf;
	len = out_len;
	cap = out_cap;
	out_buf = spare;
	out_cap = spare_cap;
	out_len = 0;
	woken = 0;
	pthread_mutex_unlock(&out_lock);
	while (off < len) {
		ssize_t w = write(pja.fd, buf + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += w;
	}
	spare = buf;
	spare_cap = cap;
	return off == len ? 0 : -1;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * One agent connection (jvm/conn.h, jvm/conn_internal.h): the requests
 * queued for the agent and sent without waiting, thread ids mapped into the
 * target's pid namespace, and the names the agent sends, interned once and
 * charged to its budget.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jvm/conn_internal.h"
#include "lib/clock.h"
#include "lib/hash.h"
#include "lib/nspid.h"
#include "lib/text.h"

#define AGENT_NSTID_CACHE 8192 /* tids mapped to the target's namespace */

/* Interned strings, already terminal-safe: a chain per hash, kept in the
 * agent's store (lib/strpool.h) until it goes. */
struct istr {
	struct istr *next;
	size_t len;
	char s[];
};

/* The agents' budget (jvm/conn_internal.h): one for the reader. */
static struct {
	size_t spent;
	struct share {
		uid_t uid;
		unsigned int agents; /* 0: a free place */
		size_t spent;
	} v[AGENTS_UIDS];
} budget;

int agent_budget_join(struct agent *a, uid_t uid)
{
	int i, free_at = -1;

	a->share = -1;
	for (i = 0; i < AGENTS_UIDS; i++) {
		if (budget.v[i].agents && budget.v[i].uid == uid)
			break;
		if (!budget.v[i].agents && free_at < 0)
			free_at = i;
	}
	if (i == AGENTS_UIDS && free_at < 0) {
		errno = EDQUOT;
		return -1;
	}
	if (i == AGENTS_UIDS) {
		i = free_at;
		budget.v[i] = (struct share){ .uid = uid };
	}
	budget.v[i].agents++;
	a->share = i;
	/* its state, walk frames, thread id cache and tables' first
	 * sizes, before anything it sends */
	if (agent_charge(a, sizeof(*a) +
				(size_t)(a->hello.depth + 1) * 2 *
				    sizeof(struct java_frame) +
				(256u << 10))) {
		agent_budget_leave(a);
		errno = EDQUOT;
		return -1;
	}
	return 0;
}

void agent_budget_leave(struct agent *a)
{
	if (a->share < 0)
		return;
	agent_refund(a, a->spent);
	budget.v[a->share].agents--;
	a->share = -1;
}

int agent_charge(struct agent *a, size_t n)
{
	struct share *u = a->share >= 0 ? &budget.v[a->share] : NULL;

	if (!u || n > AGENTS_UID_BYTES - u->spent ||
	    n > AGENTS_MAX_BYTES - budget.spent) {
		a->stats.over_budget++;
		return -1;
	}
	u->spent += n;
	budget.spent += n;
	a->spent += n;
	return 0;
}

void agent_refund(struct agent *a, size_t n)
{
	if (a->share < 0)
		return;
	if (n > a->spent)
		n = a->spent;
	budget.v[a->share].spent -= n;
	budget.spent -= n;
	a->spent -= n;
}

size_t agent_name_cost(const char *s)
{
	return strlen(s) + 1 + 32; /* and its malloc's and slot's own */
}

int agent_grow(struct agent *a, char **buf, size_t *cap, size_t need)
{
	size_t ncap = *cap ? *cap : 4096;
	char *p;

	if (need <= *cap)
		return 0;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return -1;
		ncap *= 2;
	}
	if (agent_charge(a, ncap - *cap))
		return -1;
	p = realloc(*buf, ncap);
	if (!p) {
		agent_refund(a, ncap - *cap);
		return -1;
	}
	*buf = p;
	*cap = ncap;
	return 0;
}

const char *agent_intern(struct agent *a, const char *s, size_t len)
{
	char clean[AGENT_MAX_NAME];
	struct istr *e;
	union u64map_val *head;
	uint64_t h;

	/* Clean first, so that the key is what is stored: a name the cleaning
	 * changes is found again instead of being added (and charged) anew. */
	if (len > AGENT_MAX_NAME)
		len = AGENT_MAX_NAME;
	memcpy(clean, s, len);
	text_clean(clean, len);
	h = hash_bytes(clean, len, 0) | 1;
	head = u64map_slot(&a->strings, h);
	if (!head)
		return "";
	for (e = head->p; e; e = e->next)
		if (e->len == len && !memcmp(e->s, clean, len))
			return e->s;
	if (agent_charge(a, sizeof(*e) + len + 1 + 16) ||
	    !(e = strstore_alloc(&a->names, sizeof(*e) + len + 1)))
		return "";
	memcpy(e->s, clean, len);
	e->s[len] = 0;
	e->len = len;
	e->next = head->p;
	head->p = e;
	return e->s;
}

pid_t agent_target_tid(struct agent *a, pid_t tid)
{
	uint32_t v;
	pid_t ns;

	if (!a)
		return -1;
	if (a->same_ns)
		return tid;
	if (u64map_get(&a->nstid, (uint64_t)tid, &v))
		return (pid_t)v;
	ns = nspid_of(a->pid, tid);
	if (a->nstid.n >= AGENT_NSTID_CACHE) /* a cache: threads come and go
						for days, it must not grow */
		u64map_free(&a->nstid);
	if (ns > 0)
		u64map_put(&a->nstid, (uint64_t)tid, (uint32_t)ns);
	return ns;
}

int agent_flush(struct agent *a)
{
	size_t off = 0;
	int r = 0;

	/* never waits: an agent that stops reading keeps its requests here
	 * (bounded by AGENT_MAX_UNSENT), and the recording goes on */
	while (a->fd >= 0 && off < a->out_len) {
		ssize_t n = write(a->fd, a->out + off, a->out_len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			r = 1;
			break;
		}
		if (n <= 0) {
			r = -1;
			break;
		}
		off += (size_t)n;
	}
	/* keep what is unsent, not what was sent already */
	if (off)
		memmove(a->out, a->out + off, a->out_len - off);
	a->out_len -= off;
	if (off || !a->out_len)
		a->out_stuck_ns = 0;
	else if (!a->out_stuck_ns)
		a->out_stuck_ns = now_ns();
	return a->fd >= 0 ? r : -1;
}

bool agent_deaf(const struct agent *a, uint64_t now)
{
	return a->out_stuck_ns && now - a->out_stuck_ns >= AGENT_DEAF_NS;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The agent's messages as the reader takes them in (jvm/messages.h):
 * HELLO checked, then METHOD, WALK_RESULT, CODE_LOAD/UNLOAD, THREAD,
 * THREAD_END and VM_INFO parsed from a byte buffer. Every byte comes from
 * the target, which may be hostile: each length, count and depth is
 * checked against the message before use, every allocation is checked,
 * what one agent can make the reader keep is capped (AGENT_MAX_*), and
 * text is made terminal-safe (lib/text.h) as it is kept (names interned by
 * jvm/conn.c). A message that breaks a rule is dropped and counted; a
 * header that cannot be right ends the stream.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jvm/conn_internal.h"
#include "jvm/jevents.h"
#include "jvm/messages.h"
#include "jvm/stacks.h"
#include "jvm/walkring.h"
#include "jvm/walks.h"
#include "lib/procfs.h"
#include "lib/text.h"
#include "perfjava/profile.h"

int agent_check_hello(const struct pja_hdr *h, const struct pja_hello *hello)
{
	if (h->type != PJA_HELLO || h->len < sizeof(*hello) ||
	    h->len > AGENT_MAX_HELLO || hello->magic != PJA_MAGIC ||
	    hello->version != PJA_VERSION)
		return -1;
	if (!hello->depth || hello->depth > PJA_MAX_DEPTH)
		return -2;
	return 0;
}

struct agent *agent_alloc(pid_t pid, const struct pja_hello *hello)
{
	struct agent *a = calloc(1, sizeof(*a));
	uid_t uid = 0;

	if (!a)
		return NULL;
	a->pid = pid;
	a->fd = -1;
	a->hello = *hello;
	a->hello_seen = 1;
	if (proc_uid(pid, &uid) || agent_budget_join(a, uid)) {
		free(a);
		errno = EDQUOT;
		return NULL;
	}
	a->frames = calloc(hello->depth + 1, sizeof(*a->frames));
	if (!a->frames) {
		agent_budget_leave(a);
		free(a);
		errno = ENOMEM;
		return NULL;
	}
	return a;
}

/* What a method's definition costs, its table slot aside. */
static size_t method_cost(const struct jmethod *jm)
{
	return sizeof(*jm) + (size_t)jm->nlines * sizeof(*jm->lines);
}

static void free_method(struct jmethod *jm)
{
	if (jm) {
		free(jm->lines);
		free(jm);
	}
}

static void on_method(struct agent *a, const char *p, uint32_t len)
{
	struct pja_method m;
	struct jmethod *jm;
	const char *s;
	char full[2 * AGENT_MAX_NAME + 2];
	union u64map_val *slot;
	size_t need, cl, nl;
	int n;

	if (len < sizeof(m))
		goto bad;
	memcpy(&m, p, sizeof(m));
	/* each field is at most len (1 MiB): the sum cannot overflow */
	need = sizeof(m) + (size_t)m.class_len + m.name_len + m.sig_len +
	       m.file_len + (size_t)m.nlines * sizeof(struct pja_line);
	if (need > len || m.nlines > AGENT_MAX_LINES)
		goto bad;
	if (!u64map_find(&a->methods, m.id ? m.id : 1) &&
	    a->methods.n >= AGENT_MAX_METHODS)
		goto bad;
	if (agent_charge(a, sizeof(*jm) +
				(size_t)m.nlines * sizeof(*jm->lines) + 32) ||
	    !(jm = calloc(1, sizeof(*jm))))
		goto bad;
	s = p + sizeof(m);
	cl = m.class_len < AGENT_MAX_NAME ? m.class_len : AGENT_MAX_NAME;
	nl = m.name_len < AGENT_MAX_NAME ? m.name_len : AGENT_MAX_NAME;
	memcpy(full, s, cl);
	full[cl] = '.';
	memcpy(full + cl + 1, s + m.class_len, nl);
	n = cl + 1 + nl;
	/* the signature after the name, when it fits whole: the report drops
	 * it or shows it (report --sig) */
	if (m.sig_len && n + m.sig_len <= AGENT_MAX_NAME &&
	    s[m.class_len + m.name_len] == '(') {
		memcpy(full + n, s + m.class_len + m.name_len, m.sig_len);
		n += m.sig_len;
	}
	jm->name = agent_intern(a, full, n);
	s += m.class_len + m.name_len + m.sig_len;
	jm->file = m.file_len ? agent_intern(a, s, m.file_len) : NULL;
	s += m.file_len;
	jm->native = m.flags & PJA_METHOD_NATIVE;
	jm->nlines = m.nlines;
	jm->lines = malloc((m.nlines ? m.nlines : 1) * sizeof(*jm->lines));
	if (jm->lines)
		memcpy(jm->lines, s, m.nlines * sizeof(*jm->lines));
	else
		jm->nlines = 0;
	slot = u64map_slot(&a->methods, m.id ? m.id : 1);
	if (!slot) {
		free_method(jm);
		goto bad;
	}
	if (jm->native) /* its wrapper's code is named as the method */
		codemap_retype(&a->code, m.id, PJ_FRAME_JAVA_NATIVE);
	if (slot->p) /* (its slot's charge stays) */
		agent_refund(a, method_cost(slot->p));
	free_method(slot->p);
	slot->p = jm;
	return;
bad:
	a->stats.dropped++;
}

/* A pending cookie answered (in a->pending, which the reader's growing
 * cookies keep in increasing order). */
#define ANSWERED (1ull << 63)

static uint64_t pend_at(const struct agent *a, size_t i)
{
	return a->pending[(a->pend_head + i) % a->pend_cap] & ~ANSWERED;
}

/*
 * Takes cookie off the pending walks: found by binary search and marked,
 * the marked ones leaving from the head; O(log n) in whatever order the
 * agent answers (a hostile one answers backwards).
 */
static void drop_pending(struct agent *a, uint64_t cookie)
{
	size_t lo = 0, hi = a->pend_n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (pend_at(a, mid) < cookie)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == a->pend_n || pend_at(a, lo) != cookie)
		return;
	a->pending[(a->pend_head + lo) % a->pend_cap] |= ANSWERED;
	while (a->pend_n && (a->pending[a->pend_head] & ANSWERED)) {
		a->pend_head = (a->pend_head + 1) % a->pend_cap;
		a->pend_n--;
	}
}

static void on_walk(struct agent *a, const char *p, uint32_t len,
		    agent_walk_cb cb, void *ctx)
{
	struct pja_walk_result r;
	int n, st;

	if (len < sizeof(r)) {
		a->stats.dropped++;
		return;
	}
	memcpy(&r, p, sizeof(r));
	n = agent_result_frames(a, p, len, sizeof(r), r.nframes);
	if (n < 0)
		return;
	st = agent_count_walk(a, r.status, r.asgct, r.flags);
	if (r.walk_time > r.recv_time && r.recv_time > r.sample_time) {
		a->stats.to_agent_ns += r.recv_time - r.sample_time;
		a->stats.to_walk_ns += r.walk_time - r.recv_time;
		a->stats.timed++;
	}
	drop_pending(a, r.cookie);
	if (cb)
		cb(ctx, r.cookie, st, a->frames, st == AGENT_WALK_OK ? n : 0,
		   r.walk_time);
}

/* Thread names are the map's own (not interned), so that an ended thread
 * costs nothing: a target that creates threads for days stays flat. */
static void on_thread(struct agent *a, uint32_t type, const char *p,
		      uint32_t len)
{
	struct pja_thread t;
	size_t n;
	union u64map_val *slot;
	char *name;

	if (len < sizeof(t))
		goto bad;
	memcpy(&t, p, sizeof(t));
	if (t.name_len > len - sizeof(t) || !t.tid)
		goto bad;
	if (type == PJA_THREAD_END) {
		name = u64map_ptr(&a->threads, t.tid);
		if (name)
			agent_refund(a, agent_name_cost(name));
		free(name);
		u64map_del(&a->threads, t.tid);
		return;
	}
	if (!u64map_find(&a->threads, t.tid) &&
	    a->threads.n >= AGENT_MAX_THREADS)
		goto bad;
	n = t.name_len < AGENT_MAX_NAME ? t.name_len : AGENT_MAX_NAME;
	name = malloc(n + 1);
	if (!name)
		goto bad;
	memcpy(name, p + sizeof(t), n);
	name[n] = 0;
	text_clean(name, n);
	if (agent_charge(a, agent_name_cost(name))) {
		free(name);
		goto bad;
	}
	if (!u64map_find(&a->threads, t.tid))
		a->thread_started = true;
	slot = u64map_slot(&a->threads, t.tid);
	if (!slot) {
		agent_refund(a, agent_name_cost(name));
		free(name);
		goto bad;
	}
	if (slot->p)
		agent_refund(a, agent_name_cost(slot->p));
	free(slot->p);
	slot->p = name;
	return;
bad:
	a->stats.dropped++;
}

#define STUB_PREFIX "Stub Generator "

static void on_code_load(struct agent *a, const char *p, uint32_t len)
{
	const struct jmethod *m;
	struct pja_code c;
	const char *name;

	if (len < sizeof(c))
		goto bad;
	memcpy(&c, p, sizeof(c));
	if (c.name_len > len - sizeof(c) || !c.size ||
	    c.start + c.size < c.start || a->code.n >= AGENT_MAX_CODE)
		goto bad;
	/* the map's growth (codemap_add doubles it from 1024), charged
	 * before it comes */
	if (a->code.n == a->code.cap &&
	    (a->code.cap ? a->code.cap * 2 : 1024) > a->code_charged) {
		size_t more =
		    (a->code.cap ? a->code.cap * 2 : 1024) - a->code_charged;

		if (agent_charge(a, more * sizeof(struct codemap_entry)))
			goto bad;
		a->code_charged += more;
	}
	name = p + sizeof(c);
	/* JDK 24+ prefixes its stubs' names (as async-profiler, dropped) */
	if (c.name_len > sizeof(STUB_PREFIX) - 1 &&
	    !memcmp(name, STUB_PREFIX, sizeof(STUB_PREFIX) - 1)) {
		name += sizeof(STUB_PREFIX) - 1;
		c.name_len -= sizeof(STUB_PREFIX) - 1;
	}
	m = c.method ? u64map_ptr(&a->methods, c.method) : NULL;
	if (codemap_add(&a->code, c.start, c.size, c.method,
			m && m->native ? PJ_FRAME_JAVA_NATIVE : c.type,
			agent_intern(a, name, c.name_len)))
		goto bad;
	a->stats.code_loads++;
	return;
bad:
	a->stats.dropped++;
}

static void on_code_unload(struct agent *a, const char *p, uint32_t len)
{
	struct pja_code_unload u;

	if (len < sizeof(u)) {
		a->stats.dropped++;
		return;
	}
	memcpy(&u, p, sizeof(u));
	codemap_remove(&a->code, u.start, u.method);
}

void agent_lose_pending(struct agent *a, agent_walk_cb cb, void *ctx)
{
	while (a->pend_n) {
		uint64_t c = a->pending[a->pend_head];

		a->pend_head = (a->pend_head + 1) % a->pend_cap;
		a->pend_n--;
		if (c & ANSWERED)
			continue;
		a->stats.results[AGENT_WALK_LOST]++;
		if (cb)
			cb(ctx, c, AGENT_WALK_LOST, NULL, 0, 0);
	}
}

/* PJA_VM_INFO: the JVM's name and version, bounded and made
 * terminal-safe as they are kept. */
static void on_vm_info(struct agent *a, const char *p, uint32_t len)
{
	struct pja_vm_info m;

	if (len < sizeof(m)) {
		a->stats.dropped++;
		return;
	}
	memcpy(&m, p, sizeof(m));
	if (m.name_len > PJA_VM_INFO_MAX || m.version_len > PJA_VM_INFO_MAX ||
	    m.name_len + m.version_len > len - sizeof(m)) {
		a->stats.dropped++;
		return;
	}
	a->vm_name = agent_intern(a, p + sizeof(m), m.name_len);
	a->vm_version =
	    agent_intern(a, p + sizeof(m) + m.name_len, m.version_len);
}

const char *agent_vm_info(const struct agent *a, bool version)
{
	const char *s = !a ? NULL : version ? a->vm_version : a->vm_name;

	return s && *s ? s : NULL;
}

long agent_consume(struct agent *a, const char *buf, size_t len,
		   agent_walk_cb cb, void *ctx)
{
	size_t off = 0;

	while (len - off >= sizeof(struct pja_hdr)) {
		struct pja_hdr h;
		const char *p;

		memcpy(&h, buf + off, sizeof(h));
		if (h.len > PJA_MAX_MSG || h.type == PJA_HELLO)
			return -1; /* a broken stream: nothing after is read */
		if (len - off - sizeof(h) < h.len)
			break;
		p = buf + off + sizeof(h);
		switch (h.type) {
		case PJA_METHOD:
			on_method(a, p, h.len);
			break;
		case PJA_WALK_RESULT:
			on_walk(a, p, h.len, cb, ctx);
			break;
		case PJA_CODE_LOAD:
			on_code_load(a, p, h.len);
			break;
		case PJA_CODE_UNLOAD:
			on_code_unload(a, p, h.len);
			break;
		case PJA_THREAD:
		case PJA_THREAD_END:
			on_thread(a, h.type, p, h.len);
			break;
		case PJA_RING_READY:
			agent_ring_ready(a, p, h.len);
			break;
		case PJA_STACK_RESULT:
			agent_stack_result(a, p, h.len);
			break;
		case PJA_EVENTS_READY:
			agent_events_ready(a, p, h.len);
			break;
		case PJA_CLASS:
			agent_class(a, p, h.len);
			break;
		case PJA_VTHREAD:
			agent_vthread(a, p, h.len);
			break;
		case PJA_VM_INFO:
			on_vm_info(a, p, h.len);
			break;
		case PJA_PARK:
			agent_park(a, p, h.len);
			break;
		default:
			break;
		}
		off += sizeof(h) + h.len;
	}
	return (long)off;
}

void agent_free(struct agent *a)
{
	union u64map_val *v;
	uint64_t k;
	uint32_t i;

	agent_budget_leave(a);
	agent_ring_free(a);
	agent_events_free(a);
	for (i = 0; u64map_next(&a->methods, &i, &k, &v);)
		free_method(v->p);
	for (i = 0; u64map_next(&a->threads, &i, &k, &v);)
		free(v->p);
	strstore_free(&a->names);
	u64map_free(&a->methods);
	u64map_free(&a->strings);
	u64map_free(&a->threads);
	u64map_free(&a->nstid);
	codemap_free(&a->code);
	free(a->pending);
	free(a->frames);
	free(a->in);
	free(a->out);
	free(a);
}

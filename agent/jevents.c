// SPDX-License-Identifier: GPL-2.0
/*
 * The JVM's own events, beside the walks at the sample: sampled allocations
 * (alloc.c), waits for locks (lock.c) and virtual threads' parks
 * (vthread.c). Each is recorded on the thread it happened on, with that
 * thread's stack (JVMTI GetStackTrace of the current thread: no signal, no
 * handshake) and the class it names, into the private ring the handlers
 * write (ksig.c); the session thread moves it into the reader's walk ring
 * (wring.c), naming the class once per session (PJA_CLASS).
 *
 * The callbacks take no lock and allocate nothing of their own: the stack
 * goes into one of a fixed pool of buffers (none free: the event is
 * dropped and counted), the class name into the callback's own stack
 * frame. What JVMTI allocates itself (the class signature) is given back at
 * once. The events a session may send are bounded per 100 ms; those over
 * the bound are counted, and the reader says how many.
 *
 * Turned on by PJA_EVENTS for one session and off at its end: the events
 * disabled, the capabilities given back, the heap sampling interval put
 * back to HotSpot's default (512 KiB; JVMTI cannot read it).
 */
#include <stdlib.h>
#include <string.h>

#include "pja.h"
#include "input.h"
#include "perfjava/walk_ring.h"

#define NPOOL 32 /* events recorded at once */
#define WINDOW_NS 100000000ull
#define WINDOW_MAX 5000 /* events per window, at most */
#define HOTSPOT_INTERVAL (512 * 1024)

static struct {
	atomic_int used;
	jvmtiFrameInfo *fi; /* PJA_MAX_DEPTH entries */
} pool[NPOOL];

static atomic_uint on; /* PJA_EV_* */
static _Atomic uint64_t window, in_window, n_rate, n_busy;
static jvmtiCapabilities added; /* what this session added */

static _Atomic uint64_t n_stray;

void jevents_stray(void)
{
	atomic_fetch_add(&n_stray, 1);
}

int jevents_on(uint32_t flag)
{
	return (atomic_load(&on) & flag) != 0;
}

static uint64_t told; /* dropped, as last said (session thread) */
static struct pja_events_ready ready;

int jevents_report(void)
{
	uint64_t d = atomic_load(&n_rate) + atomic_load(&n_busy);

	if (!atomic_load(&on) || d == told)
		return 0;
	told = d;
	ready.dropped = d;
	return out_msg(PJA_EVENTS_READY, &ready, sizeof(ready), NULL, 0, NULL,
		       0);
}

/* Whether one more event fits the bound of its window. */
static int within_rate(uint64_t now)
{
	uint64_t w = now / WINDOW_NS, cur = atomic_load(&window);

	if (w != cur && atomic_compare_exchange_strong(&window, &cur, w))
		atomic_store(&in_window, 0);
	if (atomic_fetch_add(&in_window, 1) < WINDOW_MAX)
		return 1;
	atomic_fetch_add(&n_rate, 1);
	return 0;
}

int jevents_wait_kept(uint64_t waited, uint64_t *weight)
{
	uint64_t t = lock_threshold_ns, x;

	*weight = waited;
	if (waited >= t)
		return 1;
	/* splitmix64 of the clock and the thread: no state to share */
	x = pja_now() ^ ((uint64_t)pja_gettid() << 40);
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	x ^= x >> 31;
	*weight = t;
	return x % t < waited;
}

/* "Ljava/lang/String;" -> "java.lang.String", "[[J" -> "long[][]". */
static size_t class_name(const char *sig, char *buf, size_t len)
{
	static const char prim[] = "ZBCSIJFD";
	static const char *const pname[] = { "boolean", "byte",	 "char",
					     "short",	"int",	 "long",
					     "float",	"double" };
	unsigned int dims = 0;
	size_t n = 0;
	const char *p;

	while (*sig == '[') {
		dims++;
		sig++;
	}
	if (*sig == 'L') {
		for (sig++; *sig && *sig != ';' && n + 1 < len; sig++)
			buf[n++] = *sig == '/' ? '.' : *sig;
	} else if (*sig && (p = strchr(prim, *sig))) {
		const char *s = pname[p - prim];

		while (*s && n + 1 < len)
			buf[n++] = *s++;
	}
	while (dims-- && n + 3 < len) {
		buf[n++] = '[';
		buf[n++] = ']';
	}
	buf[n] = 0;
	return n;
}

void jevents_record(JNIEnv *env, struct pjw_event *ev, jclass klass,
		    uint64_t time, int skip)
{
	jvmtiEnv *jv = pja.jvmti;
	struct {
		struct pjw_event ev;
		char name[PJA_CLASS_MAX_NAME];
	} ext;
	struct pjw_rec r = { .fd = -1, .status = PJA_WALK_OK };
	char *sig = NULL;
	size_t nlen = 0;
	unsigned int i;
	jint n = 0;

	if (!atomic_load(&pja.active) || !within_rate(pja_now()))
		return;
	for (i = 0; i < NPOOL; i++) {
		int free_buf = 0;

		if (atomic_compare_exchange_strong(&pool[i].used, &free_buf, 1))
			break;
	}
	if (i == NPOOL) {
		atomic_fetch_add(&n_busy, 1);
		return;
	}
	if ((*jv)->GetStackTrace(jv, NULL, skip, (jint)pja.depth, pool[i].fi,
				 &n) ||
	    n < 0)
		n = 0;
	/* in place: both are 16 bytes, read before written */
	for (jint k = 0; k < n; k++) {
		jvmtiFrameInfo f = pool[i].fi[k];
		struct asgct_frame *a = (struct asgct_frame *)&pool[i].fi[k];

		a->method = f.method;
		a->lineno = f.location < 0 || f.location >= PJA_SEEN_BCI_MAX
				? ASGCT_NATIVE_BCI
				: (jint)f.location;
	}
	if (klass && !(*jv)->GetClassSignature(jv, klass, &sig, NULL) && sig)
		nlen = class_name(sig, ext.name, sizeof(ext.name));
	if (sig)
		(*jv)->Deallocate(jv, (unsigned char *)sig);
	ext.ev = *ev;
	ext.ev.cls = nlen; /* in the private ring: the name's length */
	r.time = time;
	r.tid = (uint32_t)pja_gettid();
	r.nframes = (uint32_t)n;
	r.flags = PJW_REC_EVENT |
		  ((uint32_t)n >= pja.depth ? PJA_WALK_TRUNCATED : 0);
	ksig_put_event(&r, &ext, sizeof(ext.ev) + ((nlen + 7) & ~(size_t)7),
		       (const struct asgct_frame *)pool[i].fi);
	atomic_store(&pool[i].used, 0);
}

/* The class names sent this session (session thread only). */
static struct cname {
	uint64_t hash;
	uint64_t id;
} * names;
static size_t names_cap, names_n;

static uint64_t fnv(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	while (n--)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h ? h : 1;
}

/* The id of class name s (its hash: names differ by hash, or are one), its
 * PJA_CLASS queued the first time; 0 when it cannot be kept. */
static uint64_t class_id(const char *s, size_t n)
{
	uint64_t h = fnv(s, n);
	struct pja_class c = { .name_len = (uint32_t)n };
	size_t i;

	if ((names_n + 1) * 2 > names_cap) {
		size_t cap = names_cap ? names_cap * 2 : 1024;
		struct cname *p = calloc(cap, sizeof(*p));

		if (!p)
			return 0;
		for (size_t j = 0; j < names_cap; j++) {
			if (!names[j].hash)
				continue;
			for (i = names[j].hash % cap; p[i].hash;
			     i = (i + 1) % cap)
				;
			p[i] = names[j];
		}
		free(names);
		names = p;
		names_cap = cap;
	}
	for (i = h % names_cap; names[i].hash; i = (i + 1) % names_cap)
		if (names[i].hash == h)
			return names[i].id;
	c.id = ++names_n;
	if (out_msg(PJA_CLASS, &c, sizeof(c), s, n, NULL, 0))
		return 0;
	names[i].hash = h;
	names[i].id = c.id;
	return c.id;
}

int jevents_name(const void *ext, uint32_t extlen, struct pjw_event *out)
{
	const char *name = (const char *)ext + sizeof(*out);

	if (extlen < sizeof(*out))
		return -1;
	memcpy(out, ext, sizeof(*out));
	if (out->cls > extlen - sizeof(*out))
		return -1;
	out->cls = out->cls ? class_id(name, out->cls) : 0;
	return 0;
}

static void set_events(jvmtiEventMode mode, uint32_t flags)
{
	jvmtiEnv *jv = pja.jvmti;

	if (flags & PJA_EV_ALLOC)
		(*jv)->SetEventNotificationMode(
		    jv, mode, JVMTI_EVENT_SAMPLED_OBJECT_ALLOC, NULL);
	if (flags & PJA_EV_LOCK) {
		(*jv)->SetEventNotificationMode(
		    jv, mode, JVMTI_EVENT_MONITOR_CONTENDED_ENTER, NULL);
		(*jv)->SetEventNotificationMode(
		    jv, mode, JVMTI_EVENT_MONITOR_CONTENDED_ENTERED, NULL);
	}
}

/* Adds the capabilities of what is asked: the PJA_EV_* it could. */
static uint32_t add_caps(uint32_t want)
{
	jvmtiEnv *jv = pja.jvmti;
	jvmtiCapabilities c;
	uint32_t got = 0;

	memset(&added, 0, sizeof(added));
	if (want & PJA_EV_ALLOC) {
		memset(&c, 0, sizeof(c));
		c.can_generate_sampled_object_alloc_events = 1;
		if (!(*jv)->AddCapabilities(jv, &c)) {
			added.can_generate_sampled_object_alloc_events = 1;
			got |= PJA_EV_ALLOC;
		}
	}
	if (want & PJA_EV_LOCK) {
		memset(&c, 0, sizeof(c));
		c.can_generate_monitor_events = 1;
		if (!(*jv)->AddCapabilities(jv, &c)) {
			added.can_generate_monitor_events = 1;
			got |= PJA_EV_LOCK;
		}
	}
	return got;
}

static int buffers(void)
{
	for (unsigned int i = 0; i < NPOOL; i++)
		if (!pool[i].fi &&
		    !(pool[i].fi = calloc(PJA_MAX_DEPTH, sizeof(*pool[i].fi))))
			return -1;
	return 0;
}

int jevents_start(JNIEnv *env, const char *p, uint32_t len)
{
	struct pja_events req;
	struct pja_events_ready rr = { 0, 0, atomic_load(&n_stray), 0 };
	uint32_t want, got = 0;
	jvmtiEnv *jv = pja.jvmti;

	if (len < sizeof(req) || atomic_load(&on) || !env)
		return 0;
	memcpy(&req, p, sizeof(req));
	want = req.flags &
	       (PJA_EV_ALLOC | PJA_EV_LOCK | PJA_EV_VTHREADS | PJA_EV_WALL);
	if (want && !buffers())
		got = add_caps(want);
	if ((got & PJA_EV_ALLOC) &&
	    (*jv)->SetHeapSamplingInterval(
		jv, req.alloc_interval && req.alloc_interval < (1u << 30)
			? (jint)req.alloc_interval
			: HOTSPOT_INTERVAL))
		got &= ~PJA_EV_ALLOC;
	if (got & PJA_EV_LOCK)
		lock_threshold_ns = req.lock_ns;
	if ((got & PJA_EV_LOCK) && lock_park_hook(env))
		rr.failed |= PJA_EV_LOCK; /* monitors only: said */
	if ((want & PJA_EV_VTHREADS) && !vthread_start(env))
		got |= want & (PJA_EV_VTHREADS | PJA_EV_WALL);
	atomic_store(&window, 0);
	atomic_store(&n_rate, 0);
	atomic_store(&n_busy, 0);
	atomic_store(&on, got);
	set_events(JVMTI_ENABLE, got);
	rr.on = got;
	rr.failed |= want & ~got;
	ready = rr;
	told = 0;
	return out_msg(PJA_EVENTS_READY, &rr, sizeof(rr), NULL, 0, NULL, 0) ? -1
									    : 0;
}

void jevents_stop(JNIEnv *env)
{
	jvmtiEnv *jv = pja.jvmti;
	uint32_t was = atomic_exchange(&on, 0);

	set_events(JVMTI_DISABLE, was);
	if (was & PJA_EV_ALLOC)
		(*jv)->SetHeapSamplingInterval(jv, HOTSPOT_INTERVAL);
	if (was & PJA_EV_VTHREADS)
		vthread_stop();
	(*jv)->RelinquishCapabilities(jv, &added);
	memset(&added, 0, sizeof(added));
	names_n = 0;
	if (names)
		memset(names, 0, names_cap * sizeof(*names));
	vthread_reset();
}

void jevents_callbacks(jvmtiEventCallbacks *cb)
{
	cb->SampledObjectAlloc = alloc_sampled;
	cb->MonitorContendedEnter = lock_enter;
	cb->MonitorContendedEntered = lock_entered;
}

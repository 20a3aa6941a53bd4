// SPDX-License-Identifier: GPL-2.0
/*
 * One of the JVM's own events recorded on the thread it happened on: what
 * every event callback (alloc.c, lock.c, vthread.c) calls. The thread's
 * stack (JVMTI GetStackTrace of the current thread: no signal, no
 * handshake) and the class the event names go into the private ring the
 * handlers write (ksig.c), for the session thread to move into the
 * reader's walk ring (wring.c, jevents.c).
 *
 * No lock and no allocation of its own: the stack goes into one of a fixed
 * pool of buffers (none free: the event is dropped and counted), the class
 * name into the callback's own stack frame. What JVMTI allocates itself
 * (the class signature) is given back at once. The events a session may
 * send are bounded per 100 ms; those over the bound are counted.
 *
 * Which events are on is jevents.c's to say (jrec_begin, jrec_end).
 */
#include <stdlib.h>
#include <string.h>

#include "pja.h"
#include "clock.h"
#include "frametype.h"
#include "jrec.h"
#include "ksig.h"
#include "perfjava/walk_ring.h"

#define NPOOL 32 /* events recorded at once */
#define WINDOW_NS 100000000ull
#define WINDOW_MAX 5000 /* events per window, at most */

static struct {
	atomic_int used;
	jvmtiFrameInfo *fi; /* PJA_MAX_DEPTH entries */
} pool[NPOOL];

static atomic_uint on; /* PJA_EV_* */
static _Atomic uint64_t window, in_window, n_rate, n_busy, n_stray;
static _Atomic uint64_t since; /* the session's start (pja_now) */
static uint64_t threshold_ns;

void jrec_stray(void)
{
	atomic_fetch_add(&n_stray, 1);
}

uint64_t jrec_strays(void)
{
	return atomic_load(&n_stray);
}

int jrec_on(uint32_t flag)
{
	return (atomic_load(&on) & flag) != 0;
}

uint32_t jrec_flags(void)
{
	return atomic_load(&on);
}

uint64_t jrec_dropped(void)
{
	return atomic_load(&n_rate) + atomic_load(&n_busy);
}

int jrec_buffers(void)
{
	for (unsigned int i = 0; i < NPOOL; i++)
		if (!pool[i].fi &&
		    !(pool[i].fi = calloc(PJA_MAX_DEPTH, sizeof(*pool[i].fi))))
			return -1;
	return 0;
}

uint64_t jrec_since(void)
{
	return atomic_load(&since);
}

void jrec_begin(uint32_t flags)
{
	atomic_store(&since, pja_now());
	atomic_store(&window, 0);
	atomic_store(&n_rate, 0);
	atomic_store(&n_busy, 0);
	atomic_store(&on, flags);
}

uint32_t jrec_end(void)
{
	return atomic_exchange(&on, 0);
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

void jrec_threshold(uint64_t ns)
{
	threshold_ns = ns;
}

int jrec_wait_kept(uint64_t waited, uint64_t *weight)
{
	uint64_t t = threshold_ns, x;

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

int jrec_lock_class(jclass k)
{
	jvmtiEnv *jv = pja.jvmti;
	char *sig = NULL;
	int yes = 0;

	/* the blocker of an acquire is the lock's own synchronizer
	 * (ReentrantLock$NonfairSync, ReentrantReadWriteLock$FairSync,
	 * Semaphore$NonfairSync) or the StampedLock; a condition's await
	 * parks on its ConditionObject, a latch on its own Sync, a queue or a
	 * future on itself: those wait for work or an event */
	if (k && !(*jv)->GetClassSignature(jv, k, &sig, NULL) && sig)
		yes = !strncmp(sig, "Ljava/util/concurrent/locks/Reentrant",
			       37) ||
		      !strncmp(sig, "Ljava/util/concurrent/locks/StampedLock;",
			       40) ||
		      !strncmp(sig, "Ljava/util/concurrent/Semaphore", 31);
	if (sig)
		(*jv)->Deallocate(jv, (unsigned char *)sig);
	return yes;
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

/* The owner's name after the class's in a private record, at most */
#define OWNER_MAX 256

void jrec_record(JNIEnv *env, struct pjw_event *ev, jclass klass, uint64_t time,
		 int skip, const char *owner)
{
	jvmtiEnv *jv = pja.jvmti;
	struct {
		struct pjw_event ev;
		char name[PJA_CLASS_MAX_NAME + OWNER_MAX];
	} ext;
	struct pjw_rec r = { .fd = -1, .status = PJA_WALK_OK };
	char *sig = NULL;
	size_t nlen = 0, olen = 0, at;
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
		nlen = class_name(sig, ext.name, PJA_CLASS_MAX_NAME);
	if (sig)
		(*jv)->Deallocate(jv, (unsigned char *)sig);
	/* the owner's name after the class's, at a multiple of 8 */
	at = (nlen + 7) & ~(size_t)7;
	if (owner) {
		olen = strnlen(owner, OWNER_MAX);
		memcpy(ext.name + at, owner, olen);
	}
	ext.ev = *ev;
	/* in the private ring: the names' lengths */
	ext.ev.cls = nlen;
	ext.ev.owner = olen;
	r.time = time;
	r.tid = (uint32_t)pja_gettid();
	r.nframes = (uint32_t)n;
	r.flags = PJW_REC_EVENT |
		  ((uint32_t)n >= pja.depth ? PJA_WALK_TRUNCATED : 0);
	ksig_put_event(&r, &ext,
		       sizeof(ext.ev) + at + ((olen + 7) & ~(size_t)7),
		       (const struct asgct_frame *)pool[i].fi);
	atomic_store(&pool[i].used, 0);
}

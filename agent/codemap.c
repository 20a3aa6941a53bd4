// SPDX-License-Identifier: GPL-2.0
/*
 * The agent's own code map, used to type the frames of a walk the way
 * async-profiler does: the top frame's pc in the interpreter makes it
 * interpreted; in a compiled method, that method is JIT-compiled and the
 * frames inside it are inlined. Below the top: a frame the walk saw run in
 * the interpreter is interpreted (frametype.c); otherwise it is inlined when
 * a live compiled method of one of its callers has an inlining record with
 * exactly that call chain (methods and call-site bcis), JIT when the walk saw
 * it compiled or its method has live compiled code, interpreted otherwise;
 * a native method is Java-native.
 *
 * Written by the JVMTI callbacks, read by the session thread, under a mutex
 * (never from a signal handler).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "perfjava/profile.h"
#include "pja.h"
#include "codemap.h"
#include "inlinerec.h"
#include "frametype.h"
#include "vmwalk.h"

#define NBUCKETS 4096
#define MAX_INLINE 16 /* deeper than HotSpot's MaxInlineLevel (15) */

struct centry {
	uint64_t start, end;
	jmethodID m; /* NULL for stubs and the interpreter */
	int interp;
	int c1; /* compiled by C1 (levels 1-3) */
	int mnext; /* next entry of the same method, -1 */
	int used;
	uint32_t uid; /* this entry's, never reused (0 when free) */
	struct inlinerec rec; /* what it inlined, by pc */
};

static pthread_mutex_t cm_lock = PTHREAD_MUTEX_INITIALIZER;
/* The range all generated code seen lies in (for signal handlers: no lock). */
static _Atomic uint64_t code_lo = UINT64_MAX, code_hi;
/* The interpreter's code (for signal handlers: the walk's frame types). */
static _Atomic uint64_t interp_lo, interp_hi;
static struct centry *ents;
static int nents, cap_ents, free_head = -1;
/* The entries by address: sorted, never overlapping (code at an address
 * replaces what was there). */
struct span {
	uint64_t start, end;
	int i;
};
static struct span *spans;
static int nspans, cap_spans;
/* The entry and record a compiled frame's pc expanded to, by pc (a walk's
 * frames repeat from one sample to the next): valid while that entry is
 * (its uid), or for a pc in no entry, until code is added (gen). The JIT
 * adds code all the time; it removes code that walks still run far less. */
#define XCACHE 4096 /* a power of two */
static struct xcache {
	uint64_t key; /* the pc */
	jmethodID m;
	uint32_t uid; /* the entry's, or gen when i < 0 */
	int i, r;
} xc[XCACHE];
static uint32_t gen = 1, next_uid = 1;
static int buckets[NBUCKETS];
static int buckets_ready;

static unsigned int hash_m(jmethodID m)
{
	uint64_t v = (uintptr_t)m;

	v ^= v >> 29;
	v *= 0x9e3779b97f4a7c15ull;
	return (v >> 40) % NBUCKETS;
}

static void entry_free(struct centry *e)
{
	inlinerec_free(&e->rec);
	memset(e, 0, sizeof(*e));
	e->mnext = -1;
}

static int alloc_entry(void)
{
	int i;

	if (free_head >= 0) {
		i = free_head;
		free_head = ents[i].mnext;
		return i;
	}
	if (nents == cap_ents) {
		int cap = cap_ents ? cap_ents * 2 : 1024;
		struct centry *p = realloc(ents, cap * sizeof(*p));

		if (!p)
			return -1;
		ents = p;
		cap_ents = cap;
	}
	ents[nents].uid = 0; /* no walk's cached entry until it is made */
	return nents++;
}

static void unlink_method(int i)
{
	int *pp = &buckets[hash_m(ents[i].m)];

	while (*pp >= 0 && *pp != i)
		pp = &ents[*pp].mnext;
	if (*pp == i)
		*pp = ents[i].mnext;
}

static void remove_index(int i)
{
	if (ents[i].m)
		unlink_method(i);
	entry_free(&ents[i]);
	ents[i].mnext = free_head;
	free_head = i;
}

/* The first span that ends after pc. */
static int span_after(uint64_t pc)
{
	int lo = 0, hi = nspans;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (spans[mid].end <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The entry holding pc, or -1. */
static int find_pc(uint64_t pc)
{
	int k = span_after(pc);

	return k < nspans && spans[k].start <= pc ? spans[k].i : -1;
}

static void span_delete(int k)
{
	memmove(spans + k, spans + k + 1, (nspans - k - 1) * sizeof(*spans));
	nspans--;
}

static int span_insert(uint64_t start, uint64_t end, int i)
{
	int k = span_after(start);

	if (nspans == cap_spans) {
		int cap = cap_spans ? cap_spans * 2 : 1024;
		struct span *p = realloc(spans, cap * sizeof(*p));

		if (!p)
			return -1;
		spans = p;
		cap_spans = cap;
	}
	memmove(spans + k + 1, spans + k, (nspans - k) * sizeof(*spans));
	spans[k] = (struct span){ start, end, i };
	nspans++;
	return 0;
}

void codemap_add(const void *start, size_t size, jmethodID m,
		 const void *records, const char *stub_name, int c1)
{
	uint64_t s = (uintptr_t)start, end = s + size;
	int i;

	pthread_mutex_lock(&cm_lock);
	if (s < atomic_load(&code_lo))
		atomic_store(&code_lo, s);
	if (end > atomic_load(&code_hi))
		atomic_store(&code_hi, end);
	if (!buckets_ready) {
		memset(buckets, 0xff, sizeof(buckets));
		buckets_ready = 1;
	}
	/* code at this address replaces whatever was there */
	for (i = span_after(s); i < nspans && spans[i].start < end;) {
		remove_index(spans[i].i);
		span_delete(i);
	}
	gen++; /* a pc that was in no entry may be now */
	i = alloc_entry();
	if (i < 0)
		goto out;
	if (span_insert(s, end, i)) {
		ents[i].mnext = free_head;
		free_head = i;
		goto out;
	}
	memset(&ents[i], 0, sizeof(ents[i]));
	ents[i].start = s;
	ents[i].end = end;
	ents[i].m = m;
	ents[i].used = 1;
	ents[i].uid = next_uid++ ?: next_uid++; /* never 0 */
	ents[i].mnext = -1;
	ents[i].interp = stub_name && !strcmp(stub_name, "Interpreter");
	if (ents[i].interp) {
		atomic_store(&interp_hi, 0);
		atomic_store(&interp_lo, s);
		atomic_store(&interp_hi, end);
	}
	ents[i].c1 = c1;
	if (m) {
		unsigned int b = hash_m(m);

		inlinerec_copy(&ents[i].rec, records);
		ents[i].mnext = buckets[b];
		buckets[b] = i;
	}
out:
	pthread_mutex_unlock(&cm_lock);
}

int codemap_in_range(uint64_t pc)
{
	return pc >= atomic_load(&code_lo) && pc < atomic_load(&code_hi);
}

int codemap_in_interpreter(uint64_t pc)
{
	return pc >= atomic_load(&interp_lo) && pc < atomic_load(&interp_hi);
}

void codemap_remove(const void *start, jmethodID m)
{
	int i;

	pthread_mutex_lock(&cm_lock);
	i = span_after((uintptr_t)start);
	if (i < nspans && spans[i].start == (uintptr_t)start &&
	    ents[spans[i].i].m == m) {
		remove_index(spans[i].i);
		span_delete(i);
	}
	pthread_mutex_unlock(&cm_lock);
}

void codemap_reset(void)
{
	int i;

	pthread_mutex_lock(&cm_lock);
	for (i = 0; i < nents; i++)
		entry_free(&ents[i]);
	nents = 0;
	nspans = 0;
	gen++;
	free_head = -1;
	memset(buckets, 0xff, sizeof(buckets));
	buckets_ready = 1;
	pthread_mutex_unlock(&cm_lock);
}

/* The frame type of m's newest live compiled code (C1 or JIT); 0 if none. */
static int live_code(jmethodID m)
{
	int i;

	if (!buckets_ready)
		return 0;
	for (i = buckets[hash_m(m)]; i >= 0; i = ents[i].mnext)
		if (ents[i].m == m)
			return ents[i].c1 ? PJ_FRAME_C1 : PJ_FRAME_JIT;
	return 0;
}

static int inlined(const struct asgct_frame *f, unsigned int j, unsigned int n)
{
	unsigned int m;

	for (m = j + 1; m < n && m <= j + MAX_INLINE; m++) {
		int i;

		for (i = buckets[hash_m(f[m].method)]; i >= 0;
		     i = ents[i].mnext)
			if (ents[i].m == f[m].method &&
			    inlinerec_chain(&ents[i].rec, f, j, m))
				return 1;
	}
	return 0;
}

/* The bci of a frame of a walk, without the walk's marks (frametype.c). */
static jint bci_of(const struct asgct_frame *f)
{
	return f->lineno >= PJA_SEEN_BCI_MAX
		   ? f->lineno & (PJA_SEEN_BCI_MAX - 1)
		   : f->lineno;
}

unsigned int codemap_retop(uint64_t pc, struct asgct_frame *frames,
			   unsigned int n, unsigned int cap)
{
	const struct centry *e;
	unsigned int l0, l1, k, keep;
	jint mark;
	int i, r0, r1;

	if (!n || n > cap)
		return n;
	pthread_mutex_lock(&cm_lock);
	i = find_pc(pc);
	if (i < 0 || !ents[i].m || !ents[i].rec.rpc)
		goto out;
	e = &ents[i];
	r0 = inlinerec_at(&e->rec, e->m, pc);
	r1 = inlinerec_ge(&e->rec, pc + 1);
	if (r0 < 0 || r1 < 0 || r0 == r1 ||
	    e->rec.roff[r1 + 1] == e->rec.roff[r1])
		goto out;
	l0 = e->rec.roff[r0 + 1] - e->rec.roff[r0];
	l1 = e->rec.roff[r1 + 1] - e->rec.roff[r1];
	if (l1 > n || l0 > cap)
		goto out;
	/* only the frames AsyncGetCallTrace named from that record */
	for (k = 0; k < l1; k++)
		if (frames[k].method != e->rec.rm[e->rec.roff[r1] + k] ||
		    bci_of(&frames[k]) != e->rec.rb[e->rec.roff[r1] + k])
			goto out;
	mark = frames[l1 - 1].lineno - bci_of(&frames[l1 - 1]);
	keep = n - l1;
	if (keep > cap - l0)
		keep = cap - l0;
	memmove(frames + l0, frames + l1, keep * sizeof(*frames));
	for (k = 0; k < l0; k++) {
		frames[k].method = e->rec.rm[e->rec.roff[r0] + k];
		frames[k].lineno = e->rec.rb[e->rec.roff[r0] + k];
	}
	frames[l0 - 1].lineno += mark; /* the compiled method's, kept */
	n = l0 + keep;
out:
	pthread_mutex_unlock(&cm_lock);
	return n;
}

unsigned int codemap_top(uint64_t pc, struct asgct_frame *frames,
			 unsigned int n, unsigned int cap)
{
	const struct centry *e = NULL;
	unsigned int len = 1, k;
	int i, r = -1;

	if (!n || frames[0].method || n > cap)
		return n;
	pthread_mutex_lock(&cm_lock);
	i = find_pc(pc);
	if (i >= 0 && ents[i].m)
		e = &ents[i];
	if (!e) { /* unloaded since: the walk keeps its callers */
		pthread_mutex_unlock(&cm_lock);
		memmove(frames, frames + 1, (n - 1) * sizeof(*frames));
		return n - 1;
	}
	r = inlinerec_at(&e->rec, e->m, pc);
	if (r >= 0)
		len = e->rec.roff[r + 1] - e->rec.roff[r];
	if (len > cap)
		len = cap;
	/* the callers move up by what the top frame inlined; the deepest
	 * go when the walk is full */
	if (n - 1 > cap - len)
		n = cap - len + 1;
	memmove(frames + len, frames + 1, (n - 1) * sizeof(*frames));
	if (r < 0) {
		frames[0].method = e->m;
		frames[0].lineno = 0;
	} else {
		for (k = 0; k < len; k++) {
			frames[k].method = e->rec.rm[e->rec.roff[r] + k];
			frames[k].lineno = e->rec.rb[e->rec.roff[r] + k];
		}
	}
	pthread_mutex_unlock(&cm_lock);
	return n - 1 + len;
}

void codemap_classify(uint64_t pc, struct asgct_frame *frames,
		      struct pja_frame *out, unsigned int n)
{
	static uint8_t seen[PJA_MAX_DEPTH]; /* under cm_lock */
	unsigned int j, first = 0;
	int i;

	pthread_mutex_lock(&cm_lock);
	if (n > PJA_MAX_DEPTH)
		n = PJA_MAX_DEPTH;
	/* the walk's own marks (frametype.c) off the bcis */
	for (j = 0; j < n; j++) {
		seen[j] = 0;
		if (frames[j].lineno >= PJA_SEEN_BCI_MAX) {
			seen[j] = (uint8_t)(frames[j].lineno >> PJA_SEEN_SHIFT);
			frames[j].lineno &= PJA_SEEN_BCI_MAX - 1;
		}
	}
	i = n ? find_pc(pc) : -1;
	if (i >= 0) {
		const struct centry *e = &ents[i];
		unsigned int k;

		if (e->interp) {
			out[0].type = PJ_FRAME_INTERPRETED;
			first = 1;
		} else if (e->m) {
			for (k = 0; k < n && k < MAX_INLINE; k++)
				if (frames[k].method == e->m)
					break;
			if (k < n && k < MAX_INLINE) {
				for (j = 0; j < k; j++)
					out[j].type = PJ_FRAME_INLINED;
				out[k].type = e->c1 ? PJ_FRAME_C1
						    : PJ_FRAME_JIT;
				first = k + 1;
			}
		}
	}
	/* below the top: as the stack showed the frame, else guessed from
	 * whether the method has live compiled code */
	for (j = first; j < n; j++) {
		if (frames[j].lineno == -3)
			out[j].type = PJ_FRAME_JAVA_NATIVE;
		else if (seen[j] == PJA_SEEN_INTERPRETED)
			out[j].type = PJ_FRAME_INTERPRETED;
		else if (buckets_ready && inlined(frames, j, n))
			out[j].type = PJ_FRAME_INLINED;
		else if (seen[j] == PJA_SEEN_COMPILED)
			out[j].type = live_code(frames[j].method)
					  ?: PJ_FRAME_JIT;
		else
			out[j].type = live_code(frames[j].method)
					  ?: PJ_FRAME_INTERPRETED;
	}
	pthread_mutex_unlock(&cm_lock);
}

/* A compiled frame of a raw walk: the methods it inlined at pc down to
 * itself, into out (at most cap). */
static unsigned int expand_code(jmethodID m, uint64_t pc,
				struct asgct_frame *out, uint8_t *types,
				unsigned int cap)
{
	uint64_t key = pc;
	struct xcache *x = &xc[(key ^ key >> 13) & (XCACHE - 1)];
	const struct centry *e;
	unsigned int k, len;
	uint8_t type;
	int i, r = -1;

	if (x->key == key && x->m == m &&
	    (x->i < 0 ? x->uid == gen
		      : x->i < nents && ents[x->i].uid == x->uid)) {
		i = x->i;
		r = x->r;
	} else {
		i = find_pc(pc);
		if (i >= 0 && ents[i].m == m)
			r = inlinerec_at(&ents[i].rec, ents[i].m, pc);
		else
			i = -1;
		*x = (struct xcache){ key, m, i < 0 ? gen : ents[i].uid, i, r };
	}
	e = i >= 0 ? &ents[i] : NULL;
	type = e && e->c1 ? PJ_FRAME_C1 : PJ_FRAME_JIT;
	if (r < 0) { /* no record (or the code is gone): the method alone */
		out[0].method = m;
		out[0].lineno = 0;
		types[0] = type;
		return 1;
	}
	len = e->rec.roff[r + 1] - e->rec.roff[r];
	for (k = 0; k < len && k < cap; k++) {
		out[k].method = e->rec.rm[e->rec.roff[r] + k];
		out[k].lineno = e->rec.rb[e->rec.roff[r] + k];
		types[k] = k + 1 < len ? PJ_FRAME_INLINED : type;
	}
	return k;
}

unsigned int codemap_expand(const struct asgct_frame *raw, unsigned int n,
			    struct asgct_frame *out, uint8_t *types,
			    unsigned int cap, int *truncated)
{
	unsigned int j, k = 0;

	pthread_mutex_lock(&cm_lock);
	for (j = 0; j < n && k < cap; j++) {
		jint b = raw[j].lineno;

		if (b == PJA_RAW_CODE && j + 1 < n &&
		    raw[j + 1].lineno == PJA_RAW_PC) {
			k += expand_code(raw[j].method,
					 (uintptr_t)raw[j + 1].method, out + k,
					 types + k, cap - k);
			j++;
			continue;
		}
		out[k].method = raw[j].method;
		if (b == ASGCT_NATIVE_BCI) {
			out[k].lineno = b;
			types[k] = PJ_FRAME_JAVA_NATIVE;
		} else {
			out[k].lineno = b & (PJA_SEEN_BCI_MAX - 1);
			types[k] = PJ_FRAME_INTERPRETED;
		}
		k++;
	}
	*truncated = j < n;
	pthread_mutex_unlock(&cm_lock);
	return k;
}

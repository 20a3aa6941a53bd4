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
#include <jvmticmlr.h>

#define NBUCKETS 4096
#define MAX_INLINE 16 /* deeper than HotSpot's MaxInlineLevel (15) */

struct centry {
	uint64_t start, end;
	jmethodID m; /* NULL for stubs and the interpreter */
	int interp;
	int c1; /* compiled by C1 (levels 1-3) */
	int mnext; /* next entry of the same method, -1 */
	int used;
	uint32_t nrec;
	uint32_t *roff; /* nrec + 1 offsets into rm/rb */
	jmethodID *rm; /* innermost first, the root last */
	jint *rb;
	uint64_t *rpc; /* each record's last pc (of its run of duplicates) */
};

static pthread_mutex_t cm_lock = PTHREAD_MUTEX_INITIALIZER;
/* The range all generated code seen lies in (for signal handlers: no lock). */
static _Atomic uint64_t code_lo = UINT64_MAX, code_hi;
/* The interpreter's code (for signal handlers: the walk's frame types). */
static _Atomic uint64_t interp_lo, interp_hi;
static struct centry *ents;
static int nents, cap_ents, free_head = -1;
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
	free(e->roff);
	free(e->rm);
	free(e->rb);
	free(e->rpc);
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

/* Copies the inlining records, dropping consecutive duplicates. */
static void copy_records(struct centry *e, const void *compile_info)
{
	const jvmtiCompiledMethodLoadRecordHeader *h = compile_info;
	uint32_t total = 0, n = 0, k = 0;
	jint i, j;

	for (; h; h = h->next) {
		const jvmtiCompiledMethodLoadInlineRecord *r;

		if (h->kind != JVMTI_CMLR_INLINE_INFO)
			continue;
		r = (const void *)h;
		for (i = 0; i < r->numpcs; i++)
			total += r->pcinfo[i].numstackframes;
		e->roff = malloc((r->numpcs + 1) * sizeof(uint32_t));
		e->rm = malloc((total ? total : 1) * sizeof(jmethodID));
		e->rb = malloc((total ? total : 1) * sizeof(jint));
		e->rpc = malloc((r->numpcs ? r->numpcs : 1) * sizeof(uint64_t));
		if (!e->roff || !e->rm || !e->rb || !e->rpc) {
			free(e->roff);
			free(e->rm);
			free(e->rb);
			free(e->rpc);
			e->roff = NULL;
			e->rm = NULL;
			e->rb = NULL;
			e->rpc = NULL;
			return;
		}
		for (i = 0; i < r->numpcs; i++) {
			const PCStackInfo *p = &r->pcinfo[i];
			uint32_t d = p->numstackframes;

			if (n && d == e->roff[n] - e->roff[n - 1] &&
			    !memcmp(e->rm + e->roff[n - 1], p->methods,
				    d * sizeof(jmethodID)) &&
			    !memcmp(e->rb + e->roff[n - 1], p->bcis,
				    d * sizeof(jint))) {
				e->rpc[n - 1] = (uintptr_t)p->pc;
				continue;
			}
			e->roff[n] = k;
			e->rpc[n] = (uintptr_t)p->pc;
			for (j = 0; j < p->numstackframes; j++) {
				e->rm[k] = p->methods[j];
				e->rb[k] = p->bcis[j];
				k++;
			}
			n++;
			e->roff[n] = k;
		}
		e->nrec = n;
		return;
	}
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
	for (i = 0; i < nents; i++)
		if (ents[i].used && ents[i].start < end && s < ents[i].end)
			remove_index(i);
	i = alloc_entry();
	if (i < 0)
		goto out;
	memset(&ents[i], 0, sizeof(ents[i]));
	ents[i].start = s;
	ents[i].end = end;
	ents[i].m = m;
	ents[i].used = 1;
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

		copy_records(&ents[i], records);
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
	for (i = 0; i < nents; i++)
		if (ents[i].used && ents[i].start == (uintptr_t)start &&
		    ents[i].m == m) {
			remove_index(i);
			break;
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

/* Whether entry e has a record whose tail is the chain frames[j..m]. */
static int has_chain(const struct centry *e, const struct asgct_frame *f,
		     unsigned int j, unsigned int m)
{
	uint32_t len = m - j + 1, r, t;

	for (r = 0; r < e->nrec; r++) {
		uint32_t a = e->roff[r], b = e->roff[r + 1];

		if (b - a < len)
			continue;
		a = b - len; /* the chain ends at the root */
		for (t = 0; t < len; t++) {
			if (e->rm[a + t] != f[j + t].method)
				break;
			if (t && e->rb[a + t] != f[j + t].lineno)
				break;
		}
		if (t == len)
			return 1;
	}
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
			    has_chain(&ents[i], f, j, m))
				return 1;
	}
	return 0;
}

/*
 * The inlining record that stands for pc, as AsyncGetCallTrace picks its
 * debug information for a pc between them (pc_desc_near(pc + 1)): the first
 * record after pc. -1 when none is, or its chain does not end at the
 * compiled method itself.
 */
static int record_at(const struct centry *e, uint64_t pc)
{
	int best = -1;

	for (uint32_t r = 0; r < e->nrec; r++)
		if (e->rpc[r] > pc && (best < 0 || e->rpc[r] < e->rpc[best]))
			best = (int)r;
	if (best >= 0 && (e->roff[best + 1] == e->roff[best] ||
			  e->rm[e->roff[best + 1] - 1] != e->m))
		return -1;
	return best;
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
	for (i = 0; i < nents; i++)
		if (ents[i].used && ents[i].m && pc >= ents[i].start &&
		    pc < ents[i].end) {
			e = &ents[i];
			break;
		}
	if (!e) { /* unloaded since: the walk keeps its callers */
		pthread_mutex_unlock(&cm_lock);
		memmove(frames, frames + 1, (n - 1) * sizeof(*frames));
		return n - 1;
	}
	if (e->rpc)
		r = record_at(e, pc);
	if (r >= 0)
		len = e->roff[r + 1] - e->roff[r];
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
			frames[k].method = e->rm[e->roff[r] + k];
			frames[k].lineno = e->rb[e->roff[r] + k];
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
	for (i = 0; i < nents && n; i++) {
		const struct centry *e = &ents[i];
		unsigned int k;

		if (!e->used || pc < e->start || pc >= e->end)
			continue;
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
		break;
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

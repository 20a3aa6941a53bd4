// SPDX-License-Identifier: GPL-2.0
/*
 * A compiled method's inlining records (JVMTI's CompiledMethodLoad
 * compile_info, JVMTI_CMLR_INLINE_INFO): copied once, runs of identical
 * records kept as one, then looked up by pc (the record that names the
 * frames a compiled frame inlined there) and by call chain (whether a walk's
 * frames were inlined into it). The code map (codemap.c) keeps one per
 * compiled method, under its lock.
 */
#include <stdlib.h>
#include <string.h>

#include "pja.h"
#include "inlinerec.h"
#include <jvmticmlr.h>

void inlinerec_free(struct inlinerec *e)
{
	free(e->roff);
	free(e->rm);
	free(e->rb);
	free(e->rpc);
	memset(e, 0, sizeof(*e));
}

/* Copies the inlining records, dropping consecutive duplicates. */
void inlinerec_copy(struct inlinerec *e, const void *compile_info)
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
			inlinerec_free(e);
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

int inlinerec_chain(const struct inlinerec *e, const struct asgct_frame *f,
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

int inlinerec_ge(const struct inlinerec *e, uint64_t pc)
{
	uint32_t lo = 0, hi = e->nrec;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (e->rpc[mid] < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < e->nrec ? (int)lo : -1;
}

/*
 * The inlining record that stands for pc: the first at or after it, -1 when
 * none is or its chain does not end at the compiled method itself. C2 puts a
 * record where an instruction ends (output.cpp: observe_instruction after
 * the emit), so the record at pc is the instruction just completed: at a
 * return address, the call; at an interrupted pc, the instruction the
 * sample's time went to, as async-profiler takes it. AsyncGetCallTrace takes
 * the record after pc + 1 (pc_desc_near) instead: a loop inlined before a
 * call then gives the time of its last instruction to the call site after
 * it (the Workload on Temurin 25: 10 % of the samples moved from methodA and
 * methodB to the getCurrentThreadCpuTime that follows them).
 */
int inlinerec_at(const struct inlinerec *e, jmethodID m, uint64_t pc)
{
	int r = e->rpc ? inlinerec_ge(e, pc) : -1;

	if (r >= 0 &&
	    (e->roff[r + 1] == e->roff[r] || e->rm[e->roff[r + 1] - 1] != m))
		return -1;
	return r;
}

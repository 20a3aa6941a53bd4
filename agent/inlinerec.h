/* SPDX-License-Identifier: GPL-2.0 */
/* inlinerec.c: a compiled method's inlining records. */
#ifndef PJ_AGENT_INLINEREC_H
#define PJ_AGENT_INLINEREC_H

#include "pja.h"

/* Record r's frames are rm[roff[r]..roff[r + 1]) with their bcis in rb,
 * innermost first, the compiled method itself last; rpc[r] is the last pc
 * of its run of identical records, in code order. */
struct inlinerec {
	uint32_t nrec;
	uint32_t *roff; /* nrec + 1 offsets into rm/rb */
	jmethodID *rm; /* innermost first, the root last */
	jint *rb;
	uint64_t *rpc; /* each record's last pc (of its run of duplicates) */
};
/* Copies the inlining records of compile_info (CompiledMethodLoad's),
 * dropping consecutive duplicates; none when out of memory. */
void inlinerec_copy(struct inlinerec *e, const void *compile_info);
void inlinerec_free(struct inlinerec *e);
/* Whether e has a record whose tail is the chain f[j..m] (methods, and the
 * call sites' bcis above f[j]). */
int inlinerec_chain(const struct inlinerec *e, const struct asgct_frame *f,
		    unsigned int j, unsigned int m);
/* The first record whose pc is at or after pc, or -1: the records' pcs
 * only grow (HotSpot's PcDescs are in code order). */
int inlinerec_ge(const struct inlinerec *e, uint64_t pc);
/* The record that stands for pc in the code of compiled method m (see
 * inlinerec.c), or -1. */
int inlinerec_at(const struct inlinerec *e, jmethodID m, uint64_t pc);

#endif

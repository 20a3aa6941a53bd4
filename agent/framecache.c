// SPDX-License-Identifier: GPL-2.0
/*
 * What the walk learnt of a caller's frame, by its return address: the code
 * blob, its frame's size and its compiled method's id (vmwalk.c). A walk at
 * the sample steps over the same few callers again and again, and finding
 * one in the JVM's structures (the code heaps, their segment map, the blob's
 * header and name, then Method, ConstMethod, ConstantPool, InstanceKlass
 * and the class's jmethodID array) reads a dozen or more cache lines that
 * the sampled thread's own work then misses. An entry here is half a line;
 * the walk still checks it against the blob (vmstructs_blob_same), which
 * reads two more.
 *
 * A fixed table, direct mapped, written and read by signal handlers on any
 * thread: no lock, no allocation. Each entry has a sequence count, odd while
 * it is written. A writer takes the entry with a compare-and-swap; another
 * writer, or a handler that interrupted the first on its own thread, leaves
 * it alone. A reader keeps a copy only when the count was even and the same
 * before and after it.
 */
#include "framecache.h"

#define FC_N 256 /* entries: a power of two */

static struct fc_slot {
	atomic_uint seq;
	atomic_uint words; /* and PJA_STEP_* flags */
	_Atomic uint64_t pc, blob, tag;
} slots[FC_N];
_Static_assert(sizeof(struct fc_slot) == 32, "half a cache line");

static struct fc_slot *slot_of(uint64_t pc)
{
	return &slots[(pc ^ pc >> 8 ^ pc >> 16) & (FC_N - 1)];
}

int framecache_get(uint64_t pc, struct pja_step *e)
{
	struct fc_slot *s = slot_of(pc);
	unsigned int seq = atomic_load_explicit(&s->seq, memory_order_acquire);
	unsigned int w;

	if (seq & 1 || atomic_load_explicit(&s->pc, memory_order_relaxed) != pc)
		return 0;
	w = atomic_load_explicit(&s->words, memory_order_relaxed);
	e->blob = atomic_load_explicit(&s->blob, memory_order_relaxed);
	e->tag = atomic_load_explicit(&s->tag, memory_order_relaxed);
	atomic_thread_fence(memory_order_acquire);
	if (atomic_load_explicit(&s->seq, memory_order_relaxed) != seq)
		return 0;
	e->words = w & PJA_STEP_WORDS;
	e->flags = w & ~PJA_STEP_WORDS;
	return 1;
}

void framecache_put(uint64_t pc, const struct pja_step *e)
{
	struct fc_slot *s = slot_of(pc);
	unsigned int seq = atomic_load_explicit(&s->seq, memory_order_relaxed);

	if (seq & 1 || !atomic_compare_exchange_strong(&s->seq, &seq, seq + 1))
		return;
	atomic_store_explicit(&s->pc, pc, memory_order_relaxed);
	atomic_store_explicit(&s->words, (e->words & PJA_STEP_WORDS) | e->flags,
			      memory_order_relaxed);
	atomic_store_explicit(&s->blob, e->blob, memory_order_relaxed);
	atomic_store_explicit(&s->tag, e->tag, memory_order_relaxed);
	atomic_store_explicit(&s->seq, seq + 2, memory_order_release);
}

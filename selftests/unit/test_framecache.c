// SPDX-License-Identifier: GPL-2.0
/*
 * The walk's frame cache (agent/framecache.c): an entry read back as it was
 * put, another return address never given one it does not own, and under
 * writers racing on one entry from two threads, every copy a reader keeps
 * is one that a writer put whole, never half of two.
 */
#include <pthread.h>
#include <stdint.h>

#include "framecache.h"
#include "tap.h"

/* An entry made from its pc alone, so that a reader can check it. */
static struct pja_step entry_of(uint64_t pc)
{
	return (struct pja_step){ .blob = pc * 3,
				  .tag = pc * 5,
				  .words = (unsigned int)(pc >> 4) & 0xfff,
				  .flags = pc & 0x10 ? PJA_STEP_NMETHOD : 0 };
}

static int whole(uint64_t pc, const struct pja_step *e)
{
	struct pja_step w = entry_of(pc);

	return e->blob == w.blob && e->tag == w.tag && e->words == w.words &&
	       e->flags == w.flags;
}

/* Two pcs that share an entry (their hash differs by nothing in the low
 * bits the table keeps). */
#define PC_A 0x7f0000001230ull
#define PC_B (PC_A + (256ull << 24))

static atomic_int stop;
static atomic_ulong kept, torn;

static void *writer(void *arg)
{
	uint64_t pc = (uintptr_t)arg;

	while (!atomic_load(&stop)) {
		struct pja_step e = entry_of(pc);

		framecache_put(pc, &e);
	}
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop)) {
		struct pja_step e;

		if (framecache_get(PC_A, &e))
			atomic_fetch_add(whole(PC_A, &e) ? &kept : &torn, 1);
		if (framecache_get(PC_B, &e))
			atomic_fetch_add(whole(PC_B, &e) ? &kept : &torn, 1);
	}
	return NULL;
}

int main(void)
{
	struct pja_step e = entry_of(PC_A), got;
	pthread_t t[3];

	ok(!framecache_get(PC_A, &got), "an empty table holds nothing");
	framecache_put(PC_A, &e);
	ok(framecache_get(PC_A, &got) && whole(PC_A, &got),
	   "an entry reads back as it was put");
	ok(!framecache_get(PC_A + 1, &got),
	   "another return address does not get it");
	e = entry_of(PC_B);
	framecache_put(PC_B, &e);
	ok(framecache_get(PC_B, &got) && whole(PC_B, &got) &&
	       !framecache_get(PC_A, &got),
	   "a return address sharing its entry takes it over");

	pthread_create(&t[0], NULL, writer, (void *)(uintptr_t)PC_A);
	pthread_create(&t[1], NULL, writer, (void *)(uintptr_t)PC_B);
	pthread_create(&t[2], NULL, reader, NULL);
	for (int i = 0; i < 2000 && atomic_load(&kept) < 100000; i++) {
		struct timespec ts = { 0, 1000000 };

		nanosleep(&ts, NULL);
	}
	atomic_store(&stop, 1);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	ok(atomic_load(&kept) > 0 && atomic_load(&torn) == 0,
	   "two writers racing on one entry: %lu copies kept, %lu torn",
	   atomic_load(&kept), atomic_load(&torn));
	return tap_done();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Each carrier's mounted virtual thread, by the carrier's tid: written by
 * vthread.c's mount and unmount events, read by the handler of a sample
 * (ksig.c) to say which virtual thread the walk is of. No lock, no
 * allocation, one slot per carrier, cleared at unmount and end, so nothing
 * outlives a virtual thread.
 */
#include "clock.h"
#include "mounted.h"

#define NSLOT 4096 /* carriers at once, at most */

static struct {
	_Atomic int32_t tid;
	_Atomic uint64_t vthread;
} slot[NSLOT];

static atomic_int on;

/* Thread tid's slot; NULL when the table is full (or, not add, none). */
static _Atomic uint64_t *slot_of(int32_t tid, int add)
{
	int32_t free_tid = 0;
	unsigned int i = (uint32_t)tid * 2654435761u % NSLOT;

	for (unsigned int n = 0; n < NSLOT; n++, i = (i + 1) % NSLOT) {
		int32_t t = atomic_load(&slot[i].tid);

		if (t == tid)
			return &slot[i].vthread;
		if (t == 0 && add &&
		    atomic_compare_exchange_strong(&slot[i].tid, &free_tid,
						   tid))
			return &slot[i].vthread;
		if (t == 0 && !add)
			return NULL;
		free_tid = 0;
	}
	return NULL;
}

uint64_t mounted_vthread(pid_t tid)
{
	_Atomic uint64_t *s;

	if (!atomic_load(&on) || !(s = slot_of(tid, 0)))
		return 0;
	return atomic_load(s);
}

void mounted_set(uint64_t id)
{
	_Atomic uint64_t *s = slot_of(pja_gettid(), id != 0);

	if (s)
		atomic_store(s, id);
}

int mounted_first(pid_t tid, uint64_t id)
{
	_Atomic uint64_t *s = slot_of(tid, 1);
	uint64_t none = 0; /* a mount since wins */

	if (!s)
		return -1;
	atomic_compare_exchange_strong(s, &none, id);
	return 0;
}

void mounted_on(void)
{
	atomic_store(&on, 1);
}

void mounted_off(void)
{
	atomic_store(&on, 0);
	for (unsigned int i = 0; i < NSLOT; i++)
		atomic_store(&slot[i].vthread, 0);
}

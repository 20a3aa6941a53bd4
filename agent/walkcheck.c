// SPDX-License-Identifier: GPL-2.0
/*
 * Tests only (PERFJAVA_AGENT_WALKCHECK in the JVM's environment): every walk
 * the agent took itself at a sample (vmwalk.c) is walked again by
 * AsyncGetCallTrace on the same signal, and the session thread compares the
 * two once named: the same methods and bcis, frame for frame, where
 * AsyncGetCallTrace walked without a recovery. The counts go
 * to the reader in the walk ring's head; the first differences are printed
 * on the JVM's stderr, both walks' frames as method ids and bcis.
 */
#include <stdio.h>
#include <string.h>

#include "methods.h"
#include "walkcheck.h"

#define LOGGED 5
#define KEPT 8 /* walks of threads whose twins interleave */
#define KEPT_FRAMES 512

static struct {
	uint32_t tid;
	uint64_t time; /* 0: free */
	unsigned int n;
	struct pja_frame f[KEPT_FRAMES];
} kept[KEPT];
static unsigned int next;
static uint64_t checked, same, logged;

void walkcheck_reset(void)
{
	memset(kept, 0, sizeof(kept));
	checked = same = logged = 0;
}

void walkcheck_keep(const struct pjw_rec *r, const struct pja_frame *f,
		    unsigned int n)
{
	unsigned int k = next++ % KEPT;

	kept[k].tid = r->tid;
	kept[k].time = r->time;
	kept[k].n = n < KEPT_FRAMES ? n : KEPT_FRAMES;
	memcpy(kept[k].f, f, kept[k].n * sizeof(*f));
}

static void print(const char *who, const struct pja_frame *f, unsigned int n)
{
	char name[256];

	fprintf(stderr, "perfjava agent: walk check: %s:", who);
	for (unsigned int i = 0; i < n && i < 12; i++) {
		if (method_full_name((jmethodID)(uintptr_t)f[i].method, name,
				     sizeof(name)))
			snprintf(name, sizeof(name), "%llx",
				 (unsigned long long)f[i].method);
		name[strcspn(name, "(")] = 0;
		fprintf(stderr, " %s@%d/%u", name, f[i].bci, f[i].type);
	}
	fprintf(stderr, "%s\n", n > 12 ? " ..." : "");
}

void walkcheck_twin(const struct pjw_rec *r, const struct pja_frame *f,
		    unsigned int n)
{
	unsigned int i, k;

	for (k = 0; k < KEPT; k++)
		if (kept[k].time && kept[k].time == r->time &&
		    kept[k].tid == r->tid)
			break;
	/* a walk AsyncGetCallTrace had to recover is compared by no one:
	 * ours differs there by design (the frame it stepped over, the
	 * call site of a stub's caller) */
	if (k == KEPT || r->status != PJA_WALK_OK || PJA_WALK_HOW(r->flags))
		return;
	kept[k].time = 0;
	if (n > KEPT_FRAMES)
		n = KEPT_FRAMES;
	checked++;
	for (i = 0; i < n && i < kept[k].n; i++)
		if (f[i].method != kept[k].f[i].method ||
		    f[i].bci != kept[k].f[i].bci)
			break;
	if (i == n && n == kept[k].n) {
		same++;
		return;
	}
	if (logged++ >= LOGGED)
		return;
	fprintf(
	    stderr,
	    "perfjava agent: walk check: thread %u pc %llx differs at frame %u\n",
	    r->tid, (unsigned long long)r->pc, i);
	print("ours", kept[k].f, kept[k].n);
	print("AsyncGetCallTrace", f, n);
}

void walkcheck_put(struct pjw_head *hd)
{
	__atomic_store_n(&hd->checked, checked, __ATOMIC_RELAXED);
	__atomic_store_n(&hd->check_same, same, __ATOMIC_RELAXED);
}

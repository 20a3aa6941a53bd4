// SPDX-License-Identifier: GPL-2.0
/* The targets' threads listed again from /proc; see record/rescan.h. */
#include "record/family.h"
#include "record/recorder.h"
#include "record/rescan.h"
#include "record/rproc.h"
#include "record/target.h"
#include "rings/threads.h"

#define SCAN_SOON_NS 10000000ULL /* a JVM's new thread: rescan_soon */

/*
 * p's new threads from /proc/PID/task, only while the pid is still the
 * target's: rings opened by a scan that raced with its exit (whose pid may
 * name another process by then) are closed unread.
 */
static void scan_threads(struct recorder *rec, struct proc *p)
{
	unsigned int bad, before = rec->th.n;

	if (!rproc(p)->follow || rproc(p)->ended ||
	    target_gone(&rproc(p)->tgt) || family_inherits(rec, p))
		return;
	threads_scan(&rec->th, p->pid, &bad);
	if (!target_gone(&rproc(p)->tgt))
		return;
	while (rec->th.n > before)
		threads_remove(&rec->th, rec->th.v[rec->th.n - 1]);
}

void rescan_all(struct recorder *rec)
{
	for (unsigned int i = 0; i < rec->procs.n; i++)
		scan_threads(rec, rec->procs.v[i]);
}

void rescan_soon(struct proc *p, uint64_t now)
{
	if (!rproc(p)->scan_due)
		rproc(p)->scan_due = rproc(p)->scanned_at + SCAN_SOON_NS > now
					 ? rproc(p)->scanned_at + SCAN_SOON_NS
					 : now;
}

uint64_t rescan_due(struct recorder *rec, uint64_t now)
{
	uint64_t next = UINT64_MAX;

	for (unsigned int i = 0; i < rec->procs.n; i++) {
		struct proc *p = rec->procs.v[i];

		if (!rproc(p)->scan_due)
			continue;
		if (rproc(p)->scan_due > now) {
			next = rproc(p)->scan_due < next ? rproc(p)->scan_due
							 : next;
			continue;
		}
		rproc(p)->scan_due = 0;
		rproc(p)->scanned_at = now;
		scan_threads(rec, p);
	}
	return next;
}

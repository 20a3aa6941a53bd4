/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The targets' threads listed again from /proc/PID/task (the kernel's
 * word, not the agent's) by the poll loop: each one's new threads get
 * rings, only while the pid is still the target's (rings opened by a scan
 * that raced with its exit, whose pid may name another process by then,
 * are closed unread); a process whose threads all inherit is not listed.
 */
#ifndef PJ_USER_RECORD_RESCAN_H
#define PJ_USER_RECORD_RESCAN_H

#include <stdint.h>

struct proc;
struct recorder;

/* Every process followed, listed now. */
void rescan_all(struct recorder *rec);
/*
 * A JVM's agent said a thread of p started (JVMTI ThreadStart, on the new
 * thread): its events open soon, rather than at its creator's next drain,
 * up to the longest drain interval later. A process's threads are listed
 * so at most every 10 ms: a start sooner waits for that.
 */
void rescan_soon(struct proc *p, uint64_t now);
/* Lists the threads of the processes due; when the next is (UINT64_MAX:
 * none). */
uint64_t rescan_due(struct recorder *rec, uint64_t now);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Process and thread ids as a process in another pid namespace sees them
 * (the last field of NSpid in /proc/PID/task/TID/status), and the target's
 * effective credentials.
 */
#ifndef PJ_USER_NSPID_H
#define PJ_USER_NSPID_H

#include <sys/types.h>

/* The id of thread tid of process pid in pid's own namespace (tid 0: the
 * process itself). -1 when it cannot be read. */
pid_t nspid_of(pid_t pid, pid_t tid);
/* Effective uid and gid of pid. 0 on success, -1 otherwise. */
int nspid_creds(pid_t pid, uid_t *euid, gid_t *egid);
/* Whether pid lives in our own pid namespace (ids are the same). */
int nspid_same_ns(pid_t pid);

#endif

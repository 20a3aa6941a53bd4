/* SPDX-License-Identifier: GPL-2.0 */
/* Fields of /proc/PID/status and /proc/PID/task/TID/status. The target
 * writes none of it, but its length and content are still read bounded. */
#ifndef PJ_USER_PROCFS_H
#define PJ_USER_PROCFS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The value after key (e.g. "NSpid:") in the status file of thread tid of
 * pid (tid 0: of the process), copied into buf. 0, or -1 when the file or
 * the field is missing. */
int proc_status_field(pid_t pid, pid_t tid, const char *key, char *buf,
		      size_t len);
/* Whether process pid has exited or is exiting (no /proc entry, a zombie,
 * or in exit()): an error seen while it went away is that, not its own
 * cause. */
int proc_gone(pid_t pid);
/* When pid started (field 22 of /proc/PID/stat, clock ticks since boot):
 * with the pid, who it is. 0, or -1 when it cannot be read. */
int proc_start_time(pid_t pid, uint64_t *ticks);
/* len bytes of pid's memory at addr (/proc/PID/mem) in a malloc'ed
 * buffer; NULL unless all of them could be read. */
void *proc_read_mem(pid_t pid, uint64_t addr, size_t len);

#endif

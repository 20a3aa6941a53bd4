/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What /proc says of a process or one of its threads (tid 0: of the
 * process): its paths, its small files, status fields, comm and command
 * line, whether it is there, its memory. The target writes none of it but
 * chooses much (its comm, its arguments): every read is bounded and every
 * string NUL-terminated.
 */
#ifndef PJ_USER_PROCFS_H
#define PJ_USER_PROCFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* "/proc/PID/WHAT", or "/proc/PID/task/TID/WHAT" (what "" for the
 * directory), into buf; buf. */
const char *proc_path(char *buf, size_t len, pid_t pid, pid_t tid,
		      const char *what);
/* The start of that file, at most len - 1 bytes and a NUL. 0, or -1 when it
 * cannot be read. */
int proc_read(pid_t pid, pid_t tid, const char *what, char *buf, size_t len);
/* /proc/PID/WHAT (root, cwd) opened as a directory to resolve paths in
 * (O_PATH), or -1 with errno. */
int proc_dir(pid_t pid, const char *what);
/* Whether /proc/PID (tid: /proc/PID/task/TID) is there. */
bool proc_exists(pid_t pid, pid_t tid);
/* Its comm, without the newline ("" when it cannot be read). */
void proc_comm(pid_t pid, pid_t tid, char *buf, size_t len);
/* pid's command line, its arguments joined by spaces ("" when it cannot be
 * read). */
void proc_cmdline(pid_t pid, char *buf, size_t len);
/* Whether the NUL-separated /proc/PID/WHAT (cmdline, environ) holds needle
 * in its first 64 KiB. */
bool proc_contains(pid_t pid, const char *what, const char *needle);
/* The value after key (e.g. "NSpid:") in the status file of thread tid of
 * pid (tid 0: of the process), copied into buf. 0, or -1 when the file or
 * the field is missing. */
int proc_status_field(pid_t pid, pid_t tid, const char *key, char *buf,
		      size_t len);
/* The real uid of pid (the user who started it: a set-user-ID program or
 * a non-dumpable process is still its user's). 0, or -1. */
int proc_uid(pid_t pid, uid_t *uid);
/* The same, and in *kthread whether pid is a kernel thread as its status
 * says (Linux 6.0's "Kthread:"; -1 when it does not say), from one read. */
int proc_uid_kthread(pid_t pid, uid_t *uid, int *kthread);
/* Whether process pid has exited or is exiting (no /proc entry, a zombie,
 * or in exit()): an error seen while it went away is that, not its own
 * cause. */
int proc_gone(pid_t pid);
/* When pid started (field 22 of /proc/PID/stat, clock ticks since boot):
 * with the pid, who it is. 0, or -1 when it cannot be read. */
int proc_start_time(pid_t pid, uint64_t *ticks);
/* The same of its thread tid (0: of pid). */
int proc_task_start_time(pid_t pid, pid_t tid, uint64_t *ticks);
/* len bytes of pid's memory at addr (/proc/PID/mem) in a malloc'ed
 * buffer; NULL unless all of them could be read. */
void *proc_read_mem(pid_t pid, uint64_t addr, size_t len);

#endif

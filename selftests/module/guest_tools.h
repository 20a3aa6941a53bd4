/* SPDX-License-Identifier: GPL-2.0 */
/* What guest_test does besides its checks: selftests/module/guest_tools.c. */
#ifndef PJ_GUEST_TOOLS_H
#define PJ_GUEST_TOOLS_H

#include <stdbool.h>
#include <sys/types.h>

/* Drops cap from every set of this process. */
bool drop_cap(int cap);
/* Takes uid (and gid uid) with group as its only supplementary group
 * (none when 0), or stays root without CAP_SYSLOG when uid < 0. */
bool become(int uid, gid_t group);
/* guest_test syscalls SECONDS: the program guest_record.sh profiles. */
int run_syscalls(double secs);
/* guest_test named SCRIPT...: a report's kernel names are in kallsyms. */
int run_named(int nfiles, char **files);
/* guest_test as UID GROUP PROG ARGS...: PROG as that user. */
int run_as(char **argv);

#endif

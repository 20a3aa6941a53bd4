/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Files in a target's own directories (its /tmp and cwd, as it sees them),
 * made without ever following its symlinks as root: the directories are
 * resolved inside the target's root (openat2 RESOLVE_IN_ROOT), and what is
 * created there is created by a child running with the target's file-system
 * credentials (setfsuid/setfsgid), so that it is the target's own file, in a
 * place the target could write to anyway, and works in a user namespace
 * where root is not mapped.
 */
#ifndef PJ_USER_TFS_H
#define PJ_USER_TFS_H

#include <stddef.h>
#include <sys/types.h>

struct tfs {
	pid_t pid;
	uid_t uid; /* the target's effective ids, as we see them */
	gid_t gid;
	int root; /* O_PATH fds: the target's root, */
	int tmp; /* its /tmp, */
	int cwd; /* its working directory (-1 when unreadable) */
};

/* Opens the target's directories. 0, or -1 with errno. */
int tfs_open(struct tfs *t, pid_t pid);
void tfs_close(struct tfs *t);
/* "/proc/self/fd/<dirfd>/<name>": a path for calls that take no dirfd
 * (bind, connect); NULL when it does not fit in len. */
const char *tfs_path(int dirfd, const char *name, char *buf, size_t len);
/*
 * Runs fn(t, arg) in a child process with the target's file-system uid and
 * gid, no supplementary groups and umask 077. fn returns 0 or an errno
 * value. 0, or -1 with errno set to what fn (or the setup) returned.
 */
int tfs_as_target(const struct tfs *t, int (*fn)(const struct tfs *, void *),
		  void *arg);
/* Creates dirfd/name as the target (O_EXCL, O_NOFOLLOW) with mode, an empty
 * file; 0 or -1 with errno. */
int tfs_create(const struct tfs *t, int dirfd, const char *name, int mode);
/* Removes dirfd/name as the target; 0 or -1 with errno. */
int tfs_unlink(const struct tfs *t, int dirfd, const char *name);

#endif

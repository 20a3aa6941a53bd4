// SPDX-License-Identifier: GPL-2.0
/* Files in the target's directories, made as the target (jvm/tfs.h). */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/openat2.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jvm/tfs.h"
#include "lib/nspid.h"
#include "lib/procfs.h"

/* dirfd/path, resolved as if dirfd were "/": symlinks, absolute or not,
 * and ".." stay inside it. */
static int open_in_root(int dirfd, const char *path)
{
	struct open_how how = {
		.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS |
			   RESOLVE_NO_XDEV,
	};
	long fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));

	if (fd < 0 && errno == EXDEV) { /* /tmp is a mount of its own */
		how.resolve &= ~RESOLVE_NO_XDEV;
		fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
	}
	return (int)fd;
}

int tfs_open(struct tfs *t, pid_t pid)
{
	int e;

	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->root = t->tmp = t->cwd = -1;
	if (nspid_creds(pid, &t->uid, &t->gid)) {
		errno = ESRCH;
		return -1;
	}
	t->root = proc_dir(pid, "root");
	if (t->root < 0)
		return -1;
	t->tmp = open_in_root(t->root, "tmp");
	if (t->tmp < 0) {
		e = errno;
		tfs_close(t);
		errno = e;
		return -1;
	}
	t->cwd = proc_dir(pid, "cwd");
	return 0;
}

void tfs_close(struct tfs *t)
{
	if (t->root >= 0)
		close(t->root);
	if (t->tmp >= 0)
		close(t->tmp);
	if (t->cwd >= 0)
		close(t->cwd);
	t->root = t->tmp = t->cwd = -1;
}

const char *tfs_path(int dirfd, const char *name, char *buf, size_t len)
{
	int n = snprintf(buf, len, "/proc/self/fd/%d/%s", dirfd, name);

	return n > 0 && (size_t)n < len ? buf : NULL;
}

int tfs_as_target(const struct tfs *t, int (*fn)(const struct tfs *, void *),
		  void *arg)
{
	pid_t child;
	int st;

	child = fork();
	if (child < 0)
		return -1;
	if (!child) {
		int r;

		signal(SIGPIPE, SIG_DFL);
		/* never outlives the reader (or its attach, jvm/attacher.h) */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* setfsuid says the old id: ask twice to know it took */
		if ((getuid() == 0 && setgroups(0, NULL)) ||
		    (setfsgid(t->gid), (gid_t)setfsgid(-1) != t->gid) ||
		    (setfsuid(t->uid), (uid_t)setfsuid(-1) != t->uid))
			_exit(EPERM);
		umask(077);
		r = fn(t, arg);
		_exit(r > 0 && r < 256 ? r : r ? EIO : 0);
	}
	while (waitpid(child, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(st) && !WEXITSTATUS(st))
		return 0;
	errno = WIFEXITED(st) ? WEXITSTATUS(st) : EINTR;
	return -1;
}

struct named {
	int dirfd;
	const char *name;
	int mode;
};

static int do_create(const struct tfs *t, void *arg)
{
	const struct named *n = arg;
	int fd = openat(n->dirfd, n->name,
			O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			n->mode);

	if (fd < 0)
		return errno;
	if (fchmod(fd, n->mode)) { /* past the umask */
		close(fd);
		return errno;
	}
	close(fd);
	return 0;
}

int tfs_create(const struct tfs *t, int dirfd, const char *name, int mode)
{
	struct named n = { dirfd, name, mode };

	return tfs_as_target(t, do_create, &n);
}

static int do_unlink(const struct tfs *t, void *arg)
{
	const struct named *n = arg;

	return unlinkat(n->dirfd, n->name, 0) ? errno : 0;
}

int tfs_unlink(const struct tfs *t, int dirfd, const char *name)
{
	struct named n = { dirfd, name, 0 };

	return tfs_as_target(t, do_unlink, &n);
}

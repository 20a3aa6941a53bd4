// SPDX-License-Identifier: GPL-2.0
/* Output files made without following a link; see lib/outfile.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/outfile.h"

#define MAX_LINKS 40 /* as the kernel's path walk */

/*
 * The directory dir as an O_PATH fd, walked one component at a time without
 * the kernel following any link: a link is followed here only when the
 * caller or root owns it (another user's could point anywhere, whatever
 * fs.protected_symlinks says of the directory it sits in). -1 with errno,
 * and with *bad_uid set when a link was refused for its owner.
 */
static int walk_dir(const char *dir, char *comp, size_t complen, long *bad_uid)
{
	char rest[4096], link[4096];
	const char *p;
	unsigned int links = 0;
	int fd, nfd, e;

	if ((size_t)snprintf(rest, sizeof(rest), "%s", dir) >= sizeof(rest)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(rest[0] == '/' ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	for (p = rest; fd >= 0;) {
		struct stat st;
		size_t len;
		ssize_t n;

		while (*p == '/')
			p++;
		if (!*p)
			return fd;
		len = strcspn(p, "/");
		if (len >= complen) {
			errno = ENAMETOOLONG;
			break;
		}
		memcpy(comp, p, len);
		comp[len] = 0;
		p += len;
		nfd = openat(fd, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0)
			break;
		if (fstat(nfd, &st)) {
			e = errno;
			close(nfd);
			errno = e;
			break;
		}
		if (S_ISDIR(st.st_mode)) {
			close(fd);
			fd = nfd;
			continue;
		}
		if (!S_ISLNK(st.st_mode)) {
			close(nfd);
			errno = ENOTDIR;
			break;
		}
		if (st.st_uid != geteuid() && st.st_uid != 0) {
			close(nfd);
			*bad_uid = (long)st.st_uid;
			errno = EPERM;
			break;
		}
		n = readlinkat(nfd, "", link, sizeof(link));
		close(nfd);
		if (n <= 0 || (size_t)n >= sizeof(link) ||
		    ++links > MAX_LINKS) {
			errno = n < 0 ? errno : ELOOP;
			break;
		}
		/* the link's target, then what was left after it */
		if ((size_t)snprintf(link + n, sizeof(link) - (size_t)n, "/%s",
				     p) >= sizeof(link) - (size_t)n) {
			errno = ENAMETOOLONG;
			break;
		}
		memcpy(rest, link, sizeof(rest));
		p = rest;
		if (rest[0] == '/') {
			close(fd);
			fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
		}
	}
	e = errno;
	if (fd >= 0)
		close(fd);
	errno = e;
	return -1;
}

/* Whether dirfd/name may be replaced (absent, or a regular file of ours);
 * shown is its name for the message. */
static int may_replace(int dirfd, const char *name, const char *shown,
		       char *err, size_t errlen)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "cannot create %s: %s", shown,
			 strerror(errno));
		return -1;
	}
	if (S_ISLNK(st.st_mode))
		snprintf(err, errlen,
			 "refusing to write %s: it is a symbolic link; remove "
			 "it or choose another name",
			 shown);
	else if (!S_ISREG(st.st_mode))
		snprintf(err, errlen,
			 "refusing to write %s: it is not a regular file; "
			 "choose another name",
			 shown);
	else if (st.st_uid != geteuid())
		snprintf(err, errlen,
			 "refusing to replace %s: it belongs to uid %u, not to "
			 "this user; remove it or choose another name",
			 shown, (unsigned int)st.st_uid);
	else
		return 0;
	return -1;
}

/* ".NAME.XXXXXX", XXXXXX random. */
static void temp_name(struct outfile *o)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyz"
				  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char r[6];
	char x[7];

	if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		unsigned long v = (unsigned long)time(NULL) ^
				  (unsigned long)getpid() << 16 ^
				  (unsigned long)(uintptr_t)o;

		for (size_t i = 0; i < sizeof(r); i++, v = v * 31 + 7)
			r[i] = (unsigned char)(v >> 8);
	}
	for (size_t i = 0; i < sizeof(r); i++)
		x[i] = set[r[i] % (sizeof(set) - 1)];
	x[6] = 0;
	/* open_parent() kept room for the 8 bytes more */
	o->tmp[0] = '.';
	memcpy(o->tmp + 1, o->name, strlen(o->name));
	o->tmp[1 + strlen(o->name)] = '.';
	memcpy(o->tmp + 2 + strlen(o->name), x, sizeof(x));
}

/* The directory part of path as an fd, the rest in o->name. */
static int open_parent(struct outfile *o, const char *path, char *err,
		       size_t errlen)
{
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	char dir[4096], comp[OUTFILE_NAME_MAX + 1];
	long bad_uid = -1;

	if (!*name || !strcmp(name, ".") || !strcmp(name, "..")) {
		snprintf(err, errlen, "cannot create %s: Is a directory", path);
		return -1;
	}
	/* room for the temporary name's 8 bytes more */
	if (strlen(name) + 8 > OUTFILE_NAME_MAX) {
		snprintf(err, errlen, "cannot create %s: %s", path,
			 strerror(ENAMETOOLONG));
		return -1;
	}
	snprintf(o->name, sizeof(o->name), "%s", name);
	snprintf(dir, sizeof(dir), "%.*s",
		 slash ? (slash == path ? 1 : (int)(slash - path)) : 1,
		 slash ? path : ".");
	o->dirfd = walk_dir(dir, comp, sizeof(comp), &bad_uid);
	if (o->dirfd >= 0)
		return 0;
	if (bad_uid >= 0)
		snprintf(err, errlen,
			 "refusing to write %s: its directory goes through "
			 "'%s', a symbolic link of uid %ld, another user",
			 path, comp, bad_uid);
	else
		snprintf(err, errlen, "cannot create %s: %s", path,
			 strerror(errno));
	return -1;
}

int outfile_create(struct outfile *o, const char *path, mode_t mode,
		   bool keep_old, char *err, size_t errlen)
{
	char old[OUTFILE_NAME_MAX + 5], shown[sizeof(o->path) + 4];

	memset(o, 0, sizeof(*o));
	o->dirfd = o->fd = -1;
	o->keep_old = keep_old;
	if ((size_t)snprintf(o->path, sizeof(o->path), "%s", path) >=
	    sizeof(o->path)) {
		snprintf(err, errlen, "cannot create %.200s...: %s", path,
			 strerror(ENAMETOOLONG));
		return -1;
	}
	if (open_parent(o, path, err, errlen) ||
	    may_replace(o->dirfd, o->name, path, err, errlen))
		goto fail;
	snprintf(old, sizeof(old), "%s.old", o->name);
	snprintf(shown, sizeof(shown), "%s.old", path);
	if (keep_old && may_replace(o->dirfd, old, shown, err, errlen))
		goto fail;
	for (int tries = 0; tries < 100 && o->fd < 0; tries++) {
		temp_name(o);
		o->fd = openat(
		    o->dirfd, o->tmp,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (o->fd < 0 && errno != EEXIST)
			break;
	}
	if (o->fd < 0) {
		snprintf(err, errlen, "cannot create %s: %s", path,
			 strerror(errno));
		o->tmp[0] = 0;
		goto fail;
	}
	return 0;
fail:
	outfile_discard(o);
	return -1;
}

int outfile_commit(struct outfile *o, char *err, size_t errlen)
{
	char old[OUTFILE_NAME_MAX + 5];
	struct stat st;

	if (o->committed)
		return 0;
	if (o->dirfd < 0 || !o->tmp[0]) {
		snprintf(err, errlen, "cannot create %s: %s", o->path,
			 strerror(EBADF));
		return -1;
	}
	/* what is there now is moved aside only when it is still ours; a
	 * link put there meanwhile is replaced, never followed */
	snprintf(old, sizeof(old), "%s.old", o->name);
	if (o->keep_old &&
	    !fstatat(o->dirfd, o->name, &st, AT_SYMLINK_NOFOLLOW) &&
	    S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
	    renameat(o->dirfd, o->name, o->dirfd, old)) {
		snprintf(err, errlen,
			 "cannot keep the previous %s as %s.old: %s", o->path,
			 o->path, strerror(errno));
		return -1;
	}
	if (renameat(o->dirfd, o->tmp, o->dirfd, o->name)) {
		snprintf(err, errlen, "cannot create %s: %s", o->path,
			 strerror(errno));
		return -1;
	}
	o->committed = true;
	o->tmp[0] = 0;
	return 0;
}

void outfile_discard(struct outfile *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	if (o->dirfd >= 0) {
		if (!o->committed && o->tmp[0])
			unlinkat(o->dirfd, o->tmp, 0);
		close(o->dirfd);
	}
	o->dirfd = -1;
	o->tmp[0] = 0;
}

int outfile_remove(const char *path)
{
	struct outfile o = { .dirfd = -1, .fd = -1 };
	char err[64];
	struct stat st;
	int r = -1, e;

	if (open_parent(&o, path, err, sizeof(err)))
		return -1;
	if (!fstatat(o.dirfd, o.name, &st, AT_SYMLINK_NOFOLLOW)) {
		if (S_ISREG(st.st_mode) && st.st_uid == geteuid())
			r = unlinkat(o.dirfd, o.name, 0);
		else
			errno = EPERM;
	}
	e = errno;
	close(o.dirfd);
	errno = e;
	return r;
}

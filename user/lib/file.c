// SPDX-License-Identifier: GPL-2.0
/* Bounded whole-file reads; see lib/file.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/file.h"
#include "lib/grow.h"

/* Reads fd to its end into a NUL-terminated buffer; more than max bytes is
 * EFBIG. hint: the size fstat gave (0 for /proc files). */
static char *read_fd(int fd, size_t max, size_t hint, size_t *len)
{
	size_t cap = 0, n = 0;
	char *buf = NULL;

	if (max > SIZE_MAX - 2)
		max = SIZE_MAX - 2;
	for (;;) {
		ssize_t r;

		if (n + 1 >= cap) {
			/* Room for max + 1 bytes at the most: one more than
			 * allowed tells a file that is too large. */
			size_t want = n < hint ? hint + 1 : n + 65536;

			if (want > max + 2)
				want = max + 2;
			if (GROW(buf, cap, want))
				break;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		if (!r) {
			buf[n] = 0;
			if (len)
				*len = n;
			return buf;
		}
		n += (size_t)r;
		if (n > max) {
			errno = EFBIG;
			break;
		}
	}
	free(buf);
	return NULL;
}

char *read_whole_fd(int fd, size_t max, size_t *len)
{
	struct stat st;

	if (fstat(fd, &st))
		return NULL;
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max) {
		errno = EFBIG;
		return NULL;
	}
	return read_fd(fd, max, st.st_size > 0 ? (size_t)st.st_size : 0, len);
}

char *read_whole_file(const char *path, int open_flags, size_t max, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | open_flags);
	struct stat st;
	char *buf = NULL;
	int e;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st))
		goto out;
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		goto out;
	}
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max) {
		errno = EFBIG;
		goto out;
	}
	buf = read_fd(fd, max, st.st_size > 0 ? (size_t)st.st_size : 0, len);
out:
	e = errno;
	close(fd);
	errno = e;
	return buf;
}

int read_small_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t n = 0;
	int e;

	if (!len)
		return -1;
	buf[0] = 0;
	if (fd < 0)
		return -1;
	while (n < len - 1) {
		ssize_t r = read(fd, buf + n, len - 1 - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			e = errno;
			close(fd);
			buf[0] = 0;
			errno = e;
			return -1;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = 0;
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == 0))
		buf[--n] = 0;
	return 0;
}

/* The regular file behind the O_PATH fd p (closed), opened for reading. */
static int reopen_regular(int p)
{
	char again[64];
	struct stat st;
	int fd;

	if (fstat(p, &st) || !S_ISREG(st.st_mode)) {
		close(p);
		errno = EINVAL;
		return -1;
	}
	/* the same inode, now for reading */
	snprintf(again, sizeof(again), "/proc/self/fd/%d", p);
	fd = open(again, O_RDONLY | O_CLOEXEC);
	close(p);
	return fd;
}

int open_regular(const char *path)
{
	/* O_PATH opens nothing: a device's driver is not called */
	int p = open(path, O_PATH | O_CLOEXEC);

	return p < 0 ? -1 : reopen_regular(p);
}

int open_in_root(int rootfd, const char *path, int flags)
{
	struct open_how how = {
		.flags = (uint64_t)(flags | O_CLOEXEC),
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};

	if (rootfd < 0 && rootfd != AT_FDCWD) {
		errno = EBADF;
		return -1;
	}
	if (rootfd == AT_FDCWD)
		return open(path, flags | O_CLOEXEC);
	return (int)syscall(SYS_openat2, rootfd, path, &how, sizeof(how));
}

int open_regular_in(int rootfd, const char *path)
{
	int p = open_in_root(rootfd, path, O_PATH);

	return p < 0 ? -1 : reopen_regular(p);
}

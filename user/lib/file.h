/* SPDX-License-Identifier: GPL-2.0 */
/* Whole-file reads, bounded: /proc and tracefs files (whose st_size is 0),
 * kallsyms, profile files. */
#ifndef PJ_USER_FILE_H
#define PJ_USER_FILE_H

#include <stddef.h>

/*
 * The whole file at path in a malloc'ed buffer with a NUL after its *len
 * bytes (len may be NULL). open_flags are added to O_RDONLY | O_CLOEXEC
 * (e.g. O_NOFOLLOW for a file the target controls). NULL with errno when it
 * cannot be opened or read, EISDIR for a directory, EFBIG when it holds more
 * than max bytes, ENOMEM.
 */
char *read_whole_file(const char *path, int open_flags, size_t max,
		      size_t *len);

/* The same from the start of an open fd (read from where it is). */
char *read_whole_fd(int fd, size_t max, size_t *len);
/*
 * The start of a small file (a /proc or /sys value) in buf, NUL-terminated,
 * trailing newlines removed. path may point into buf (it is opened first).
 * 0, or -1 with errno (buf then holds "").
 */
int read_small_file(const char *path, char *buf, size_t len);

/*
 * Opens path for reading only when it is a regular file: a device or a FIFO
 * a target put where its files should be (through a link it controls) is
 * never opened, so no driver sees an open from us and nothing blocks. The
 * fd, or -1 with errno (EINVAL for what is not a regular file).
 */
int open_regular(const char *path);
/*
 * Opens path (with open's flags) resolved inside the directory rootfd as
 * if it were "/" (openat2 RESOLVE_IN_ROOT|RESOLVE_NO_MAGICLINKS): links,
 * absolute or not, and ".." never leave it. rootfd AT_FDCWD: path as it
 * is. The fd, or -1 with errno.
 */
int open_in_root(int rootfd, const char *path, int flags);
/* open_regular() of path inside rootfd (as open_in_root). */
int open_regular_in(int rootfd, const char *path);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output files that a directory other users can write to cannot turn into
 * someone else's file (record -o, report -o, --loop files, the pages): a
 * new file is made under a temporary name next to the output with
 * O_CREAT|O_EXCL|O_NOFOLLOW, and renamed over the output's name only when
 * it is worth keeping (a recording that really started, a report written
 * whole). Nothing is ever opened through a symbolic link: the directory is
 * reached by a walk that follows only links owned by the caller or root,
 * and an output's own name is never followed. An existing output that is
 * not a regular file owned by the caller is refused before anything is
 * written, so a failure leaves whatever was there as it was.
 */
#ifndef PJ_USER_OUTFILE_H
#define PJ_USER_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define OUTFILE_NAME_MAX 255

struct outfile {
	int dirfd; /* O_PATH: the output's directory, resolved once */
	int fd; /* the new file, open for writing; -1 once closed */
	bool keep_old; /* an existing output becomes NAME.old (as perf) */
	bool committed; /* renamed to its name */
	char name[OUTFILE_NAME_MAX + 1]; /* the output's name in dirfd */
	char tmp[OUTFILE_NAME_MAX + 1]; /* the new file's name until then */
	char path[4096]; /* as given, for messages */
};

/*
 * Makes the new file for path (mode, less the umask) under a temporary
 * name. 0; -1 with a one-line reason in err ("refusing to replace X: ...",
 * "cannot create X: ..."), nothing made.
 */
int outfile_create(struct outfile *o, const char *path, mode_t mode,
		   bool keep_old, char *err, size_t errlen);
/*
 * Renames the new file to the output's name (the old output to NAME.old
 * first with keep_old). The fd stays open. 0, or -1 with err; idempotent.
 */
int outfile_commit(struct outfile *o, char *err, size_t errlen);
/* Closes the fd (when open) and removes the new file when it was not
 * committed: nothing is left of a failed output. */
void outfile_discard(struct outfile *o);
/*
 * Removes path when it is a regular file of ours (an older file of a
 * --loop series), through the same walk; 0 or -1 with errno.
 */
int outfile_remove(const char *path);

#endif

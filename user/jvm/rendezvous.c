// SPDX-License-Identifier: GPL-2.0
/* The agent library and the reader's socket in the target's /tmp
 * (jvm/rendezvous.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "jvm/rendezvous.h"
#include "lib/clock.h"
#include "lib/file.h"

struct copy {
	int in; /* our library */
	const char *path, *name; /* its path; its name in the target's /tmp */
	const struct stat *st; /* its identity */
	off_t size;
};

/* In the child, as the target: whether it reaches our library at its path
 * as it sees its files (inside its root and mounts, with its rights). */
static int do_sees(const struct tfs *t, void *arg)
{
	const struct copy *c = arg;
	struct stat st;
	int fd = open_in_root(t->root, c->path, O_RDONLY);

	if (fd < 0)
		return errno;
	if (fstat(fd, &st) || st.st_dev != c->st->st_dev ||
	    st.st_ino != c->st->st_ino) {
		close(fd);
		return ENOENT;
	}
	close(fd);
	return 0;
}

/* Whether fd a and fd b hold the same bytes (b being size bytes long). */
static int same_bytes(int a, int b, off_t size)
{
	static char x[65536], y[65536];
	off_t off = 0;

	while (off < size) {
		ssize_t n = pread(a, x, sizeof(x), off);

		if (n <= 0 || pread(b, y, n, off) != n || memcmp(x, y, n))
			return 0;
		off += n;
	}
	return 1;
}

/* In the child, as the target: the copy, or the check of one there. */
static int do_copy(const struct tfs *t, void *arg)
{
	const struct copy *c = arg;
	struct stat st;
	char buf[65536];
	ssize_t n;
	int o;

	o = openat(t->tmp, c->name,
		   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (o < 0 && errno == EEXIST) {
		o = openat(t->tmp, c->name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (o < 0)
			return errno == ELOOP ? EEXIST : errno;
		if (fstat(o, &st) || !S_ISREG(st.st_mode) ||
		    st.st_uid != t->uid || (st.st_mode & 022) ||
		    st.st_size != c->size || !same_bytes(c->in, o, c->size)) {
			close(o);
			return EEXIST;
		}
		close(o);
		return 0;
	}
	if (o < 0)
		return errno;
	while ((n = read(c->in, buf, sizeof(buf))) > 0)
		if (write(o, buf, n) != n) {
			int e = errno ? errno : ENOSPC;

			close(o);
			unlinkat(t->tmp, c->name, 0);
			return e;
		}
	if (n < 0 || close(o)) {
		unlinkat(t->tmp, c->name, 0);
		return EIO;
	}
	return 0;
}

int rdv_agent_lib(const struct tfs *t, const char *path, char *out, size_t len)
{
	char real[PATH_MAX], name[128];
	struct stat st;
	struct copy c;
	int r, e;

	if (!realpath(path, real))
		return -1;
	c.in = open(real, O_RDONLY | O_CLOEXEC);
	if (c.in < 0 || fstat(c.in, &st)) {
		e = errno;
		if (c.in >= 0)
			close(c.in);
		errno = e;
		return -1;
	}
	/* decided for this path: the same root says nothing of a private
	 * /tmp, a hidden home, a bind mount over the path */
	c.path = real;
	c.st = &st;
	if (!tfs_as_target(t, do_sees, &c)) {
		close(c.in);
		snprintf(out, len, "%s", real);
		return 0;
	}
	c.size = st.st_size;
	c.name = name;
	snprintf(name, sizeof(name), ".perfjava-agent-%lld-%lld.so",
		 (long long)st.st_size, (long long)st.st_mtime);
	r = tfs_as_target(t, do_copy, &c);
	if (r && errno == EEXIST) {
		/* someone else's file by that name: one of our own */
		snprintf(name, sizeof(name), ".perfjava-agent-%lld-%lld-%d.so",
			 (long long)st.st_size, (long long)st.st_mtime,
			 (int)getpid());
		lseek(c.in, 0, SEEK_SET);
		r = tfs_as_target(t, do_copy, &c);
	}
	e = errno;
	close(c.in);
	if (r) {
		errno = e;
		return -1;
	}
	snprintf(out, len, "/tmp/%s", name);
	return 0;
}

/* Our sockets (".perfjava-<reader pid>-...sock") that nobody listens on. */
static void clean_stale(const struct tfs *t)
{
	struct dirent *d;
	DIR *dir;
	int fd = openat(t->tmp, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0 || !(dir = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((d = readdir(dir))) {
		struct sockaddr_un sa = { .sun_family = AF_UNIX };
		size_t n = strlen(d->d_name);
		struct stat st;
		int s, pid;

		if (strncmp(d->d_name, ".perfjava-", 10) || n < 15 ||
		    strcmp(d->d_name + n - 5, ".sock") ||
		    fstatat(t->tmp, d->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISSOCK(st.st_mode) || st.st_uid != t->uid ||
		    !tfs_path(t->tmp, d->d_name, sa.sun_path,
			      sizeof(sa.sun_path)))
			continue;
		s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (s < 0)
			break;
		/* provably stale: its reader is gone (a live reader's socket is
		 * not even probed: that would take its agent's place), and
		 * nobody listens there */
		if (sscanf(d->d_name + 10, "%d", &pid) == 1 && pid > 0 &&
		    kill(pid, 0) && errno == ESRCH &&
		    connect(s, (struct sockaddr *)&sa, sizeof(sa)) &&
		    errno == ECONNREFUSED)
			unlinkat(t->tmp, d->d_name, 0);
		close(s);
	}
	closedir(dir);
}

struct bind_arg {
	int fd;
	const char *name;
};

static int do_bind(const struct tfs *t, void *arg)
{
	const struct bind_arg *b = arg;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	clean_stale(t);
	if (!tfs_path(t->tmp, b->name, sa.sun_path, sizeof(sa.sun_path)))
		return ENAMETOOLONG;
	umask(0177);
	return bind(b->fd, (struct sockaddr *)&sa, sizeof(sa)) ? errno : 0;
}

int rdv_listen(const struct tfs *t, char *name, size_t len)
{
	static unsigned int seq;
	struct bind_arg b;
	int e;

	snprintf(name, len, ".perfjava-%d-%u-%lld.sock", (int)getpid(), seq++,
		 now_ms() % 100000);
	b.name = name;
	b.fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (b.fd < 0)
		return -1;
	if (tfs_as_target(t, do_bind, &b) || listen(b.fd, 1)) {
		e = errno;
		close(b.fd);
		errno = e;
		return -1;
	}
	return b.fd;
}

/* Whether name (a mapping's file name, " (deleted)" cut) is an agent's. */
static bool agent_name(const char *name, const char *lib)
{
	const char *base = strrchr(name, '/'), *own = strrchr(lib, '/');
	size_t n;

	base = base ? base + 1 : name;
	own = own ? own + 1 : lib;
	n = strlen(base);
	return !strcmp(base, "libperfjava-agent.so") || !strcmp(base, own) ||
	       (!strncmp(base, ".perfjava-agent-", 16) && n > 19 &&
		!strcmp(base + n - 3, ".so"));
}

#define MAX_COPIES 16
#define MAX_MAP_LINES (1u << 20)

int rdv_agent_copies(pid_t pid, const char *lib)
{
	char path[64], line[PATH_MAX + 256], dev[32];
	struct {
		char dev[32];
		unsigned long inode;
	} seen[MAX_COPIES];
	unsigned int n = 0, lines = 0, i;
	unsigned long inode;
	bool whole = true;
	FILE *f;
	int at;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f) && lines++ < MAX_MAP_LINES) {
		bool start = whole;
		char *name, *del;

		/* a longer line's rest is no line of its own */
		whole = strchr(line, '\n') != NULL;
		if (!start)
			continue;
		line[strcspn(line, "\n")] = 0;
		at = 0;
		if (sscanf(line, "%*s %*s %*s %31s %lu %n", dev, &inode, &at) <
			2 ||
		    !at || !inode)
			continue;
		name = line + at;
		del = strstr(name, " (deleted)");
		if (del && !del[10])
			*del = 0;
		if (!agent_name(name, lib))
			continue;
		for (i = 0; i < n; i++)
			if (seen[i].inode == inode && !strcmp(seen[i].dev, dev))
				break;
		if (i == n && n < MAX_COPIES) {
			snprintf(seen[n].dev, sizeof(seen[n].dev), "%s", dev);
			seen[n++].inode = inode;
		}
	}
	fclose(f);
	return (int)n;
}

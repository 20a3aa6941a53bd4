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
#include <stdint.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include "jvm/rendezvous.h"
#include "lib/clock.h"
#include "lib/file.h"
#include "sym/maps.h"

/* Tries at a random name before a copy is given up (EEXIST: someone
 * else's file there, which only one who guessed 64 random bits has). */
#define COPY_TRIES 8
#define COPY_PREFIX ".perfjava-agent-"

struct copy {
	int in; /* our library */
	const char *path, *name; /* its path; its name in the target's /tmp */
	const struct stat *st; /* its identity */
	off_t size;
	dev_t dev; /* the copy the target maps already (do_check) */
	ino_t ino;
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

/* In the child, as the target: whether /tmp/name is the copy it maps (the
 * very file, its user's own, no one else may write it, our bytes). */
static int do_check(const struct tfs *t, void *arg)
{
	const struct copy *c = arg;
	struct stat st;
	int o = openat(t->tmp, c->name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), r;

	if (o < 0)
		return errno;
	r = fstat(o, &st) || !S_ISREG(st.st_mode) || st.st_uid != t->uid ||
	    (st.st_mode & 022) || st.st_dev != c->dev || st.st_ino != c->ino ||
	    st.st_size != c->size || !same_bytes(c->in, o, c->size);
	close(o);
	return r ? EEXIST : 0;
}

/* In the child, as the target: the bytes of c->in into o; 0 or errno. */
static int copy_bytes(const struct copy *c, int o)
{
	char buf[65536];
	off_t off = 0;

	for (;;) {
		ssize_t n = pread(c->in, buf, sizeof(buf), off), w;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		if (!n)
			return 0;
		for (ssize_t done = 0; done < n; done += w) {
			w = write(o, buf + done, n - done);
			if (w < 0 && errno == EINTR)
				w = 0;
			else if (w < 0)
				return errno;
			else if (!w) /* no room, and nothing said why */
				return ENOSPC;
		}
		off += n;
	}
}

/* In the child, as the target: a new file /tmp/name with our bytes, or
 * the errno of what failed (EEXIST: the name is taken). */
static int do_copy(const struct tfs *t, void *arg)
{
	const struct copy *c = arg;
	int o, e;

	o = openat(t->tmp, c->name,
		   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (o < 0)
		return errno;
	e = copy_bytes(c, o);
	if (close(o) && !e)
		e = errno;
	if (e)
		unlinkat(t->tmp, c->name, 0);
	return e;
}

/*
 * The name in /tmp of a copy of ours that the target maps already (an
 * attach before this one loaded it: loading it again by that name gives
 * the JVM the library it has, where a new copy would be a second one), into
 * name; 0, or -1 for none.
 */
static int loaded_copy(const struct tfs *t, struct copy *c, char *name,
		       size_t len)
{
	struct pj_maps maps;
	size_t pl = strlen(COPY_PREFIX);
	int r = -1;

	if (maps_load(t->pid, &maps))
		return -1;
	for (unsigned int i = 0; i < maps.n && r; i++) {
		const struct pj_map *m = &maps.v[i];
		const char *s = m->path;
		size_t n = strlen(s);

		/* its path, as the target sees it: /tmp/.perfjava-agent-*.so,
		 * one name in /tmp (no slash), the file still there */
		if (m->deleted || strncmp(s, "/tmp/", 5) || n - 5 >= len ||
		    strncmp(s + 5, COPY_PREFIX, pl) || n < 5 + pl + 3 ||
		    strcmp(s + n - 3, ".so") || strchr(s + 5, '/'))
			continue;
		snprintf(name, len, "%s", s + 5);
		c->dev = makedev(m->dev_major, m->dev_minor);
		c->ino = m->inode;
		r = tfs_as_target(t, do_check, c) ? -1 : 0;
	}
	maps_free(&maps);
	return r;
}

/* A name in /tmp no one can guess (64 random bits); 0, or -1 with errno. */
static int random_name(char *name, size_t len)
{
	uint64_t v;

	if (getrandom(&v, sizeof(v), 0) != (ssize_t)sizeof(v))
		return -1;
	snprintf(name, len, COPY_PREFIX "%016llx.so", (unsigned long long)v);
	return 0;
}

int rdv_agent_lib(const struct tfs *t, const char *path, char *out, size_t len)
{
	char real[PATH_MAX], name[128];
	struct stat st;
	struct copy c;
	int r = -1, e;

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
	if (!loaded_copy(t, &c, name, sizeof(name))) {
		close(c.in);
		snprintf(out, len, "/tmp/%s", name);
		return 0;
	}
	/* a new copy, at a name no one could have taken before us (a third
	 * user who can write the target's /tmp cannot deny it: O_EXCL, and
	 * another name if someone did) */
	for (int i = 0; i < COPY_TRIES && r; i++) {
		if (random_name(name, sizeof(name)))
			break;
		r = tfs_as_target(t, do_copy, &c);
		if (r && errno != EEXIST)
			break;
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

/* Entries of the target's /tmp looked at for stale sockets, each attach: a
 * directory the target fills by the million costs no more than this. */
#define CLEAN_MAX 4096

/* Our sockets (".perfjava-<reader pid>-...sock") that nobody listens on. */
static void clean_stale(const struct tfs *t)
{
	struct dirent *d;
	DIR *dir;
	int fd = openat(t->tmp, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	unsigned int seen = 0;

	if (fd < 0 || !(dir = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while (seen++ < CLEAN_MAX && (d = readdir(dir))) {
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
	} seen[MAX_COPIES] = { 0 };
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

// SPDX-License-Identifier: GPL-2.0
/*
 * HotSpot dynamic attach, protocol version 1 (JDK 6 to 25 accept it):
 *
 *   1. create .attach_pid<nspid> in the JVM's cwd (or /tmp), owned by the
 *      JVM's uid; 2. SIGQUIT: the JVM sees the file and opens
 *      /tmp/.java_pid<nspid>; 3. connect (as the JVM's euid/egid: it checks
 *      the peer's credentials); 4. send "1\0load\0<lib>\0true\0<options>\0";
 *   5. read "<result>\n<output>": result 0 and output "<agent rc>" (JDK 17),
 *      or "return code: <agent rc>" (newer JDKs).
 *
 * A JVM whose attach listener is already running is used as is. Every path
 * goes through /proc/PID/root (or /proc/PID/cwd) so that a JVM in a container
 * works; its pid inside its namespace comes from NSpid.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "jvm/attach.h"
#include "jvm/perfdata.h"
#include "lib/clock.h"
#include "lib/file.h"
#include "lib/nspid.h"
#include "lib/procfs.h"
#include "lib/text.h"
#include "sym/elf_open.h"
#include "sym/maps.h"
#include "jvm/tfs.h"

#define ATTACH_ARG_MAX 1024 /* HotSpot's limit per argument */

static void nap_ms(int ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	nanosleep(&ts, NULL);
}

/* Whether pid has a handler for sig (SigCgt in /proc/pid/status). */
static int catches(pid_t pid, int sig)
{
	char buf[64];
	unsigned long long mask = 0;

	if (proc_status_field(pid, 0, "SigCgt:", buf, sizeof(buf)) ||
	    sscanf(buf, "%llx", &mask) != 1)
		return 0;
	return !!(mask & (1ULL << (sig - 1)));
}

/*
 * Whether the JVM's real arguments (hsperfdata: @argfiles, JDK_JAVA_OPTIONS,
 * JAVA_TOOL_OPTIONS and -XX:Flags= all resolved) disable attach: 1 yes, 0 no,
 * -1 unknown (no perf data: -XX:-UsePerfData).
 */
static int attach_disabled(const char *perfdata)
{
	static char img[PERFDATA_MAX], args[2 * 65536];
	const char *flag = "DisableAttachMechanism", *p, *last = NULL;
	ssize_t n;
	size_t got = 0;
	int fd;

	if (!perfdata[0])
		return -1;
	fd = open_regular(perfdata);
	if (fd < 0)
		return -1;
	while (got < sizeof(img) &&
	       (n = read(fd, img + got, sizeof(img) - got)) > 0)
		got += n;
	close(fd);
	/* -XX:Flags= first, the command line after it wins */
	if (perfdata_string(img, got, "java.rt.vmFlags", args, 65536))
		args[0] = 0;
	n = strlen(args);
	args[n++] = ' ';
	/* no arguments yet (a JVM starting writes its perf data as it
	 * goes): unknown, not "not disabled" */
	if (perfdata_string(img, got, "java.rt.vmArgs", args + n, 65536))
		return -1;
	for (p = args; (p = strstr(p, flag)); p++)
		last = p;
	return last && last > args && last[-1] == '+';
}

/* Whether the JVM's arguments come also from somewhere its command line
 * and environment do not show: an @argfile, a -XX:Flags= file, or the
 * launcher's JDK_JAVA_OPTIONS (its value does show, but may hold @files). */
static int args_elsewhere(pid_t pid)
{
	char path[96], *buf;
	size_t n, i;
	int r = 0;

	buf = read_whole_file(proc_path(path, sizeof(path), pid, 0, "cmdline"),
			      0, 1 << 20, &n);
	if (!buf)
		return 1; /* unknown: as good as yes */
	for (i = 0; i < n && !r; i += strnlen(buf + i, n - i) + 1)
		r = buf[i] == '@' || !strncmp(buf + i, "-XX:Flags=", 10);
	free(buf);
	return r || proc_contains(pid, "environ", "JDK_JAVA_OPTIONS=");
}

int attach_check(pid_t pid, char *err, size_t errlen)
{
	char jvm[128] = "", perfdata[128] = "";
	struct pj_maps maps;
	int j9 = 0, r, fd;

	if (maps_load(pid, &maps)) {
		snprintf(err, errlen,
			 "cannot read /proc/%d/maps: %s; is pid %d alive?", pid,
			 strerror(errno), pid);
		return -1;
	}
	for (unsigned int i = 0; i < maps.n; i++) {
		const struct pj_map *m = &maps.v[i];
		size_t n = strlen(m->path);

		/* a JDK upgraded or removed under the JVM (deleted) is still
		 * that JVM: its map_files link reads it */
		if (strstr(m->path, "libj9vm"))
			j9 = 1;
		if (!jvm[0] && n > 10 &&
		    !strcmp(m->path + n - 10, "/libjvm.so")) {
			maps_file_path(jvm, sizeof(jvm), pid, m);
		}
		if (!perfdata[0] && strstr(m->path, "/hsperfdata_"))
			maps_file_path(perfdata, sizeof(perfdata), pid, m);
	}
	maps_free(&maps);
	if (!jvm[0]) {
		snprintf(err, errlen,
			 "pid %d is not a Java VM (no libjvm.so mapped)", pid);
		return -1;
	}
	if (j9) {
		snprintf(
		    err, errlen,
		    "pid %d runs OpenJ9, not HotSpot; only HotSpot JVMs can load the agent",
		    pid);
		return -1;
	}
	/* the mapped file itself (.dynsym has it) */
	fd = open_regular(jvm);
	if (fd >= 0 && !elf_file_defines(fd, "AsyncGetCallTrace")) {
		snprintf(
		    err, errlen,
		    "pid %d: its libjvm.so is not HotSpot (no AsyncGetCallTrace)",
		    pid);
		return -1;
	}
	r = attach_disabled(perfdata);
	if (r < 0 && args_elsewhere(pid)) {
		snprintf(
		    err, errlen,
		    "JVM %d runs without perf data (-XX:-UsePerfData) and takes arguments from an @file, -XX:Flags= or JDK_JAVA_OPTIONS: whether attach is disabled cannot be known, and signalling it could make it print a thread dump; not attaching",
		    pid);
		/* a JVM starting maps its perf data before its signal
		 * handlers are in: not yet known */
		return catches(pid, SIGQUIT) ? -1 : ATTACH_NOT_YET;
	}
	if (r == 1 ||
	    (r < 0 &&
	     (proc_contains(pid, "cmdline", "-XX:+DisableAttachMechanism") ||
	      proc_contains(pid, "environ", "-XX:+DisableAttachMechanism")))) {
		snprintf(
		    err, errlen,
		    "JVM %d was started with -XX:+DisableAttachMechanism; restart it without that flag to get Java frames",
		    pid);
		return -1;
	}
	return 0;
}

/* Whether dirfd/name is a socket owned by uid (the JVM's; HotSpot makes it
 * so, and the JDK's own client refuses any other), not following a link. */
static int owned_socket(int dirfd, const char *name, uid_t uid)
{
	struct stat st;

	return !fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) &&
	       S_ISSOCK(st.st_mode) && st.st_uid == uid;
}

/*
 * Creates the trigger file .attach_pid<nspid> in the JVM's cwd, else its
 * /tmp, as the JVM's user (HotSpot takes a trigger of its own euid or root),
 * never through a link; *dirfd says where, for its removal.
 */
static int make_trigger(const struct tfs *t, const char *name, int *dirfd)
{
	int dirs[2] = { t->cwd, t->tmp }, e = ENOENT;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		struct stat st;

		if (dirs[i] < 0)
			continue;
		*dirfd = dirs[i];
		if (!tfs_create(t, dirs[i], name, 0600))
			return 0;
		e = errno;
		/* one of the JVM's own files from an earlier attempt will do */
		if (e == EEXIST &&
		    !fstatat(dirs[i], name, &st, AT_SYMLINK_NOFOLLOW) &&
		    S_ISREG(st.st_mode) && st.st_uid == t->uid)
			return 0;
	}
	errno = e;
	return -1;
}

/* Connects to the attach socket as uid/gid (the JVM checks the peer). */
static int connect_as(const char *path, uid_t uid, gid_t gid)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	uid_t ou = geteuid();
	gid_t og = getegid();
	int fd, r, e, sw = ou != uid || og != gid;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (sw && (setegid(gid) || seteuid(uid)))
		sw = 2; /* could not switch: try as we are */
	r = connect(fd, (struct sockaddr *)&sa, sizeof(sa));
	e = errno;
	if (sw == 1 && (seteuid(ou) || setegid(og))) {
		/* cannot happen: we were allowed to switch away */
		abort();
	}
	if (sw == 2 && (seteuid(ou) || setegid(og))) {
		/* partial switch undone */
	}
	if (r) {
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= w;
	}
	return 0;
}

/* Reads until EOF or deadline into buf (NUL-terminated). */
static int read_reply(int fd, char *buf, size_t len, long long deadline)
{
	size_t n = 0;

	while (n + 1 < len) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		long long left = deadline - now_ms();
		ssize_t r;

		if (left <= 0)
			return -1;
		r = poll(&p, 1, left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		r = read(fd, buf + n, len - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		n += r;
	}
	buf[n] = 0;
	return 0;
}

/* The socket's peer must be the JVM itself, not whoever bound the name. */
static int peer_is(int fd, pid_t pid)
{
	struct ucred cred;
	socklen_t cl = sizeof(cred);

	return !getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl) &&
	       cred.pid == pid;
}

static int attach_connect(const struct tfs *t, const char *name)
{
	char path[128];
	int fd;

	if (!owned_socket(t->tmp, name, t->uid) ||
	    !tfs_path(t->tmp, name, path, sizeof(path)))
		return -1;
	fd = connect_as(path, t->uid, t->gid);
	if (fd >= 0 && !peer_is(fd, t->pid)) {
		close(fd);
		return -2;
	}
	return fd;
}

/* Starts the attach listener of JVM t->pid (trigger file and SIGQUIT) and
 * connects to it; the fd, or -1 with a reason in err (ATTACH_NOT_YET: no
 * SIGQUIT handler, or no socket in time). */
static int attach_start(const struct tfs *t, pid_t nspid, const char *sock,
			int timeout_ms, char *err, size_t errlen)
{
	char trig[64];
	struct stat st;
	long long deadline;
	int fd, dirfd = -1;

	if (!catches(t->pid, SIGQUIT)) {
		snprintf(
		    err, errlen,
		    "JVM %d does not handle SIGQUIT (started with -Xrs?), so its attach listener cannot be started",
		    t->pid);
		return ATTACH_NOT_YET;
	}
	snprintf(trig, sizeof(trig), ".attach_pid%d", nspid);
	if (make_trigger(t, trig, &dirfd)) {
		snprintf(
		    err, errlen,
		    "cannot create the attach trigger file %s for JVM %d as its user: %s",
		    trig, t->pid, strerror(errno));
		return -1;
	}
	if (kill(t->pid, SIGQUIT)) {
		snprintf(err, errlen, "cannot signal JVM %d: %s", t->pid,
			 strerror(errno));
		tfs_unlink(t, dirfd, trig);
		return -1;
	}
	deadline = now_ms() + timeout_ms;
	while (!owned_socket(t->tmp, sock, t->uid) && now_ms() < deadline)
		nap_ms(5);
	tfs_unlink(t, dirfd, trig);
	fd = attach_connect(t, sock);
	if (fd == -2) {
		snprintf(
		    err, errlen,
		    "the attach socket /tmp/%s of JVM %d is served by another process; refusing it",
		    sock, t->pid);
		return -1;
	}
	if (fd < 0 && !fstatat(t->tmp, sock, &st, AT_SYMLINK_NOFOLLOW) &&
	    st.st_uid != t->uid)
		snprintf(
		    err, errlen,
		    "/tmp/%s of JVM %d belongs to uid %u, not to the JVM's user; refusing it (remove it and retry)",
		    sock, t->pid, (unsigned int)st.st_uid);
	else if (fd < 0) {
		snprintf(
		    err, errlen,
		    "JVM %d did not open its attach socket within %d ms (attach disabled with -XX:+DisableAttachMechanism, or the JVM is hung)",
		    t->pid, timeout_ms);
		return ATTACH_NOT_YET; /* (or starting still) */
	}
	return fd;
}

int attach_load(pid_t pid, const char *lib, const char *options, int timeout_ms,
		char *err, size_t errlen)
{
	char sock[64], req[2 * ATTACH_ARG_MAX + 64], reply[4096];
	const char *rc_text;
	char *msg;
	struct tfs t;
	pid_t nspid;
	size_t n;
	int fd, rc, agent_rc, r;

	if ((r = attach_check(pid, err, errlen)))
		return r;
	if (strlen(lib) >= ATTACH_ARG_MAX ||
	    strlen(options) >= ATTACH_ARG_MAX) {
		snprintf(err, errlen,
			 "agent path or options longer than %d bytes",
			 ATTACH_ARG_MAX);
		return -1;
	}
	nspid = nspid_of(pid, 0);
	if (nspid < 0 || tfs_open(&t, pid)) {
		snprintf(err, errlen, "cannot open /proc/%d/root/tmp: %s", pid,
			 strerror(errno));
		return -1;
	}
	snprintf(sock, sizeof(sock), ".java_pid%d", nspid);
	/* a listener already running is used as is */
	fd = attach_connect(&t, sock);
	if (fd < 0)
		fd = attach_start(&t, nspid, sock, timeout_ms, err, errlen);
	tfs_close(&t);
	if (fd < 0)
		return fd == ATTACH_NOT_YET ? fd : -1;
	n = snprintf(req, sizeof(req), "1%cload%c%s%ctrue%c%s%c", 0, 0, lib, 0,
		     0, options, 0);
	if (write_all(fd, req, n) ||
	    read_reply(fd, reply, sizeof(reply), now_ms() + timeout_ms)) {
		snprintf(err, errlen,
			 "JVM %d did not answer the attach request in time",
			 pid);
		close(fd);
		return -1;
	}
	close(fd);
	/* the reply is the target's text: one line, nothing of it raw */
	msg = strchr(reply, '\n');
	msg = msg ? msg + 1 : reply + strlen(reply);
	for (n = 0; reply[n]; n++)
		if (reply[n] == '\n')
			reply[n] = ' ';
	while (n && reply[n - 1] == ' ')
		reply[--n] = 0;
	text_clean(reply, n);
	if (sscanf(reply, "%d", &rc) != 1) {
		snprintf(err, errlen,
			 "JVM %d: unexpected attach reply \"%.200s\"", pid,
			 reply);
		return -1;
	}
	rc_text = msg;
	if (rc != 0) {
		snprintf(err, errlen, "JVM %d could not load the agent %s: %s",
			 pid, lib, rc_text[0] ? rc_text : "no reason given");
		return -1;
	}
	if (!strncmp(rc_text, "return code: ", 13))
		rc_text += 13;
	if (sscanf(rc_text, "%d", &agent_rc) == 1 && agent_rc != 0) {
		snprintf(
		    err, errlen,
		    "the agent failed to start in JVM %d (Agent_OnAttach returned %d)",
		    pid, agent_rc);
		return ATTACH_NOT_YET; /* a JVM still starting refuses it */
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * A process that looks like a HotSpot JVM to perfjava (a libjvm.so mapped, a
 * SIGQUIT handler) and attacks the root recorder the way a JVM's owner or a
 * third user could (selftests/security/):
 *
 *   hostile_jvm LIBJVM plain             no attach listener at all (says
 *                                        "sigquit" when asked for one)
 *   hostile_jvm LIBJVM symlink PATH      .attach_pid<pid> in cwd and /tmp
 *                                        are symlinks to PATH
 *   hostile_jvm LIBJVM agent DEPTH EXTRA [NAME PATH]
 *                                        answers the attach itself and speaks
 *                                        the agent protocol: a HELLO with
 *                                        DEPTH and EXTRA bytes more, hostile
 *                                        names, walk results as asked; first
 *                                        plants /tmp/NAME -> PATH
 *   hostile_jvm LIBJVM squat PID         binds /tmp/.java_pid<PID> and
 *                                        answers with escape sequences
 *   hostile_jvm LIBJVM flood N           an agent (as "agent 64 0") that
 *                                        first sends N methods whose ids all
 *                                        collide under an unseeded table hash
 *   hostile_jvm LIBJVM deaf [THREADS]    an agent that never reads what the
 *                                        reader sends after the HELLO, in a
 *                                        JVM of THREADS spinning threads
 *   hostile_jvm LIBJVM slowhello SECS    an agent whose HELLO stops halfway
 *                                        for SECS seconds
 *   hostile_jvm LIBJVM names N LEN       an agent (as "agent 64 0", taking a
 *                                        walk ring) that first sends N
 *                                        methods, each a name of LEN bytes
 *                                        of its own
 *   hostile_jvm LIBJVM version V         an agent whose HELLO says protocol
 *                                        version V
 *
 * libjvm.so is mapped executable, as a JVM maps it (the MMAP2 record by
 * which record -a finds a JVM that starts).
 * Prints "ready" when set up; exits on SIGTERM or after 120 s.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "../../include/perfjava/agent_proto.h"

static volatile sig_atomic_t quit_seen, stop;

static void on_quit(int sig)
{
	(void)sig;
	quit_seen = 1;
}

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static int listen_at(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	unlink(path);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(fd, 4)) {
		perror(path);
		exit(1);
	}
	return fd;
}

/* Reads the attach request (5 NUL-terminated strings); its options. */
static int read_request(int c, char *opts, size_t len)
{
	char buf[4096];
	size_t n = 0, i, nul = 0, start = 0;

	while (nul < 5 && n < sizeof(buf)) {
		ssize_t r = read(c, buf + n, sizeof(buf) - n);

		if (r <= 0)
			return -1;
		for (i = n; i < n + r; i++)
			if (!buf[i] && ++nul == 4)
				start = i + 1;
		n += r;
	}
	snprintf(opts, len, "%s", buf + start);
	return 0;
}

static void put(int fd, uint32_t type, const void *a, size_t alen,
		const void *b, size_t blen)
{
	struct pja_hdr h = { type, alen + blen };

	if (write(fd, &h, sizeof(h)) < 0 || write(fd, a, alen) < 0 ||
	    (blen && write(fd, b, blen) < 0)) {
		/* the reader is gone: speak() sees the end when it reads */
	}
}

/* The inverse of an odd number mod 2^64 (Newton's iteration). */
static uint64_t inverse(uint64_t a)
{
	uint64_t x = a;

	for (int i = 0; i < 6; i++)
		x *= 2 - a * x;
	return x;
}

/* n method ids that share one slot of an open-addressing table hashed by
 * (id * golden >> 17) % size, whatever its size up to 2^20: what an
 * attacker who knows the table's hash sends. */
static void flood_methods(int fd, unsigned long n)
{
	uint64_t inv = inverse(0x9e3779b97f4a7c15ull);

	for (unsigned long i = 1; i <= n; i++) {
		struct pja_method m = { inv * (i << 37), 1, 1, 0, 0, 0, 0 };

		put(fd, PJA_METHOD, &m, sizeof(m), "Cm", 2);
	}
}

/* n methods, each named by len bytes (half the class, half the name)
 * that no other has: what the reader keeps of names, at its most. */
static void name_methods(int fd, unsigned long n, unsigned long len)
{
	static char name[1 << 16];

	if (len < 32)
		len = 32;
	if (len > sizeof(name))
		len = sizeof(name);
	memset(name, 'n', len);
	for (unsigned long i = 1; i <= n; i++) {
		struct pja_method m = { i, len / 2, len - len / 2, 0, 0, 0, 0 };

		snprintf(name, 24, "C%020lu", i);
		name[21] = 'n';
		put(fd, PJA_METHOD, &m, sizeof(m), name, len);
	}
}

static const char *mode = "plain";
static double mode_arg, mode_arg2;

static void speak(const char *opts, uint32_t depth, uint32_t extra)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct pja_hello hello = { .magic = PJA_MAGIC,
				   .version = PJA_VERSION,
				   .pid = getpid(),
				   .depth = depth };
	struct pja_hdr h = { PJA_HELLO, sizeof(hello) + extra };
	const char *s = strstr(opts, "sock=");
	static char junk[1 << 16], in[4096];
	static struct pja_frame frames[4096];
	struct pja_method m = { 1, 12, 6, 0, 0, 0, 0 };
	struct pja_thread t = { (uint32_t)getpid(), 16 };
	int fd;

	if (!strcmp(mode, "version"))
		hello.version = (uint32_t)mode_arg;
	if (!strcmp(mode, "names"))
		hello.flags = PJA_HELLO_RING;
	if (!s)
		return;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%.*s",
		 (int)strcspn(s + 5, ","), s + 5);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		perror(sa.sun_path);
		return;
	}
	memset(junk, 0x41, sizeof(junk));
	if (extra > sizeof(junk))
		extra = sizeof(junk);
	if (write(fd, &h, sizeof(h)) < 0 ||
	    write(fd, &hello, sizeof(hello) / 2) < 0)
		return;
	if (!strcmp(mode, "slowhello")) { /* the rest after a while */
		struct timespec t = { (time_t)mode_arg,
				      (long)((mode_arg - (time_t)mode_arg) *
					     1e9) };

		nanosleep(&t, NULL);
	}
	if (write(fd, (char *)&hello + sizeof(hello) / 2,
		  sizeof(hello) - sizeof(hello) / 2) < 0 ||
	    write(fd, junk, extra) < 0)
		return;
	if (!strcmp(mode, "flood"))
		flood_methods(fd, (unsigned long)mode_arg);
	if (!strcmp(mode, "names"))
		name_methods(fd, (unsigned long)mode_arg,
			     (unsigned long)mode_arg2);
	put(fd, PJA_METHOD, &m, sizeof(m), "\033]0;pwned\007Evil\033[2Jx", 18);
	put(fd, PJA_THREAD, &t, sizeof(t), "\033[31mred\r\n\033[2J\033c", 16);
	printf("hello sent\n");
	fflush(stdout);
	for (unsigned int i = 0; i < 4096; i++)
		frames[i].method = 1;
	while (!stop) {
		struct pollfd p = { fd, POLLIN, 0 };
		ssize_t n;
		size_t off;

		volatile unsigned long spin = 0;

		for (unsigned long i = 0; i < 1000000; i++)
			spin += i;
		(void)spin; /* the loop is the point: CPU time */
		if (!strcmp(mode, "deaf") || poll(&p, 1, 0) <= 0)
			continue;
		n = read(fd, in, sizeof(in));
		if (n <= 0)
			break;
		/* every request (whole or not) gets a result claiming all
		 * of depth, with 4096 frames behind it */
		for (off = 0; off + sizeof(struct pja_hdr) <= (size_t)n;
		     off += sizeof(struct pja_hdr) + 24) {
			struct pja_walk_result r = { .nframes = depth };

			put(fd, PJA_WALK_RESULT, &r, sizeof(r), frames,
			    sizeof(frames));
		}
	}
	close(fd);
}

static void *spinner(void *arg)
{
	volatile unsigned long spin = 0;

	while (!stop)
		spin++;
	return arg;
}

int main(int argc, char **argv)
{
	struct timespec t0, now;
	char path[128], opts[1100];
	int lfd = -1, fd, agent;
	struct stat st;

	if (argc < 3) {
		fprintf(stderr, "usage: hostile_jvm LIBJVM MODE [ARGS]\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) ||
	    mmap(NULL, st.st_size, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0) ==
		MAP_FAILED) {
		perror(argv[1]);
		return 1;
	}
	mode = argv[2];
	mode_arg = argc > 3 ? atof(argv[3]) : 0;
	mode_arg2 = argc > 4 ? atof(argv[4]) : 0;
	/* the agent's modes: "agent DEPTH EXTRA", the others at depth 64 */
	agent = !strcmp(mode, "agent")
		    ? argc > 4
		    : !strcmp(mode, "flood") || !strcmp(mode, "deaf") ||
			  !strcmp(mode, "slowhello") ||
			  !strcmp(mode, "names") || !strcmp(mode, "version");
	for (int i = 1; !strcmp(mode, "deaf") && i < (int)mode_arg; i++) {
		pthread_t t;

		pthread_create(&t, NULL, spinner, NULL);
	}
	signal(SIGQUIT, on_quit);
	signal(SIGTERM, on_term);
	signal(SIGPIPE, SIG_IGN);
	if (!strcmp(mode, "symlink") && argc > 3) {
		snprintf(path, sizeof(path), ".attach_pid%d", getpid());
		if (symlink(argv[3], path))
			perror(path);
		snprintf(path, sizeof(path), "/tmp/.attach_pid%d", getpid());
		if (symlink(argv[3], path))
			perror(path);
	}
	if (!strcmp(mode, "agent") && argc > 6 && symlink(argv[6], argv[5]))
		perror(argv[5]);
	if (!strcmp(mode, "squat") && argc > 3) {
		snprintf(path, sizeof(path), "/tmp/.java_pid%s", argv[3]);
		lfd = listen_at(path);
	}
	printf("ready %d\n", getpid());
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		volatile unsigned long spin = 0;

		for (unsigned long i = 0; i < 2000000; i++)
			spin += i;
		(void)spin; /* the loop is the point: CPU time */
		if (lfd >= 0) {
			struct pollfd p = { lfd, POLLIN, 0 };

			if (poll(&p, 1, 0) > 0 &&
			    (fd = accept(lfd, 0, 0)) >= 0) {
				printf("accepted\n");
				fflush(stdout);
				const char r[] = "0\n\033]0;pwned\007\033[2J"
						 "\033[31mreturn code: 0\n";

				if (write(fd, r, sizeof(r) - 1) < 0)
					perror("write");
				close(fd);
			}
		}
		if (quit_seen && !agent) { /* asked: never answers */
			quit_seen = 0;
			printf("sigquit\n");
			fflush(stdout);
		}
		if (quit_seen && agent) {
			quit_seen = 0;
			snprintf(path, sizeof(path), "/tmp/.java_pid%d",
				 getpid());
			lfd = listen_at(path);
			fd = accept(lfd, 0, 0);
			if (fd >= 0 && !read_request(fd, opts, sizeof(opts))) {
				const char r[] = "0\nreturn code: 0\n";

				if (write(fd, r, sizeof(r) - 1) < 0)
					perror("write");
				close(fd);
				if (!strcmp(mode, "agent"))
					speak(opts, strtoul(argv[3], 0, 0),
					      strtoul(argv[4], 0, 0));
				else
					speak(opts, 64, 0);
			}
			close(lfd);
			lfd = -1;
			unlink(path);
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (!stop && now.tv_sec - t0.tv_sec < 120);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * A native target that attacks a root recorder through what the recorder
 * reads of it (selftests/security/, issue 19):
 *
 *   hostile_native spin [SECS]       spins in spin_here (a known function)
 *   hostile_native maps N [SECS]     maps N memfds executable, then spins
 *                                    with a return address in no mapping
 *   hostile_native bigsymtab OUT     writes a copy of itself whose .symtab
 *                                    claims 2 GB of a hole at its end
 *   hostile_native memexec FILE ARGS runs FILE from a memfd (holes kept)
 *   hostile_native exec PROG ARGS    spins until SIGUSR1, then execs PROG
 *   hostile_native pidat PID UID PROG ARGS
 *                                    (as root) starts PROG as UID with pid
 *                                    PID (ns_last_pid), prints "pid PID"
 *   hostile_native procs N [SECS]    keeps N processes alive, each waking
 *                                    every 50 ms (switches, at -a: each a
 *                                    process the recorder sees), in
 *                                    doze_here
 *
 * Prints "ready PID" when set up; exits on SIGTERM or after SECS (30).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop, go;
static volatile unsigned long sink;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static void on_usr1(int sig)
{
	(void)sig;
	go = 1;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void ready(void)
{
	printf("ready %d\n", getpid());
	fflush(stdout);
}

__attribute__((noinline)) void spin_here(double secs)
{
	double end = now() + secs;

	while (!stop && !go && now() < end)
		for (unsigned long i = 0; i < 100000; i++)
			sink += i;
}

/* Spins with its own return address overwritten by one in no mapping
 * (the frame-pointer chain and the CFI unwinder both read that slot); it
 * never returns, so nothing jumps there. */
__attribute__((noinline)) void spin_bogus(double secs)
{
	void **fp = __builtin_frame_address(0);

	fp[1] = (void *)0x10;
	spin_here(secs);
	_exit(0);
}

static int do_maps(int n, double secs)
{
	static char page[4096];

	for (int i = 0; i < n; i++) {
		int fd = memfd_create("pj-hostile", 0);

		if (fd < 0 || write(fd, page, sizeof(page)) != sizeof(page) ||
		    mmap(NULL, sizeof(page), PROT_READ | PROT_EXEC, MAP_PRIVATE,
			 fd, 0) == MAP_FAILED) {
			perror("memfd map");
			return 1;
		}
		close(fd);
	}
	ready();
	spin_bogus(secs);
	return 0;
}

static int copy_fd(int in, int out)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			return -1;
	return n < 0 ? -1 : 0;
}

/* A copy of this program whose .symtab claims 2 GB at the end of the
 * file, the file that long: a hole nothing was written to. */
static int do_bigsymtab(const char *out)
{
	int in = open("/proc/self/exe", O_RDONLY), o;
	Elf64_Ehdr eh;
	Elf64_Shdr sh, str;
	struct stat st;
	char name[8];

	o = open(out, O_RDWR | O_CREAT | O_TRUNC, 0755);
	if (in < 0 || o < 0 || copy_fd(in, o) || fstat(o, &st) ||
	    pread(o, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    pread(o, &str, sizeof(str),
		  (off_t)(eh.e_shoff + eh.e_shstrndx * sizeof(sh))) !=
		sizeof(str))
		return 1;
	for (unsigned int i = 0; i < eh.e_shnum; i++) {
		off_t at = (off_t)(eh.e_shoff + i * sizeof(sh));

		if (pread(o, &sh, sizeof(sh), at) != sizeof(sh) ||
		    pread(o, name, sizeof(name),
			  (off_t)(str.sh_offset + sh.sh_name)) !=
			sizeof(name) ||
		    memcmp(name, ".symtab", 8))
			continue;
		sh.sh_offset = ((uint64_t)st.st_size + 4095) & ~4095ull;
		/* 2 GB of whole symbols, within what one read gives */
		sh.sh_size = 0x7f000000 / sizeof(Elf64_Sym) * sizeof(Elf64_Sym);
		if (pwrite(o, &sh, sizeof(sh), at) != sizeof(sh) ||
		    ftruncate(o, (off_t)(sh.sh_offset + sh.sh_size)))
			return 1;
		return close(o);
	}
	fprintf(stderr, "no .symtab\n");
	return 1;
}

/* FILE copied into a memfd, its data only (holes stay holes), and run. */
static int do_memexec(const char *file, char **argv)
{
	static char buf[65536];
	int in = open(file, O_RDONLY), m = memfd_create("pj-hostile", 0);
	struct stat st;
	off_t data = 0, hole;

	if (in < 0 || m < 0 || fstat(in, &st) || ftruncate(m, st.st_size))
		return 1;
	while ((data = lseek(in, data, SEEK_DATA)) >= 0) {
		hole = lseek(in, data, SEEK_HOLE);
		while (data < hole) {
			ssize_t n = pread(in, buf,
					  (size_t)(hole - data) < sizeof(buf)
					      ? (size_t)(hole - data)
					      : sizeof(buf),
					  data);

			if (n <= 0 || pwrite(m, buf, (size_t)n, data) != n)
				return 1;
			data += n;
		}
	}
	close(in);
	fexecve(m, argv, (char *[]){ NULL });
	perror("fexecve");
	return 1;
}

/* PROG as uid with pid `pid`, if the kernel gives it (ns_last_pid: the
 * next pid is the one after; another process of the machine may take it
 * first, so a few tries). The child is left to run on its own. */
static int do_pidat(pid_t pid, uid_t uid, char **argv)
{
	for (int i = 0; i < 100; i++) {
		FILE *f = fopen("/proc/sys/kernel/ns_last_pid", "w");
		pid_t c;

		if (!f || fprintf(f, "%d", (int)pid - 1) < 0 || fclose(f)) {
			perror("ns_last_pid");
			return 1;
		}
		c = fork();
		if (!c) {
			int null = open("/dev/null", O_RDWR);

			if (getpid() != pid || null < 0)
				_exit(0);
			dup2(null, 1); /* the caller reads "pid N" to its end */
			dup2(null, 2);
			if (setgroups(0, NULL) || setgid(65534) || setuid(uid))
				_exit(1);
			execv(argv[0], argv);
			_exit(1);
		}
		if (c == pid) {
			printf("pid %d\n", (int)c);
			return 0;
		}
		waitpid(c, NULL, 0);
	}
	return 1;
}

__attribute__((noinline)) void doze_here(void)
{
	struct timespec ts = { 0, 50000000 };

	nanosleep(&ts, NULL);
}

/* n children that wake every 50 ms until secs pass (or we go). */
static int do_procs(int n, double secs)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < n; i++) {
		pid_t c = fork();

		if (c < 0) {
			perror("fork");
			break;
		}
		if (c)
			continue;
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		do {
			doze_here();
			clock_gettime(CLOCK_MONOTONIC, &t);
		} while (!stop && t.tv_sec - t0.tv_sec < secs);
		_exit(0);
	}
	ready();
	while (!stop && wait(NULL) > 0)
		;
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "spin";

	signal(SIGTERM, on_term);
	if (!strcmp(mode, "procs") && argc > 2)
		return do_procs(atoi(argv[2]), argc > 3 ? atof(argv[3]) : 30);
	if (!strcmp(mode, "maps") && argc > 2)
		return do_maps(atoi(argv[2]), argc > 3 ? atof(argv[3]) : 30);
	if (!strcmp(mode, "bigsymtab") && argc > 2)
		return do_bigsymtab(argv[2]);
	if (!strcmp(mode, "pidat") && argc > 4)
		return do_pidat(atoi(argv[2]), (uid_t)atoi(argv[3]), argv + 4);
	if (!strcmp(mode, "memexec") && argc > 3)
		return do_memexec(argv[2], argv + 3);
	if (!strcmp(mode, "exec") && argc > 2) {
		signal(SIGUSR1, on_usr1);
		ready();
		spin_here(60);
		execv(argv[2], argv + 2);
		perror(argv[2]);
		return 1;
	}
	ready();
	spin_here(argc > 2 ? atof(argv[2]) : 30);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * What guest_test does in the module test's guest besides its checks: runs
 * the program guest_record.sh profiles, runs a program as another user, and
 * checks a report's kernel names against kallsyms. See guest_tools.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "guest_tools.h"
#include "sym/ksym_module.h"

bool drop_cap(int cap)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3,
						0 };
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return false;
	data[CAP_TO_INDEX(cap)].effective &= ~CAP_TO_MASK(cap);
	data[CAP_TO_INDEX(cap)].permitted &= ~CAP_TO_MASK(cap);
	data[CAP_TO_INDEX(cap)].inheritable &= ~CAP_TO_MASK(cap);
	return syscall(SYS_capset, &hdr, data) == 0;
}

bool become(int uid, gid_t group)
{
	if (group ? setgroups(1, &group) : setgroups(0, NULL))
		return false;
	return uid < 0 ? drop_cap(CAP_SYSLOG) : !setgid(uid) && !setuid(uid);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The program guest_record.sh profiles: for SECONDS (or until killed) it
 * alternates 2 ms of write(2) to /dev/null with 2 ms of asking the module to
 * name a batch of addresses when it lets this user in (else more writes), so
 * that its time is in the kernel's write path and in the module's ioctl.
 * The addresses step 4 MiB through the kernel image's KASLR range: a few
 * are in its text, the rest named by nothing, all looked up.
 */
int run_syscalls(double secs)
{
	static uint64_t addrs[PJ_KSYM_MAX_BATCH];
	static struct ksym_module_sym out[PJ_KSYM_MAX_BATCH];
	static char buf[4096];
	int null = open("/dev/null", O_WRONLY), dev = ksym_module_open();
	double end = now() + secs, t;

	for (unsigned int i = 0; i < PJ_KSYM_MAX_BATCH; i++)
		addrs[i] = 0xffffffff80000000ull + ((uint64_t)i << 22);
	/* the recorders starting beside it on the guest's one CPU go first */
	if (setpriority(PRIO_PROCESS, 0, 19))
		return 1;
	printf("ready %d %s\n", (int)getpid(),
	       dev >= 0 ? "module" : strerror(errno));
	fflush(stdout);
	while ((t = now()) < end) {
		do { /* the clock every 16 writes: little time out of them */
			for (int i = 0; i < 16; i++)
				if (write(null, buf, sizeof(buf)) < 0)
					return 1;
		} while (now() < t + 0.002);
		for (t = now(); dev >= 0 && now() < t + 0.002;)
			if (ksym_module_resolve(dev, addrs, PJ_KSYM_MAX_BATCH,
						out) < 0)
				return 1;
	}
	return 0;
}

struct frame {
	char name[256], module[64];
	bool found;
};

static int cmp_frame(const void *a, const void *b)
{
	return strcmp(((const struct frame *)a)->name,
		      ((const struct frame *)b)->name);
}

/* Whether a loaded module has this name (/proc/modules, read once). */
static bool loaded(const char *name)
{
	static char mods[16384];
	static bool read_once;
	size_t len = strlen(name);

	if (!read_once) {
		FILE *f = fopen("/proc/modules", "r");
		size_t n = f ? fread(mods + 1, 1, sizeof(mods) - 2, f) : 0;

		mods[0] = '\n'; /* each name follows a newline */
		mods[n + 1] = '\0';
		if (f)
			fclose(f);
		read_once = true;
	}
	for (const char *p = mods; (p = strchr(p, '\n')); p++)
		if (!strncmp(p + 1, name, len) && p[len + 1] == ' ')
			return true;
	return false;
}

/*
 * Adds the kernel frame of a script report's line ("0 name (where)", where
 * [kernel.kallsyms] or a loaded module in brackets) to f[*n], once.
 */
static void add_frame(const char *line, struct frame *f, size_t *n, size_t max)
{
	char name[256], mod[80];

	if (sscanf(line, " %*s %255s ([%63[^]]])", name, mod) != 2)
		return;
	if (!strcmp(mod, "kernel.kallsyms"))
		mod[0] = '\0';
	else if (!loaded(mod)) /* [vdso], [unknown]: not the kernel's */
		return;
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(f[i].name, name) && !strcmp(f[i].module, mod))
			return;
	if (*n < max) {
		snprintf(f[*n].name, sizeof(f[*n].name), "%s", name);
		snprintf(f[*n].module, sizeof(f[*n].module), "%s", mod);
		f[(*n)++].found = false;
	}
}

/*
 * guest_test named SCRIPT...: every kernel frame of `perfjava report
 * --format script` ("0 name ([module])") is a function of that module
 * in /proc/kallsyms ([kernel.kallsyms]: the kernel image), whose names show
 * even while kptr_restrict hides its addresses. 0 when all are; prints
 * those that are not.
 */
int run_named(int nfiles, char **files)
{
	enum { MAX = 4096 };
	static struct frame f[MAX];
	char line[1024];
	size_t n = 0, bad = 0;
	FILE *kallsyms;

	for (int i = 0; i < nfiles; i++) {
		FILE *in = fopen(files[i], "r");

		while (in && fgets(line, sizeof(line), in))
			add_frame(line, f, &n, MAX);
		if (!in)
			return 2;
		fclose(in);
	}
	qsort(f, n, sizeof(*f), cmp_frame);
	/* "addr type name[\t[module]]", read once and parsed by hand (the
	 * guest is slow) */
	kallsyms = fopen("/proc/kallsyms", "r");
	while (n && kallsyms && fgets(line, sizeof(line), kallsyms)) {
		char *type = strchr(line, ' '), *name, *end, *mod = "";
		struct frame key, *hit;

		if (!type || !strchr("tTwW", type[1]) || type[2] != ' ')
			continue;
		name = type + 3;
		end = name + strcspn(name, "\t\n");
		if (*end == '\t' && end[1] == '[') {
			mod = end + 2;
			mod[strcspn(mod, "]")] = '\0';
		}
		*end = '\0';
		snprintf(key.name, sizeof(key.name), "%s", name);
		hit = bsearch(&key, f, n, sizeof(*f), cmp_frame);
		/* the same name may stand for several modules' functions */
		while (hit && hit > f && !strcmp(hit[-1].name, key.name))
			hit--;
		for (; hit && hit < f + n && !strcmp(hit->name, key.name);
		     hit++)
			hit->found |= !strcmp(hit->module, mod);
	}
	if (!n || !kallsyms)
		return 2;
	fclose(kallsyms);
	for (size_t i = 0; i < n; i++)
		if (!f[i].found && ++bad)
			fprintf(stderr, "not in kallsyms: %s [%s]\n", f[i].name,
				f[i].module);
	printf("%zu kernel functions, %zu not in kallsyms\n", n, bad);
	return bad ? 1 : 0;
}

/* guest_test as UID GROUP PROG ARGS...: runs PROG as UID (gid UID) with
 * GROUP as its only supplementary group (none when 0). */
int run_as(char **argv)
{
	if (!become(atoi(argv[0]), (gid_t)atoi(argv[1]))) {
		perror("guest_test as");
		return 126;
	}
	execv(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Runs inside the test's virtual machine as root (see test_module.sh):
 * hides kallsyms with kptr_restrict, loads perfjava_ksym.ko, resolves
 * kernel and module functions through the reader's own client
 * (user/sym/ksym_module.c) and compares with what /proc/kallsyms said while
 * it showed real addresses, checks that callers without CAP_SYSLOG or the
 * device's group are refused, and unloads the module. Prints "PJKSYM ok|not
 * ok <what>" per check and "PJKSYM RESULT guest_test pass=N fail=M" last.
 *
 *   guest_test /path/to/perfjava_ksym.ko
 *
 * It also serves guest_record.sh (guest_tools.c): `guest_test syscalls
 * SECONDS`, `guest_test as` and `guest_test named`.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest_tools.h"
#include "sym/ksym_module.h"

#define MODNAME "perfjava_ksym"
#define NOBODY 65534
#define GRANTED 1000 /* the group the device is given to */

struct sym {
	uint64_t addr;
	char type;
	char *name;
	char *module; /* "" for the kernel image */
};

static struct sym *syms;
static size_t nsyms;
static int npass, nfail;

static void check(bool cond, const char *fmt, ...)
{
	va_list ap;

	printf("PJKSYM %s ", cond ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (cond)
		npass++;
	else
		nfail++;
}

static void info(const char *fmt, ...)
{
	va_list ap;

	printf("PJKSYM # ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static bool set_kptr_restrict(int v)
{
	FILE *f = fopen("/proc/sys/kernel/kptr_restrict", "w");
	bool ok;

	if (!f)
		return false;
	ok = fprintf(f, "%d\n", v) > 0;
	return fclose(f) == 0 && ok;
}

/* Loads /proc/kallsyms into syms[]. */
static bool load_kallsyms(void)
{
	char line[1024], name[512], module[128];
	size_t cap = 0;
	FILE *f;

	for (size_t i = 0; i < nsyms; i++) {
		free(syms[i].name);
		free(syms[i].module);
	}
	nsyms = 0;
	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type;
		int n;

		module[0] = '\0';
		n = sscanf(line, "%llx %c %511s [%127[^]]]", &addr, &type, name,
			   module);
		if (n < 3)
			continue;
		if (nsyms == cap) {
			cap = cap ? cap * 2 : 65536;
			syms = realloc(syms, cap * sizeof(*syms));
			if (!syms)
				exit(2);
		}
		syms[nsyms++] =
		    (struct sym){ addr, type, strdup(name), strdup(module) };
	}
	fclose(f);
	return nsyms > 0;
}

/* How many /proc/kallsyms lines show a non-zero address. */
static long kallsyms_nonzero(void)
{
	char line[1024];
	long nonzero = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strtoull(line, NULL, 16) != 0)
			nonzero++;
	fclose(f);
	return nonzero;
}

static bool is_text(char type)
{
	return type == 't' || type == 'T';
}

static const struct sym *find(const char *name, const char *module)
{
	for (size_t i = 0; i < nsyms; i++)
		if (!strcmp(syms[i].name, name) &&
		    !strcmp(syms[i].module, module))
			return &syms[i];
	return NULL;
}

/* Distance to the next higher address of the kernel image, as kallsyms. */
static uint64_t image_size(const struct sym *s)
{
	for (size_t i = s - syms + 1; i < nsyms && !syms[i].module[0]; i++)
		if (syms[i].addr > s->addr)
			return syms[i].addr - s->addr;
	return 0;
}

static int resolve1(int fd, uint64_t addr, struct ksym_module_sym *out)
{
	return ksym_module_resolve(fd, &addr, 1, out);
}

static void check_function(int fd, const struct sym *s, uint64_t off)
{
	struct ksym_module_sym r;
	uint64_t size = s->module[0] ? 0 : image_size(s);
	int n = resolve1(fd, s->addr + off, &r);
	char want[32] = "not compared";

	if (size)
		snprintf(want, sizeof(want), "%#llx", (unsigned long long)size);
	check(n == 1 && r.found && !strcmp(r.name, s->name) &&
		  !strcmp(r.module, s->module) && r.offset == off &&
		  r.size > off && (!size || r.size == size),
	      "resolves %s+%#llx [%s]: got %s+%#llx/%#llx [%s], size %s",
	      s->name, (unsigned long long)off, s->module, r.name,
	      (unsigned long long)r.offset, (unsigned long long)r.size,
	      r.module, want);
}

/* A batch across several ioctls: spread text symbols plus unknown ones. */
static void check_batch(int fd)
{
	enum { N = 600 };
	static uint64_t addrs[N];
	static struct ksym_module_sym out[N];
	static size_t idx[N];
	size_t ncand = 0, step = 1, k = 0, n = 0, bad = 0, first_bad = 0;
	int found;

	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < nsyms && !syms[i].module[0]; i++) {
			/* kallsyms names an address by its first name. */
			if (!is_text(syms[i].type) ||
			    (i > 0 && syms[i - 1].addr == syms[i].addr))
				continue;
			if (pass == 0) {
				ncand++;
			} else if (k++ % step == 0 && n < N - 2) {
				idx[n] = i;
				addrs[n++] = syms[i].addr;
			}
		}
		step = ncand / (N - 2) + 1;
	}
	addrs[n] = 0;
	idx[n++] = SIZE_MAX;
	addrs[n] = 0x1000;
	idx[n++] = SIZE_MAX;
	found = ksym_module_resolve(fd, addrs, n, out);
	for (k = 0; k < n; k++) {
		bool good = idx[k] == SIZE_MAX
				? !out[k].found && !out[k].name[0] &&
				      !out[k].offset && !out[k].size
				: out[k].found && !out[k].offset &&
				      !strcmp(out[k].name, syms[idx[k]].name);
		if (!good && !bad++)
			first_bad = k;
	}
	check(found == (int)n - 2 && !bad,
	      "batch of %zu addresses (%zu ioctls): %d found, %zu wrong%s%s", n,
	      (n + PJ_KSYM_MAX_BATCH - 1) / PJ_KSYM_MAX_BATCH, found, bad,
	      bad ? ", first: got " : "", bad ? out[first_bad].name : "");
}

/* Raw ioctls the client never sends: each must fail with its errno. */
static void check_bad_requests(int fd)
{
	struct pj_ksym_entry e = { .addr = 0 };
	struct pj_ksym_resolve req;
	int rc;

	req = (struct pj_ksym_resolve){ PJ_KSYM_ABI_VERSION + 1, 1,
					(uintptr_t)&e, 0, 0 };
	rc = ioctl(fd, PJ_KSYM_IOC_RESOLVE, &req);
	check(rc < 0 && errno == EINVAL, "wrong ABI version: EINVAL");
	req = (struct pj_ksym_resolve){ PJ_KSYM_ABI_VERSION, 0, (uintptr_t)&e,
					0, 0 };
	rc = ioctl(fd, PJ_KSYM_IOC_RESOLVE, &req);
	check(rc < 0 && errno == EINVAL, "count 0: EINVAL");
	req.count = PJ_KSYM_MAX_BATCH + 1;
	rc = ioctl(fd, PJ_KSYM_IOC_RESOLVE, &req);
	check(rc < 0 && errno == EINVAL, "count above max_batch: EINVAL");
	req = (struct pj_ksym_resolve){ PJ_KSYM_ABI_VERSION, 1, 8, 0, 0 };
	rc = ioctl(fd, PJ_KSYM_IOC_RESOLVE, &req);
	check(rc < 0 && errno == EFAULT, "bad entries pointer: EFAULT");
	rc = ioctl(fd, _IO(PJ_KSYM_IOC_MAGIC, 99));
	check(rc < 0 && errno == ENOTTY, "unknown ioctl: ENOTTY");
	check(lseek(fd, 0, SEEK_SET) < 0 && errno == ESPIPE, "lseek: ESPIPE");
}

/*
 * Runs fn in a child as root without CAP_SYSLOG (uid < 0) or as uid, in
 * group when not 0; the child's exit status is fn's result: 0 as expected,
 * else errno or a code.
 */
static int in_child(int uid, gid_t group, int (*fn)(int), int arg)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (!become(uid, group))
			_exit(100);
		_exit(fn(arg));
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int try_open(int want_errno)
{
	int fd = open(PJ_KSYM_DEVICE, O_RDONLY);

	return fd < 0 && errno == want_errno ? 0 : fd < 0 ? errno : 200;
}

static int try_ioctl(int fd)
{
	struct ksym_module_sym r;
	struct pj_ksym_info info;
	uint64_t a = syms[0].addr;

	if (ksym_module_resolve(fd, &a, 1, &r) >= 0 || errno != EPERM)
		return 201;
	return ioctl(fd, PJ_KSYM_IOC_INFO, &info) < 0 && errno == EPERM ? 0
									: 202;
}

static int kallsyms_child(int unused)
{
	(void)unused;
	return kallsyms_nonzero() == 0 ? 0 : 203;
}

static void check_refusals(int fd)
{
	int rc;

	rc = in_child(-1, 0, try_open, EPERM);
	check(rc == 0, "root without CAP_SYSLOG cannot open (rc %d)", rc);
	rc = in_child(NOBODY, 0, try_open, EACCES);
	check(rc == 0, "nobody cannot open the 0600 device (rc %d)", rc);
	chmod(PJ_KSYM_DEVICE, 0666);
	rc = in_child(NOBODY, 0, try_open, EPERM);
	check(rc == 0, "nobody cannot open it even at mode 0666 (rc %d)", rc);
	chmod(PJ_KSYM_DEVICE, 0600);
	rc = in_child(-1, 0, try_ioctl, fd);
	check(rc == 0, "inherited fd, CAP_SYSLOG dropped: ioctls EPERM (rc %d)",
	      rc);
	rc = in_child(NOBODY, 0, try_ioctl, fd);
	check(rc == 0, "inherited fd, as nobody: ioctls EPERM (rc %d)", rc);
}

static uint64_t named_addr; /* vfs_read, for try_named */

/* Opens the device and names vfs_read; 0 when it could. */
static int try_named(int unused)
{
	struct ksym_module_sym r;
	int fd = ksym_module_open(), rc;

	(void)unused;
	if (fd < 0)
		return errno;
	rc = resolve1(fd, named_addr, &r) == 1 && r.found &&
		     !strcmp(r.name, "vfs_read")
		 ? 0
		 : 204;
	close(fd);
	return rc;
}

/* Opens the device, takes the group's read permission away, and calls. */
static int try_revoked(int unused)
{
	struct pj_ksym_info info;
	int fd = ksym_module_open();

	(void)unused;
	if (fd < 0)
		return errno;
	if (chmod(PJ_KSYM_DEVICE, 0600))
		return 205;
	return ioctl(fd, PJ_KSYM_IOC_INFO, &info) < 0 && errno == EPERM ? 0
									: 206;
}

/*
 * The administrator's grant: the device given to a group that may read it
 * (a udev rule's GROUP= and MODE="0640"). Its members need no CAP_SYSLOG;
 * others' permission bits never grant; taking the group's bit away refuses
 * an open descriptor's next call.
 */
static void check_group_grant(const struct sym *vfs_read)
{
	int rc;

	named_addr = vfs_read->addr;
	rc = chown(PJ_KSYM_DEVICE, 0, GRANTED) || chmod(PJ_KSYM_DEVICE, 0640);
	check(rc == 0, "device given to group %d, mode 0640", GRANTED);
	rc = in_child(NOBODY, GRANTED, try_named, 0);
	check(rc == 0, "nobody in group %d opens it and names vfs_read (rc %d)",
	      GRANTED, rc);
	rc = in_child(NOBODY, 0, try_open, EACCES);
	check(rc == 0, "nobody outside the group cannot open it (rc %d)", rc);
	chmod(PJ_KSYM_DEVICE, 0604);
	rc = in_child(NOBODY, 0, try_open, EPERM);
	check(rc == 0, "mode 0604: others' read bit does not grant (rc %d)",
	      rc);
	chmod(PJ_KSYM_DEVICE, 0640);
	rc = in_child(-1, GRANTED, try_revoked, 0);
	check(rc == 0,
	      "group's bit taken away: the member's open fd gets EPERM (rc %d)",
	      rc);
	rc = chown(PJ_KSYM_DEVICE, 0, 0) || chmod(PJ_KSYM_DEVICE, 0600);
	check(rc == 0, "device back to root, mode 0600");
}

/* The kernel log must show no BUG, WARNING or Oops. */
static void check_kernel_log(void)
{
	static const char *const bad[] = { "BUG:", "WARNING:", "Oops",
					   "general protection", "Call Trace" };
	int len = klogctl(10, NULL, 0); /* SYSLOG_ACTION_SIZE_BUFFER */
	char *buf = len > 0 ? calloc(1, len + 1) : NULL;
	const char *hit = NULL;

	if (buf)
		len = klogctl(3, buf, len); /* SYSLOG_ACTION_READ_ALL */
	for (size_t i = 0; buf && len > 0 && i < sizeof(bad) / sizeof(*bad);
	     i++)
		if (!hit && strstr(buf, bad[i]))
			hit = strstr(buf, bad[i]);
	check(buf && len > 0 && !hit,
	      "kernel log has no BUG/WARNING/Oops%s%.300s", hit ? ": " : "",
	      hit ? hit : "");
	free(buf);
}

static bool module_listed(void)
{
	char line[512];
	bool found = false;
	FILE *f = fopen("/proc/modules", "r");

	while (f && fgets(line, sizeof(line), f))
		found |= !strncmp(line, MODNAME " ", strlen(MODNAME) + 1);
	if (f)
		fclose(f);
	return found;
}

/* The module's own function, preferring its ioctl handler. */
static const struct sym *module_function(void)
{
	const struct sym *s = find("pj_ksym_ioctl", MODNAME);

	for (size_t i = 0; !s && i < nsyms; i++)
		if (is_text(syms[i].type) && !strcmp(syms[i].module, MODNAME))
			s = &syms[i];
	return s;
}

int main(int argc, char **argv)
{
	const struct sym *vfs_read, *schedule, *modfn;
	struct sym modcopy;
	struct stat st;
	long nonzero;
	int kofd, fd, rc;

	if (argc == 3 && !strcmp(argv[1], "syscalls"))
		return run_syscalls(atof(argv[2]));
	if (argc >= 5 && !strcmp(argv[1], "as"))
		return run_as(argv + 2);
	if (argc >= 3 && !strcmp(argv[1], "named"))
		return run_named(argc - 2, argv + 2);
	if (argc != 2) {
		fprintf(stderr,
			"usage: guest_test perfjava_ksym.ko\n"
			"       guest_test syscalls SECONDS\n"
			"       guest_test named SCRIPT...\n"
			"       guest_test as UID GROUP PROG ARGS...\n");
		return 2;
	}
	check(set_kptr_restrict(0) && load_kallsyms(),
	      "kptr_restrict=0: read /proc/kallsyms");
	vfs_read = find("vfs_read", "");
	schedule = find("schedule", "");
	check(vfs_read && schedule && vfs_read->addr && schedule->addr,
	      "kallsyms shows vfs_read and schedule with real addresses");
	if (!vfs_read || !schedule)
		goto out;

	set_kptr_restrict(1);
	rc = in_child(NOBODY, 0, kallsyms_child, 0);
	check(rc == 0, "kptr_restrict=1: zero addresses without CAP_SYSLOG");
	check(set_kptr_restrict(2), "set kptr_restrict=2");
	nonzero = kallsyms_nonzero();
	check(nonzero == 0,
	      "kptr_restrict=2: zero addresses even for root (%ld not)",
	      nonzero);

	kofd = open(argv[1], O_RDONLY | O_CLOEXEC);
	rc = kofd < 0 ? -1 : syscall(SYS_finit_module, kofd, "", 0);
	check(rc == 0, "insmod %s%s%s", argv[1], rc ? ": " : "",
	      rc ? strerror(errno) : "");
	if (rc)
		goto out;
	close(kofd);
	rc = stat(PJ_KSYM_DEVICE, &st);
	check(!rc && S_ISCHR(st.st_mode) && (st.st_mode & 07777) == 0600 &&
		  st.st_uid == 0,
	      "%s is a root-owned 0600 character device (mode %o)",
	      PJ_KSYM_DEVICE, rc ? 0 : st.st_mode & 07777);

	fd = ksym_module_open();
	check(fd >= 0, "ksym_module_open as root with CAP_SYSLOG (%s)",
	      fd < 0 ? strerror(errno) : "ABI ok");
	if (fd < 0)
		goto unload;
	check_function(fd, vfs_read, 0);
	check_function(fd, vfs_read, 1);
	check_function(fd, schedule, 0x10);
	check_batch(fd);
	check_bad_requests(fd);
	check_refusals(fd);
	check_group_grant(vfs_read);

	/* A module's function: its address only shows with kptr_restrict=0. */
	set_kptr_restrict(0);
	load_kallsyms();
	set_kptr_restrict(2);
	modfn = module_function();
	check(modfn != NULL, "kallsyms lists a function of " MODNAME);
	if (modfn) {
		modcopy = *modfn;
		check(kallsyms_nonzero() == 0, "kallsyms hidden again");
		check_function(fd, &modcopy, 0);
		check_function(fd, &modcopy, 3);
	}
	close(fd);

unload:
	rc = syscall(SYS_delete_module, MODNAME, O_NONBLOCK);
	check(rc == 0, "rmmod%s%s", rc ? ": " : "", rc ? strerror(errno) : "");
	check(!module_listed() && access(PJ_KSYM_DEVICE, F_OK) < 0,
	      "module and device gone after rmmod");
	check_kernel_log();
out:
	info("kernel symbols read: %zu", nsyms);
	printf("PJKSYM RESULT guest_test pass=%d fail=%d\n", npass, nfail);
	fflush(stdout);
	return nfail ? 1 : 0;
}

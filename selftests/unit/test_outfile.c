// SPDX-License-Identifier: GPL-2.0
/* lib/outfile: outputs made under a temporary name and renamed, never
 * through a link, an existing output refused unless a regular file of ours.
 * (The attacks by another user are in selftests/security/test_outputs.sh.) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/outfile.h"
#include "tap.h"

static char dir[64];

static const char *at(const char *name)
{
	static char buf[4][256];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

static int files_in_dir(void)
{
	char cmd[128];
	FILE *f;
	int n = 0;

	snprintf(cmd, sizeof(cmd), "ls -A %s | wc -l", dir);
	f = popen(cmd, "r");
	if (f && fscanf(f, "%d", &n) != 1)
		n = -1;
	if (f)
		pclose(f);
	return n;
}

static char *slurp(const char *path)
{
	static char buf[256];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = 0;
	return buf;
}

static int put(const char *path, const char *text)
{
	struct outfile o;
	char err[512];

	if (outfile_create(&o, path, 0600, true, err, sizeof(err)))
		return -1;
	if (write(o.fd, text, strlen(text)) < 0 ||
	    outfile_commit(&o, err, sizeof(err))) {
		outfile_discard(&o);
		return -1;
	}
	outfile_discard(&o);
	return 0;
}

static void test_new_and_replace(void)
{
	struct outfile o;
	char err[512];
	struct stat st;
	int r;

	r = outfile_create(&o, at("a.data"), 0600, true, err, sizeof(err));
	ok(!r && o.fd >= 0 && access(at("a.data"), F_OK) && files_in_dir() == 1,
	   "a new output is made under a temporary name (%s)", r ? err : o.tmp);
	ok(!r && write(o.fd, "one", 3) == 3 &&
	       !outfile_commit(&o, err, sizeof(err)) &&
	       !strcmp(slurp(at("a.data")), "one") && files_in_dir() == 1,
	   "commit gives it its name, nothing else left");
	ok(!outfile_commit(&o, err, sizeof(err)), "a second commit is a no-op");
	outfile_discard(&o);
	ok(!strcmp(slurp(at("a.data")), "one"),
	   "discard keeps a committed file");

	ok(!put(at("a.data"), "two") && !strcmp(slurp(at("a.data")), "two") &&
	       !strcmp(slurp(at("a.data.old")), "one"),
	   "a file of ours it replaces becomes NAME.old");
	r = stat(at("a.data"), &st);
	ok(!r && (st.st_mode & 0777) == 0600,
	   "the new file has the mode asked for (%o)", st.st_mode & 0777);

	r = outfile_create(&o, at("a.data"), 0600, true, err, sizeof(err));
	outfile_discard(&o);
	ok(!r && !strcmp(slurp(at("a.data")), "two") && files_in_dir() == 2,
	   "an output never committed leaves the old one as it was");
}

static void test_refused(void)
{
	struct outfile o;
	char err[512], sub[300];
	struct stat st;
	int r, n;

	if (symlink(at("victim"), at("link.data")))
		return;
	n = files_in_dir();
	r = outfile_create(&o, at("link.data"), 0600, true, err, sizeof(err));
	ok(r && strstr(err, "symbolic link") && access(at("victim"), F_OK) &&
	       files_in_dir() == n,
	   "a symlink as the output is refused (%s)", err);
	r = outfile_create(&o, at("dangling"), 0600, false, err, sizeof(err));
	ok(!r, "a plain new name is fine");
	outfile_discard(&o);
	if (!symlink(at("nowhere"), at("dangling"))) {
		r = outfile_create(&o, at("dangling"), 0600, false, err,
				   sizeof(err));
		ok(r && access(at("nowhere"), F_OK),
		   "nothing is written through a dangling link (%s)", err);
	}
	r = outfile_create(&o, "/dev/null", 0600, true, err, sizeof(err));
	ok(r && strstr(err, "not a regular file"),
	   "a device as the output is refused (%s)", err);
	r = outfile_create(&o, at(""), 0600, true, err, sizeof(err));
	ok(r && strstr(err, "Is a directory"), "a directory is refused (%s)",
	   err);
	r = outfile_create(&o, "/nonexistent/dir/x.data", 0600, true, err,
			   sizeof(err));
	ok(r && !strcmp(err, "cannot create /nonexistent/dir/x.data: No such "
			     "file or directory"),
	   "a missing directory: %s", err);
	if (!put(at("b.data"), "b") && !mkdir(at("b.data.old"), 0700)) {
		r = outfile_create(&o, at("b.data"), 0600, true, err,
				   sizeof(err));
		ok(r && strstr(err, "b.data.old"),
		   "a NAME.old that could not be replaced is refused up front "
		   "(%s)",
		   err);
	}
	/* a directory reached through our own link is fine */
	snprintf(sub, sizeof(sub), "%s/real", dir);
	if (!mkdir(sub, 0700) && !symlink("real", at("ours"))) {
		r = put(at("ours/c.data"), "c");
		ok(!r && !strcmp(slurp(at("real/c.data")), "c"),
		   "a directory reached through a link of ours");
	}
	ok(!outfile_remove(at("real/c.data")) &&
	       access(at("real/c.data"), F_OK),
	   "outfile_remove removes a file of ours");
	r = outfile_remove(at("link.data"));
	ok(r && errno == EPERM && !lstat(at("link.data"), &st),
	   "but not a link");
}

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/pj-outfile.XXXXXX");
	if (!mkdtemp(dir)) {
		skip("outfile", "cannot make a directory in /tmp");
		return tap_done();
	}
	test_new_and_replace();
	test_refused();
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd)) {
			/* left behind in /tmp */
		}
	}
	return tap_done();
}

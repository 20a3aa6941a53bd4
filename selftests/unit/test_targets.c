// SPDX-License-Identifier: GPL-2.0
/*
 * What names record's targets: id lists as perf takes them (-p, -t, -C)
 * and a process's container from its cgroup, for every runtime's layout
 * and for cgroups that name none or are made to mislead.
 */
#include <string.h>

#include "record/container.h"
#include "record/idlist.h"
#include "tap.h"

static void test_idlist(void)
{
	struct idlist l = { 0 };
	char buf[64];

	ok(!idlist_add(&l, "10,11,12", false, 0x7fffffff) && l.n == 3 &&
	       l.v[2] == 12,
	   "-p 10,11,12: three");
	ok(!idlist_add(&l, "11,13", false, 0x7fffffff) && l.n == 4 &&
	       idlist_has(&l, 13),
	   "-p again adds to the list, an id given twice counts once");
	idlist_print(&l, buf, sizeof(buf));
	ok(!strcmp(buf, "10,11,12,13"), "printed as given (%s)", buf);
	idlist_free(&l);
	ok(!idlist_add(&l, "0-2,5", true, 4095) && l.n == 4 && l.v[3] == 5,
	   "-C 0-2,5: ranges");
	idlist_free(&l);
	ok(idlist_add(&l, "0", false, 100) &&
	       idlist_add(&l, "1,,2", false, 100) &&
	       idlist_add(&l, "1,", false, 100) &&
	       idlist_add(&l, "-1", false, 100) &&
	       idlist_add(&l, "x", false, 100) &&
	       idlist_add(&l, "101", false, 100) &&
	       idlist_add(&l, "3-1", true, 100) &&
	       idlist_add(&l, "1 2", false, 100) &&
	       idlist_add(&l, "", false, 100) &&
	       idlist_add(&l, "0-99999999", true, 100),
	   "not lists: 0 (a pid), empty items, negative, words, over the "
	   "bound, backward and huge ranges");
	idlist_free(&l);
	ok(!idlist_online_cpus(&l) && l.n >= 1 && idlist_has(&l, 0),
	   "the CPUs online (%u)", l.n);
	idlist_free(&l);
}

static void test_container(void)
{
	static const char id[] =
	    "3f2a9c1b7e4d5f60718293a4b5c6d7e8f90123456789abcdef0123456789abcd";
	static const struct {
		const char *cgroup, *want;
	} cases[] = {
		{ "0::/system.slice/docker-%s.scope\n", "docker:3f2a9c1b7e4d" },
		{ "12:pids:/docker/%s\n11:cpu:/docker/%s\n",
		  "docker:3f2a9c1b7e4d" },
		{ "0::/kubepods.slice/kubepods-burstable.slice/"
		  "kubepods-burstable-pod1234.slice/cri-containerd-%s.scope\n",
		  "k8s:3f2a9c1b7e4d" },
		{ "3:memory:/kubepods/burstable/pod1234/%s\n",
		  "k8s:3f2a9c1b7e4d" },
		{ "0::/kubepods.slice/crio-%s.scope\n", "k8s:3f2a9c1b7e4d" },
		{ "0::/machine.slice/libpod-%s.scope/container\n",
		  "podman:3f2a9c1b7e4d" },
		{ "0::/lxc.payload.web1/init.scope\n", "lxc:web1" },
		{ "5:cpu:/lxc/db/\n", "lxc:db" },
		{ "0::/machine.slice/machine-build\\x2d3.scope\n",
		  "machine:build_x2d3" },
		{ "0::/user.slice/user-1000.slice/session-2.scope\n", "" },
		{ "0::/system.slice/nginx.service\n", "" },
		{ "0::/\n", "" },
		{ "", "" },
		{ "garbage without colons", "" },
		{ "0::/docker-%s.scope.evil\n", "" }, /* not a scope */
		{ "0::/docker-abc.scope\n", "" }, /* not an id */
		{ "0::/lxc.payload.a\033[31mred\n", "lxc:a__31mred" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char text[1024], out[64];
		bool found;

		snprintf(text, sizeof(text), cases[i].cgroup, id, id);
		found = container_of_cgroup(text, out, sizeof(out));
		ok(found == !!*cases[i].want && !strcmp(out, cases[i].want),
		   "cgroup %zu: \"%s\" (want \"%s\")", i, out, cases[i].want);
	}
	{
		char out[8];

		container_of_cgroup("0::/lxc.payload.averyveryverylongname\n",
				    out, sizeof(out));
		ok(strlen(out) == 7 && !strncmp(out, "lxc:ave", 7),
		   "a long name is cut to the room given");
	}
}

int main(void)
{
	test_idlist();
	test_container();
	return tap_done();
}

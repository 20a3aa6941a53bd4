// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/PID/maps parsing: a synthesized file with every kind of line
 * (file, deleted file, path with spaces, [heap], [vdso], anonymous, out of
 * order, garbage), and this process's own maps.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "tap.h"
#include "sym/maps.h"

static const char text[] =
    "55d0c0a00000-55d0c0a02000 r--p 00000000 fd:01 1234   /usr/bin/prog\n"
    "55d0c0a02000-55d0c0a05000 r-xp 00002000 fd:01 1234   /usr/bin/prog\n"
    "55d0c1000000-55d0c1021000 rw-p 00000000 00:00 0      [heap]\n"
    "7f0000000000-7f0000001000 r-xp 00001000 08:02 777    /tmp/gone.so (deleted)\n"
    "7f0000002000-7f0000003000 r-xp 00000000 08:02 778    /opt/my app/lib x.so\n"
    "7f0000004000-7f0000005000 rw-p 00000000 00:00 0 \n"
    "7fff00000000-7fff00002000 r-xp 00000000 00:00 0      [vdso]\n"
    "not a maps line at all\n"
    "7ffe00000000-7ffe00021000 rw-p 00000000 00:00 0      [stack]\n"
    "ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0  [vsyscall]";

int main(void)
{
	struct pj_maps m;
	const struct pj_map *p;
	unsigned int i, sorted = 1;
	uint64_t vdso = getauxval(AT_SYSINFO_EHDR);
	int found_self = 0;
	void *heap;

	ok(maps_parse(text, &m) == 0, "synthesized maps parse");
	ok(m.n == 9, "9 mappings (the garbage line dropped): %u", m.n);
	for (i = 1; i < m.n; i++)
		if (m.v[i].start < m.v[i - 1].start)
			sorted = 0;
	ok(sorted, "sorted by start although the file was not");

	p = maps_find(&m, 0x55d0c0a03123);
	ok(p && !strcmp(p->path, "/usr/bin/prog") && p->exec &&
	       p->pgoff == 0x2000 && p->inode == 1234 && p->dev_major == 0xfd &&
	       p->dev_minor == 1 && !p->deleted,
	   "file mapping: path, exec, offset, inode, device");
	p = maps_find(&m, 0x55d0c1000010);
	ok(p && !strcmp(p->path, "[heap]") && !p->exec, "[heap]");
	p = maps_find(&m, 0x7f0000000800);
	ok(p && !strcmp(p->path, "/tmp/gone.so") && p->deleted &&
	       p->pgoff == 0x1000,
	   "deleted file: suffix cut, flag set");
	p = maps_find(&m, 0x7f0000002000);
	ok(p && !strcmp(p->path, "/opt/my app/lib x.so"), "path with spaces");
	p = maps_find(&m, 0x7f0000004fff);
	ok(p && !strcmp(p->path, "") && !p->inode, "anonymous mapping");
	p = maps_find(&m, 0x7fff00001000);
	ok(p && !strcmp(p->path, "[vdso]") && p->exec, "[vdso]");
	p = maps_find(&m, 0xffffffffff600000);
	ok(p && !strcmp(p->path, "[vsyscall]"), "[vsyscall] at the top");
	ok(!maps_find(&m, 0x7f0000001000), "end is exclusive");
	ok(!maps_find(&m, 0x1000), "below every mapping");
	ok(!maps_find(&m, 0x7f0000003800), "in a gap");
	maps_free(&m);
	ok(m.n == 0 && !m.v, "freed");

	ok(maps_parse("", &m) == 0 && m.n == 0, "empty text");
	maps_free(&m);

	heap = malloc(100);
	i = maps_load(getpid(), &m);
	ok(i == 0 && m.n > 5, "own maps load (%u)", m.n);
	p = maps_find(&m, (uint64_t)(uintptr_t)main);
	ok(p && p->exec && p->path[0] == '/',
	   "main is in an executable file "
	   "mapping (%s)",
	   p ? p->path : "none");
	p = maps_find(&m, vdso);
	ok(p && !strcmp(p->path, "[vdso]"), "the vdso is where auxv says");
	p = maps_find(&m, (uint64_t)(uintptr_t)&found_self);
	ok(p && !strcmp(p->path, "[stack]"), "a local is on [stack]");
	p = maps_find(&m, (uint64_t)(uintptr_t)heap);
#ifdef __SANITIZE_ADDRESS__
	skip("malloc(100) is on [heap]",
	     "AddressSanitizer's allocator maps its own memory");
#else
	ok(p && !strcmp(p->path, "[heap]"), "malloc(100) is on [heap]");
#endif
	maps_free(&m);
	free(heap);
	ok(maps_load(999999999, &m) == -1, "a missing process fails");
	return tap_done();
}

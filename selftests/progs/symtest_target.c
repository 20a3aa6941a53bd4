// SPDX-License-Identifier: GPL-2.0
/*
 * A target for the symbolization tests: prints the runtime addresses of its
 * own functions (and of a heap block, an anonymous page, the vdso and a libc
 * function), then obeys commands on stdin:
 *   "dlopen PATH SYMBOL"  loads a library and prints the symbol's address
 *   EOF                   exits
 * Every batch of output ends with "ready". The tests build it themselves as
 * PIE, non-PIE, stripped and so on; the Makefile builds it as well.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

/* A function without a size (hand-written assembly often has none). */
__asm__(".text\n"
	".globl symtest_nosize\n"
	".type symtest_nosize, @function\n"
	"symtest_nosize:\n"
	"\tnop\n\tnop\n\tnop\n\tnop\n\tret\n");
void symtest_nosize(void);

volatile int symtest_sink;

__attribute__((noinline)) int symtest_alpha(int x)
{
	symtest_sink += x;
	return x * 3 + symtest_sink;
}

__attribute__((noinline)) int symtest_beta(int x)
{
	int i, s = 0;

	for (i = 0; i < x; i++)
		s += symtest_alpha(i) ^ i;
	return s;
}

/* In a section of its own: linked with --section-start it lands in a second
 * executable segment, at a virtual address unlike its file offset. */
__attribute__((noinline, section("symfar"))) int symtest_far(int x)
{
	return x * 7 + symtest_sink;
}

__attribute__((noinline)) static int symtest_local(int x)
{
	symtest_sink ^= x;
	return symtest_beta(x & 7) + symtest_far(x);
}

static void print_fn(const char *name, void *addr)
{
	printf("fn %s %p\n", name, addr);
}

int main(int argc, char **argv)
{
	char line[4096];
	void *anon = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *heap = malloc(64);

	(void)argv;
	setvbuf(stdout, NULL, _IOLBF, 0);
	symtest_sink = symtest_local(argc);
	print_fn("symtest_alpha", (void *)symtest_alpha);
	print_fn("symtest_beta", (void *)symtest_beta);
	print_fn("symtest_local", (void *)symtest_local);
	print_fn("symtest_far", (void *)symtest_far);
	print_fn("main", (void *)main);
	printf("nosize %p\n", (void *)symtest_nosize);
	printf("libc getpid %p\n", (void *)getpid);
	printf("heap %p\n", heap);
	printf("anon %p\n", anon);
	printf("vdso %#lx\n", getauxval(AT_SYSINFO_EHDR));
	printf("ready\n");
	while (fgets(line, sizeof(line), stdin)) {
		char path[2048], sym[256];
		void *h, *p = NULL;

		if (sscanf(line, "dlopen %2047s %255s", path, sym) == 2) {
			h = dlopen(path, RTLD_NOW);
			if (h)
				p = dlsym(h, sym);
			printf("sym %s %p\n", sym, p);
		}
		printf("ready\n");
	}
	free(heap);
	return 0;
}

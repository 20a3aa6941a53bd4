// SPDX-License-Identifier: GPL-2.0
/*
 * The unwinder through its real code (libdw over this very process): a
 * stack copied here unwinds to main with the right names in order; the
 * default mode's join against synthesized frame-pointer chains; and damaged
 * copies and registers (random bytes, a saved frame pointer that points to
 * itself, stack pointers at the ends of the address space) end the walk,
 * never crash it or loop. Every walk is also done by libdw alone and
 * compared (the check mode): the fast path's rows (unwind/rules.c) give
 * libdw's frames and ends exactly, and leave a signal frame to libdw.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rings/perf_parse.h"
#include "sym/maps.h"
#include "sym/usym.h"
#include "tap.h"
#include "unwind/unwind.h"

#define COPY 8192
#define MAXF 256

static uint8_t stack_copy[COPY];
static size_t copied;
static uint64_t regs[UNWIND_NREGS];

/* The stack from sp up, as the kernel copies it: byte by byte, past the
 * bounds of any one variable (which AddressSanitizer would call a bug). */
__attribute__((no_sanitize_address, noinline)) static void
copy_stack(uint8_t *to, uintptr_t sp, size_t n)
{
	for (size_t i = 0; i < n; i++)
		to[i] = ((const volatile uint8_t *)sp)[i];
}

/* Registers of this very point, and the stack above it (as the kernel
 * copies it into a sample). */
__attribute__((noinline)) static void capture(void)
{
	uint64_t sp, bp, ip, bx, r12, r13, r14, r15;
	struct pj_maps m;
	const struct pj_map *s;

	__asm__ volatile("mov %%rsp, %0\n\t"
			 "mov %%rbp, %1\n\t"
			 "lea 0(%%rip), %2\n\t"
			 "mov %%rbx, %3\n\t"
			 "mov %%r12, %4\n\t"
			 "mov %%r13, %5\n\t"
			 "mov %%r14, %6\n\t"
			 "mov %%r15, %7\n\t"
			 : "=m"(sp), "=m"(bp), "=r"(ip), "=m"(bx), "=m"(r12),
			   "=m"(r13), "=m"(r14), "=m"(r15));
	memset(regs, 0, sizeof(regs));
	regs[UNWIND_DW_SP] = sp;
	regs[UNWIND_DW_BP] = bp;
	regs[UNWIND_DW_PC] = ip;
	regs[3] = bx;
	regs[12] = r12;
	regs[13] = r13;
	regs[14] = r14;
	regs[15] = r15;
	copied = 0;
	if (maps_load(getpid(), &m))
		return;
	s = maps_find(&m, sp);
	if (s) {
		copied = s->end - sp < COPY ? s->end - sp : COPY;
		copy_stack((uint8_t *)stack_copy, sp, copied);
	}
	maps_free(&m);
}

__attribute__((noinline)) static void level2(void)
{
	capture();
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) static void level1(void)
{
	level2();
	__asm__ volatile("" ::: "memory");
}

static const char *name_of(struct usym *us, uint64_t ip, bool leaf)
{
	struct usym_result r;

	usym_resolve(us, leaf ? ip : ip - 1, &r);
	return r.name;
}

static void test_real_stack(struct unwinder *u, struct usym *us)
{
	uint64_t ips[MAXF], sps[MAXF];
	struct unwind_out o = { ips, sps, MAXF, 0, UNWIND_BAD };
	const char *want[] = { "capture", "level2", "level1", "main" };
	unsigned int i, k = 0;
	char got[512] = "";

	level1();
	ok(copied > 64, "captured %zu bytes of this stack", copied);
	unwind_sample(u, getpid(), regs, stack_copy, copied, &o);
	for (i = 0; i < o.n && k < 4; i++) {
		const char *n = name_of(us, ips[i], i == 0);

		if (strlen(got) + strlen(n) + 2 < sizeof(got)) {
			strcat(got, n);
			strcat(got, ";");
		}
		if (!strcmp(n, want[k]))
			k++;
		else if (k < 3) /* capture..level1 are adjacent frames */
			break;
	}
	ok(k == 4, "CFI unwinds capture;level2;level1;...;main in order (%s)",
	   got);
	ok(o.end == UNWIND_COMPLETE, "the walk reached the outermost frame");
	for (i = 1; i < o.n; i++)
		if (sps[i] < sps[i - 1])
			break;
	ok(o.n > 4 && i == o.n, "%u frames, stack pointers rising", o.n);

	o.n = 0;
	unwind_sample(u, getpid(), regs, stack_copy, 64, &o);
	ok(o.end == UNWIND_CUT && o.n >= 1,
	   "a 64-byte copy: cut (end %d, %u frames)", o.end, o.n);
}

static void test_damaged(struct unwinder *u)
{
	static uint8_t junk[COPY];
	uint64_t ips[MAXF], sps[MAXF], bps[MAXF], dw[UNWIND_NREGS];
	struct unwind_out o = { ips, sps, MAXF, 0, UNWIND_BAD, bps };
	unsigned int i, j, worst = 0;
	uint64_t anon = (uint64_t)(uintptr_t)junk + 4096;
	bool bounded = true;

	srand(12345);
	for (i = 0; i < 3000; i++) {
		memcpy(junk, stack_copy, sizeof(junk));
		/* a few words of the real stack replaced, or all of it */
		for (j = 0; j < (i % 3 == 2 ? COPY / 8 : 1 + i % 16); j++) {
			uint64_t v = ((uint64_t)rand() << 33) ^ rand();
			unsigned int at = (unsigned int)rand() % (COPY / 8);

			if (i & 1) /* plausible values: stack and code */
				v = j & 1 ? regs[UNWIND_DW_SP] + (v % COPY)
					  : regs[UNWIND_DW_PC] + (v % 65536);
			memcpy(junk + at * 8, &v, 8);
		}
		memcpy(dw, regs, sizeof(dw));
		if (i % 5 == 4)
			for (j = 0; j < UNWIND_NREGS; j++)
				if (rand() & 1)
					dw[j] = ((uint64_t)rand() << 31) ^
						rand();
		o.stop_at_anon = i % 7 == 3;
		unwind_sample(u, getpid(), dw, junk, copied, &o);
		if (o.n > MAXF || o.end >= UNWIND_NEND)
			bounded = false;
		if (o.n > worst)
			worst = o.n;
	}
	o.stop_at_anon = false;
	ok(bounded,
	   "3000 damaged copies and registers: every walk ended "
	   "within the frame limit (deepest %u)",
	   worst);

	/* JIT-like code (no module) whose saved frame pointer is itself. */
	memset(junk, 0, sizeof(junk));
	memset(dw, 0, sizeof(dw));
	dw[UNWIND_DW_SP] = 0x7f0000001000ull;
	dw[UNWIND_DW_BP] = dw[UNWIND_DW_SP];
	dw[UNWIND_DW_PC] = anon;
	memcpy(junk, &dw[UNWIND_DW_BP], 8);
	memcpy(junk + 8, &anon, 8);
	unwind_sample(u, getpid(), dw, junk, 64, &o);
	ok(o.n <= 3, "a frame pointer pointing to itself: %u frames, end %d",
	   o.n, o.end);

	/* Stack pointers at the ends of the address space. */
	dw[UNWIND_DW_SP] = UINT64_MAX - 7;
	dw[UNWIND_DW_BP] = UINT64_MAX - 7;
	unwind_sample(u, getpid(), dw, junk, COPY, &o);
	ok(o.n >= 1 && o.n <= 3, "sp at the top of the address space: %u", o.n);
	dw[UNWIND_DW_SP] = 0;
	unwind_sample(u, getpid(), dw, NULL, 0, &o);
	ok(o.n == 1 && o.end == UNWIND_NO_COPY,
	   "no stack copy at all: the pc alone (%u)", o.n);
	dw[UNWIND_DW_PC] = 0;
	unwind_sample(u, getpid(), dw, junk, COPY, &o);
	ok(o.n == 0 && o.end == UNWIND_BAD, "pc 0: no frame, marked bad");
	o.max = 1;
	unwind_sample(u, getpid(), regs, stack_copy, copied, &o);
	ok(o.n == 1, "the frame limit holds (%u of 1)", o.n);
}

static void test_regs(void)
{
	uint64_t perf[17], dw[UNWIND_NREGS];
	unsigned int i;

	/* perf order: ax bx cx dx si di bp sp ip r8..r15 */
	for (i = 0; i < 17; i++)
		perf[i] = 100 + i;
	ok(unwind_regs_from_perf(perf, 17, UNWIND_REGS_MASK, dw) &&
	       dw[0] == 100 && dw[1] == 103 && dw[3] == 101 &&
	       dw[UNWIND_DW_BP] == 106 && dw[UNWIND_DW_SP] == 107 &&
	       dw[UNWIND_DW_PC] == 108 && dw[8] == 109 && dw[15] == 116,
	   "perf registers to DWARF order");
	ok(!unwind_regs_from_perf(perf, 6, UNWIND_REGS_MASK, dw),
	   "a sample without sp and ip is refused");
}

/* A sample record: IP, REGS_USER (abi, 17 registers), STACK_USER. */
static struct perf_event_header *synth(uint64_t *buf, uint64_t abi,
				       uint64_t size, uint64_t dyn,
				       unsigned int data_words)
{
	struct perf_event_header *h = (void *)buf;
	unsigned int n = 1, i;

	buf[n++] = 0x401000; /* ip */
	buf[n++] = abi;
	if (abi)
		for (i = 0; i < 17; i++)
			buf[n++] = 100 + i;
	buf[n++] = size;
	for (i = 0; i < data_words; i++)
		buf[n++] = 0x5000 + i;
	if (size)
		buf[n++] = dyn;
	h->type = PERF_RECORD_SAMPLE;
	h->misc = 0;
	h->size = (uint16_t)(n * 8);
	return h;
}

static void test_parse(void)
{
	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_REGS_USER |
			    PERF_SAMPLE_STACK_USER;
	uint64_t buf[64];
	struct pj_raw_sample s;
	struct perf_event_header *h;

	h = synth(buf, 2, 64, 40, 8);
	ok(!sample_parse_regs(h, st, 0, UNWIND_REGS_MASK, &s) &&
	       s.regs_abi == 2 && s.nregs == 17 && s.stack_size == 40 &&
	       s.stack && !memcmp(s.stack, &buf[21], 8),
	   "regs and stack parsed: 17 registers, 40 of 64 bytes copied");
	h = synth(buf, 0, 0, 0, 0);
	ok(!sample_parse_regs(h, st, 0, UNWIND_REGS_MASK, &s) && !s.regs_abi &&
	       !s.nregs && !s.stack && !s.stack_size,
	   "no user registers (a kernel thread): none, no stack");
	h = synth(buf, 2, 64, 4096, 8);
	ok(!sample_parse_regs(h, st, 0, UNWIND_REGS_MASK, &s) &&
	       s.stack_size == 64,
	   "a copied size beyond the room is bounded by it");
	h = synth(buf, 2, 64, 40, 8);
	h->size -= 16; /* the stack data runs past the record */
	ok(sample_parse_regs(h, st, 0, UNWIND_REGS_MASK, &s) == -1,
	   "a stack beyond the record's end is refused");
	h = synth(buf, 2, 1u << 20, 40, 8);
	ok(sample_parse_regs(h, st, 0, UNWIND_REGS_MASK, &s) == -1,
	   "a huge stack size is refused");
	h = synth(buf, 2, 64, 40, 8);
	h->size = 8 * 10; /* the registers cut short */
	ok(sample_parse_regs(h, st, 0, UNWIND_REGS_MASK, &s) == -1,
	   "registers cut short are refused");
}

static void test_join(void)
{
	/* CFI: leaf L, then A, B (B's frame at sp 0x1100), C, D */
	const uint64_t dips[] = { 0x10, 0x20, 0x30, 0x40, 0x50 };
	const uint64_t dsps[] = { 0x1000, 0x1040, 0x1080, 0x1100, 0x1200 };
	/* the kernel chain from bp 0x10f0: L, then 0x40 (read at 0x10f8) */
	const uint64_t fips[] = { 0x10, 0x40, 0x50, 0x60, 0x70 };
	uint64_t out[16], stack[0x300 / 8] = { 0 };
	unsigned int n;

	/* the chain's next link: [0x10f0] = 0x11f0, whose +16 is D's sp */
	stack[0xf0 / 8] = 0x11f0;
	n = unwind_join(dips, dsps, 5, UNWIND_CUT, fips, 5, 0x10f0, stack,
			0x1000, sizeof(stack), false, out, 16);
	ok(n == 7 && out[0] == 0x10 && out[1] == 0x20 && out[2] == 0x30 &&
	       out[3] == 0x40 && out[4] == 0x50 && out[5] == 0x60 &&
	       out[6] == 0x70,
	   "join: CFI frames A, B the chain skipped, joined at the deepest "
	   "common frame (%u)",
	   n);
	n = unwind_join(dips, dsps, 5, UNWIND_COMPLETE, fips, 5, 0x10f0, stack,
			0x1000, sizeof(stack), false, out, 16);
	ok(n == 5 && out[4] == 0x50, "join: complete CFI is taken whole");
	{
		const uint64_t far[] = { 0x10, 0x400040, 0x400050 };

		n = unwind_join(dips, dsps, 3, UNWIND_CUT, far, 3, 0x9000,
				stack, 0x1000, sizeof(stack), false, out, 16);
		ok(n == 5 && out[2] == 0x30 && out[3] == 0x400040 &&
		       out[4] == 0x400050,
		   "join: no common frame, bp beyond CFI's reach: CFI's "
		   "frames, then the chain (%u)",
		   n);
	}
	n = unwind_join(dips, dsps, 1, UNWIND_CUT, fips, 5, 0x9000, stack,
			0x1000, sizeof(stack), false, out, 16);
	ok(n == 5 && out[1] == 0x40,
	   "join: CFI found only the pc: the chain as it is");
	n = unwind_join(dips, dsps, 5, UNWIND_CUT, fips, 5, 0x1050, stack,
			0x1000, sizeof(stack), false, out, 16);
	ok(n == 5 && out[1] == 0x20 && out[4] == 0x50,
	   "join: a bp inside CFI's frames that is none of them is data: "
	   "CFI's frames alone (%u)",
	   n);
	n = unwind_join(dips, dsps, 3, UNWIND_CUT, fips, 5, 0x800, stack,
			0x1000, sizeof(stack), false, out, 16);
	ok(n == 3 && out[2] == 0x30, "join: a bp below sp: CFI's frames alone");
	{
		/* libc's open keeps the path in rbp: [bp + 8] is text */
		const uint64_t text[] = { 0x10, 0x6176616a2f637273ull };

		n = unwind_join(dips, dsps, 3, UNWIND_CUT, text, 2, 0x9000,
				stack, 0x1000, sizeof(stack), false, out, 16);
		ok(n == 3 && out[1] == 0x20 && out[2] == 0x30,
		   "join: a chain whose next link is no address: CFI's "
		   "frames alone (%u)",
		   n);
	}
	n = unwind_join(dips, dsps, 3, UNWIND_NO_CFI, fips, 1, 0x9000, stack,
			0x1000, sizeof(stack), false, out, 16);
	ok(n == 3 && out[2] == 0x30, "join: an empty chain takes CFI's");
	n = unwind_join(dips, dsps, 5, UNWIND_CUT, fips, 5, 0x10f0, stack,
			0x1000, sizeof(stack), false, out, 2);
	ok(n == 2, "join: bounded by max");
	n = unwind_join(dips, dsps, 3, UNWIND_CUT, fips, 5, 0x9000, stack,
			0x1000, sizeof(stack), true, out, 16);
	ok(n == 3 && out[2] == 0x30,
	   "join, -g dwarf: no common frame keeps CFI's frames");
}

__attribute__((noinline)) static void on_usr1(int sig)
{
	(void)sig;
	capture();
	__asm__ volatile("" ::: "memory"); /* no tail call */
}

/* A stack through a signal frame: the handler's return into the signal
 * trampoline, whose rows are DWARF expressions. */
__attribute__((noinline)) static void test_signal_frame(struct unwinder *u,
							struct usym *us)
{
	const struct unwind_counts *c = unwinder_counts(u);
	uint64_t ips[MAXF], sps[MAXF];
	struct unwind_out o = { ips, sps, MAXF, 0, UNWIND_BAD };
	uint64_t libdw = c->libdw;
	unsigned int i;
	bool handler = false, below = false;

	signal(SIGUSR1, on_usr1);
	raise(SIGUSR1);
	signal(SIGUSR1, SIG_DFL);
	unwind_sample(u, getpid(), regs, stack_copy, copied, &o);
	for (i = 0; i < o.n; i++) {
		const char *n = name_of(us, ips[i], i == 0);

		handler |= !strcmp(n, "on_usr1");
		below |= handler && !strcmp(n, "test_signal_frame");
	}
	ok(handler && below,
	   "through the signal frame: on_usr1, then its interrupted caller "
	   "(%u frames)",
	   o.n);
	ok(c->libdw > libdw, "that stack was libdw's (%llu)",
	   (unsigned long long)(c->libdw - libdw));
}

/* What the check mode counted over every walk above. */
static void test_fast_counts(const struct unwinder *u)
{
	const struct unwind_counts *c = unwinder_counts(u);

	ok(c->checked > 3000 && c->checked == c->fast,
	   "%llu walks by the fast path, each also by libdw (%llu by libdw "
	   "alone)",
	   (unsigned long long)c->checked, (unsigned long long)c->libdw);
	ok(c->differ == 0,
	   "the fast path's frames and ends are libdw's: %llu "
	   "of %llu differ",
	   (unsigned long long)c->differ, (unsigned long long)c->checked);
}

static void nap_ms(long ms)
{
	struct timespec t = { 0, ms * 1000000L };

	nanosleep(&t, NULL);
}

/*
 * A process whose modules all go (it exec'd: the launcher of `record --
 * CMD` before its exec, or a library dlclose'd): the unwinder attached
 * before keeps unwinding. libdw's state once took its architecture from
 * the first module and freed it with that module (a sanitizer build sees
 * the use after free; a plain one could abort in libdw).
 */
static void test_exec(void)
{
	uint64_t ips[MAXF], sps[MAXF], dw[UNWIND_NREGS] = { 0 };
	struct unwind_out o = { ips, sps, MAXF, 0, UNWIND_BAD };
	int go[2], tries;
	unsigned int reloads;
	struct unwinder *u;
	char exe[256];
	pid_t pid;

	if (pipe(go))
		return;
	pid = fork();
	if (pid == 0) {
		char c;

		close(go[1]);
		if (read(go[0], &c, 1) == 1)
			execl("/bin/sleep", "sleep", "30", (char *)NULL);
		_exit(1);
	}
	close(go[0]);
	u = unwinder_new(pid); /* this program's modules, before the exec */
	level1();
	unwind_sample(u, pid, regs, stack_copy, copied, &o);
	ok(u && o.n > 4, "an unwinder of a forked copy unwinds (%u frames)",
	   o.n);
	reloads = u ? unwinder_reloads(u) : 0;
	if (write(go[1], "x", 1) != 1)
		pid = -pid;
	for (tries = 0; tries < 400; tries++) {
		char link[64];
		ssize_t n;

		snprintf(link, sizeof(link), "/proc/%d/exe", (int)pid);
		n = readlink(link, exe, sizeof(exe) - 1);
		exe[n > 0 ? n : 0] = 0;
		if (strstr(exe, "sleep"))
			break;
		nap_ms(5);
	}
	/* a pc outside every mapping makes it read the maps again (at
	 * most every 20 ms) */
	dw[UNWIND_DW_PC] = 16;
	dw[UNWIND_DW_SP] = regs[UNWIND_DW_SP];
	for (tries = 0; u && tries < 400 && unwinder_reloads(u) == reloads;
	     tries++) {
		unwind_sample(u, pid, dw, stack_copy, copied, &o);
		nap_ms(5);
	}
	ok(u && unwinder_reloads(u) > reloads && strstr(exe, "sleep"),
	   "the process exec'd and its new modules were read (%u)",
	   u ? unwinder_modules(u) : 0);
	o.n = 0;
	unwind_sample(u, pid, regs, stack_copy, copied, &o);
	ok(o.n >= 1 && ips[0] == regs[UNWIND_DW_PC],
	   "after its first modules went, a sample still unwinds (%u "
	   "frames)",
	   o.n);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(go[1]);
	unwinder_free(u);
}

int main(void)
{
	struct unwinder *u = unwinder_new(getpid());
	struct usym *us = usym_new(getpid(), false);

	ok(u && us, "unwinder for this process (%u modules)",
	   u ? unwinder_modules(u) : 0);
	if (!u || !us)
		return tap_done();
	test_regs();
	test_parse();
	test_join();
	unwinder_set_check(u, true); /* each walk also by libdw, compared */
	test_real_stack(u, us);
	test_damaged(u);
	test_signal_frame(u, us);
	test_fast_counts(u);
	test_exec();
	unwinder_free(u);
	usym_free(us);
	return tap_done();
}

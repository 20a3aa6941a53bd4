// SPDX-License-Identifier: GPL-2.0
/*
 * The per-sample unwind through libdw (see unwind/unwind.h): the Dwfl of the
 * process is attached once with callbacks that serve the sample being
 * unwound, its registers as the initial state and its stack copy as memory.
 * Each frame is checked to move up the stack, so that damaged registers or a
 * stack whose saved frame pointers loop end the walk instead of looping.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/clock.h"
#include "lib/procfs.h"
#include "unwind/internal.h"

/* Maps re-read at most once per 20 ms; a re-read after which the address
 * is still in no mapping (a garbage return address, not new code) doubles
 * that, up to 1 s, so that a target cannot keep the reader reloading. */
#define RELOAD_NS 20000000ull
#define RELOAD_MAX_NS 1000000000ull

bool unwind_regs_from_perf(const uint64_t *regs, unsigned int nregs,
			   uint64_t mask, uint64_t dw[UNWIND_NREGS])
{
	/* DWARF register n is perf register perf_of[n]. */
	static const unsigned char perf_of[UNWIND_NREGS] = {
		0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8,
	};
	uint64_t have = 0;
	unsigned int i, bit, k = 0;
	uint64_t v[64] = { 0 };

	for (bit = 0; bit < 64 && k < nregs; bit++) {
		if (!(mask & (1ull << bit)))
			continue;
		memcpy(&v[bit], &regs[k++], 8);
		have |= 1ull << bit;
	}
	for (i = 0; i < UNWIND_NREGS; i++)
		dw[i] = v[perf_of[i]];
	return (have & (1ull << 7)) && (have & (1ull << 8));
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct unwinder *u = arg;

	if (*thread_argp)
		return 0;
	*thread_argp = u;
	return u->tid;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	*thread_argp = arg;
	return true;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result,
			void *arg)
{
	uint64_t v;

	if (!unwind_read(arg, addr, &v))
		return false;
	*result = v;
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct unwinder *u = arg;
	Dwarf_Word r[UNWIND_NREGS];

	memcpy(r, u->regs, sizeof(r));
	return dwfl_thread_state_registers(thread, 0, UNWIND_NREGS, r);
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

struct unwinder *unwinder_new(pid_t pid)
{
	struct unwinder *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	u->pid = pid;
	u->check = getenv("PERFJAVA_UNWIND_CHECK") != NULL;
	u->rootfd = proc_dir(pid, "root");
	u->cb = unwind_dwfl_callbacks;
	u->dwfl = dwfl_begin(&u->cb);
	if (!u->dwfl) {
		if (u->rootfd >= 0)
			close(u->rootfd);
		free(u);
		return NULL;
	}
	unwind_report_modules(u);
	u->last_reload_ns = now_ns();
	return u;
}

void unwinder_free(struct unwinder *u)
{
	if (!u)
		return;
	dwfl_end(u->dwfl);
	if (u->arch)
		elf_end(u->arch); /* after dwfl_end: its backend read it */
	if (u->rootfd >= 0)
		close(u->rootfd);
	free(u->vdso);
	free(u->rules);
	maps_free(&u->maps);
	free(u);
}

const struct unwind_counts *unwinder_counts(const struct unwinder *u)
{
	return &u->counts;
}

void unwinder_set_check(struct unwinder *u, bool check)
{
	u->check = check;
}

unsigned int unwinder_modules(const struct unwinder *u)
{
	return u->nmodules;
}

unsigned int unwinder_reloads(const struct unwinder *u)
{
	return u->reloads;
}

/* The process mapped something new (dlopen): report it, rate-limited. */
static void maybe_reload(struct unwinder *u, uint64_t pc)
{
	uint64_t now;

	if (!u->want_reload && (!pc || unwind_addr_mapped(u, pc)))
		return;
	now = now_ns();
	if (!u->reload_gap)
		u->reload_gap = RELOAD_NS;
	if (now - u->last_reload_ns < u->reload_gap) {
		u->want_reload = true;
		return;
	}
	u->last_reload_ns = now;
	u->want_reload = false;
	if (pc && unwind_addr_mapped(u, pc))
		pc = u->missed; /* the frame that asked for it */
	unwind_rules_flush(u); /* an address's module may differ now */
	unwind_report_modules(u);
	if (pc && !unwind_addr_mapped(u, pc)) {
		if (u->reload_gap < RELOAD_MAX_NS)
			u->reload_gap *= 2;
	} else {
		u->reload_gap = RELOAD_NS;
	}
}

/*
 * Attaches the process state with the architecture of an x86-64 ELF header
 * of our own. Given none, libdw would take the first module's backend and
 * not own it: a reload that drops that module (the launcher's files after
 * exec, a dlclose) would leave the state with a freed backend.
 */
static bool attach(struct unwinder *u)
{
	Elf64_Ehdr *h = &u->arch_hdr;

	if (!u->arch) {
		memset(h, 0, sizeof(*h));
		memcpy(h->e_ident, ELFMAG, SELFMAG);
		h->e_ident[EI_CLASS] = ELFCLASS64;
		h->e_ident[EI_DATA] = ELFDATA2LSB;
		h->e_ident[EI_VERSION] = EV_CURRENT;
		h->e_type = ET_DYN;
		h->e_machine = EM_X86_64;
		h->e_version = EV_CURRENT;
		h->e_ehsize = sizeof(*h);
		elf_version(EV_CURRENT);
		u->arch = elf_memory((char *)h, sizeof(*h));
		if (!u->arch)
			return false;
	}
	return dwfl_attach_state(u->dwfl, u->arch, u->pid, &thread_callbacks,
				 u);
}

static int on_frame(Dwfl_Frame *f, void *arg)
{
	Dwarf_Addr pc;
	Dwarf_Word sp = 0, bp = 0;
	bool activation, have_sp;

	if (!dwfl_frame_pc(f, &pc, &activation))
		return DWARF_CB_ABORT;
	have_sp = dwfl_frame_reg(f, UNWIND_DW_SP, &sp) == 0;
	if (dwfl_frame_reg(f, UNWIND_DW_BP, &bp) != 0)
		bp = 0;
	return unwind_take(arg, pc, have_sp, sp, bp);
}

/* The walk w of the sample set up in u, and how it ended. */
static int walk(struct unwinder *u, struct unwind_walk *w, const uint64_t *dw,
		bool fast)
{
	int r = fast ? unwind_fast(u, w, dw) : UNWIND_FAST_NO;

	if (r != UNWIND_FAST_NO) {
		u->counts.fast++;
		return r;
	}
	w->out->n = 0;
	w->last_sp = 0;
	w->looped = w->stopped = false;
	u->read_beyond = false;
	u->counts.libdw++;
	return dwfl_getthread_frames(u->dwfl, u->tid, on_frame, w);
}

static enum unwind_end ending(const struct unwinder *u,
			      const struct unwind_walk *w, int r)
{
	const struct unwind_out *out = w->out;

	/* libdw ends quietly (0) when a return address cannot be read. */
	if (w->looped)
		return UNWIND_BAD;
	if (w->stopped)
		return UNWIND_NO_CFI;
	if (out->n >= out->max)
		return UNWIND_COMPLETE;
	if (!u->len)
		return UNWIND_NO_COPY;
	if (u->read_beyond)
		return UNWIND_CUT;
	return r == 0 ? UNWIND_COMPLETE : UNWIND_NO_CFI;
}

/* PERFJAVA_UNWIND_CHECK: the fast path's walk against libdw's own. */
static void check(struct unwinder *u, const uint64_t *dw,
		  const struct unwind_out *out)
{
	static uint64_t ips[1024], sps[1024], bps[1024];
	struct unwind_out o = { ips,
				sps,
				out->max < 1024 ? out->max : 1024,
				0,
				UNWIND_BAD,
				bps,
				out->stop_at_anon };
	struct unwind_walk w = { u, &o, 0, false, false };
	size_t n = out->n * sizeof(uint64_t);
	bool same;

	u->read_beyond = false;
	o.end = ending(u, &w, walk(u, &w, dw, false));
	u->counts.libdw--; /* counted once, as the fast path's */
	same = o.n == out->n && o.end == out->end &&
	       !memcmp(ips, out->ips, n) &&
	       (!out->sps || !memcmp(sps, out->sps, n)) &&
	       (!out->bps || !memcmp(bps, out->bps, n));
	u->counts.checked++;
	if (!same)
		u->counts.differ++;
}

void unwind_sample(struct unwinder *u, pid_t tid, const uint64_t *dw,
		   const void *stack, size_t len, struct unwind_out *out)
{
	struct unwind_walk w = { u, out, 0, false, false };
	uint64_t fast;

	out->n = 0;
	out->end = UNWIND_BAD;
	if (!out->max || !dw[UNWIND_DW_PC])
		return;
	maybe_reload(u, dw[UNWIND_DW_PC]);
	if (!u->attached) {
		if (!u->nmodules || !attach(u))
			goto only_pc;
		u->attached = true;
	}
	u->tid = tid > 0 ? tid : u->pid;
	u->regs = dw;
	u->stack = stack;
	u->len = stack ? len : 0;
	u->sp = dw[UNWIND_DW_SP];
	u->read_beyond = false;
	fast = u->counts.fast;
	out->end = ending(u, &w, walk(u, &w, dw, true));
	if (u->check && u->counts.fast > fast)
		check(u, dw, out);
	if (out->n)
		return;
only_pc:
	out->ips[0] = dw[UNWIND_DW_PC];
	if (out->sps)
		out->sps[0] = dw[UNWIND_DW_SP];
	if (out->bps)
		out->bps[0] = dw[UNWIND_DW_BP];
	out->n = 1;
}

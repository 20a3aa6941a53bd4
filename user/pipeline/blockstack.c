// SPDX-License-Identifier: GPL-2.0
/* A blocked thread's user stack, read from outside; see pipeline/blockstack.h. */
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>

#include "lib/file.h"
#include "pipeline/blockstack.h"
#include "pipeline/ustack.h"

/* The thread's syscall line ("NR args... sp pc") and scheduler counters
 * ("cpu_ns wait_ns slices") into a and s; its sp and pc. -1 when it is not
 * blocked in a system call (running, or "-1 sp pc": blocked otherwise). */
static int blocked_at(pid_t pid, pid_t tid, char *a, size_t alen, char *s,
		      size_t slen, uint64_t *sp, uint64_t *pc)
{
	char path[96];
	const char *p;
	unsigned long long v[2];
	int nr;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", pid, tid);
	if (read_small_file(path, s, slen))
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/syscall", pid, tid);
	if (read_small_file(path, a, alen) || sscanf(a, "%d", &nr) != 1 ||
	    nr < 0)
		return -1;
	/* the last two fields */
	p = strrchr(a, ' ');
	if (!p || p == a)
		return -1;
	for (p--; p > a && *p != ' '; p--)
		;
	if (sscanf(p, " 0x%llx 0x%llx", &v[0], &v[1]) != 2 || !v[0] || !v[1] ||
	    v[0] & 7)
		return -1;
	*sp = v[0];
	*pc = v[1];
	return 0;
}

/* The registers a sample would carry (pipeline/ustack.c's mask: ax bx cx dx
 * si di bp sp ip, then r8-r15): sp and ip are known, bp a guess. */
static void fake_sample(struct pj_raw_sample *rs, uint64_t *regs, pid_t tid,
			uint64_t sp, uint64_t pc, uint64_t bp,
			const uint8_t *stack, size_t len)
{
	memset(rs, 0, sizeof(*rs));
	memset(regs, 0, 17 * sizeof(*regs));
	regs[6] = bp;
	regs[7] = sp;
	regs[8] = pc;
	rs->tid = (uint32_t)tid;
	rs->ip = pc;
	rs->regs_abi = PERF_SAMPLE_REGS_ABI_64;
	rs->regs = regs;
	rs->nregs = 17;
	rs->stack = stack;
	rs->stack_size = len;
}

/* The frames CFI finds in the copy with bp as the frame pointer: their
 * number, into out->ips; *end how CFI ended. */
static unsigned int unwind_with(struct unwinder *u, pid_t tid, uint64_t sp,
				uint64_t pc, uint64_t bp, size_t len,
				struct blockstack *out, struct ustack_cfi *cfi,
				enum unwind_end *end)
{
	struct pj_raw_sample rs;
	uint64_t regs[17];

	fake_sample(&rs, regs, tid, sp, pc, bp, out->stack, len);
	return unwind_user(u, true, false, &rs, NULL, 0, out->ips,
			   BLOCKSTACK_MAX_FRAMES, end, cfi);
}

/*
 * The kernel tells no frame pointer: a frame whose CFA is its frame pointer
 * (code built with frame pointers) ends the unwinding unless a callee saved
 * it. The candidates are the copy's slots that look like a saved frame
 * pointer with a return address above it (the word above in executable
 * memory, the word itself 0 or higher up the stack); the one whose unwinding
 * reaches the outermost frame, else goes furthest, is kept. 0: none helps.
 */
static uint64_t guess_bp(struct unwinder *u, pid_t tid, uint64_t sp,
			 uint64_t pc, size_t len, struct blockstack *out,
			 unsigned int have)
{
	struct ustack_cfi cfi;
	enum unwind_end end;
	uint64_t best = 0;
	unsigned int tried = 0;

	for (size_t off = 0; off + 16 <= len && tried < BLOCKSTACK_GUESSES;
	     off += 8) {
		uint64_t link, ret, at = sp + off;
		unsigned int n;

		memcpy(&link, out->stack + off, 8);
		memcpy(&ret, out->stack + off + 8, 8);
		if ((link && (link <= at || link - sp >= len)) ||
		    !unwind_addr_code(u, ret))
			continue;
		tried++;
		n = unwind_with(u, tid, sp, pc, at, len, out, &cfi, &end);
		if (n > have || (end == UNWIND_COMPLETE && n >= have)) {
			best = at;
			have = n;
			if (end == UNWIND_COMPLETE)
				break;
		}
	}
	return best;
}

int blockstack_read(struct unwinder *u, const struct codemap *cm, pid_t pid,
		    pid_t tid, struct blockstack *out)
{
	char a[256], b[256], s1[128], s2[128];
	uint64_t sp, pc, sp2, pc2, bp = 0;
	struct iovec local, remote;
	struct ustack_cfi cfi;
	enum unwind_end end;
	ssize_t got;

	out->n = 0;
	memset(&out->jcopy, 0, sizeof(out->jcopy));
	if (!u || blocked_at(pid, tid, a, sizeof(a), s1, sizeof(s1), &sp, &pc))
		return -1;
	local.iov_base = out->stack;
	local.iov_len = sizeof(out->stack);
	remote.iov_base = (void *)(uintptr_t)sp;
	remote.iov_len = sizeof(out->stack);
	/* up to the first unmapped page: the top of the thread's stack */
	got = process_vm_readv(pid, &local, 1, &remote, 1, 0);
	if (got < 16 ||
	    blocked_at(pid, tid, b, sizeof(b), s2, sizeof(s2), &sp2, &pc2) ||
	    strcmp(a, b) || strcmp(s1, s2))
		return -1; /* not read, or it ran meanwhile */
	out->n = unwind_with(u, tid, sp, pc, 0, (size_t)got, out, &cfi, &end);
	if (end != UNWIND_COMPLETE) {
		bp = guess_bp(u, tid, sp, pc, (size_t)got, out, out->n);
		/* the guesses wrote over the frames */
		out->n = unwind_with(u, tid, sp, pc, bp, (size_t)got, out, &cfi,
				     &end);
	}
	ustack_java_copy(u, &cfi, cm, out->stack, (uint64_t)got, &out->jcopy);
	return out->n ? 0 : -1;
}

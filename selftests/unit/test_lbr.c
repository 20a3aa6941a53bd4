// SPDX-License-Identifier: GPL-2.0
/*
 * -g lbr from synthesized ring bytes (this machine has no LBR): samples with
 * a PERF_SAMPLE_BRANCH_STACK in call-stack mode, with and without
 * PERF_SAMPLE_BRANCH_HW_INDEX, sampled in user and in kernel mode, go through
 * the real record path; the user frames come from the branch records (the
 * frame-pointer callchain's user part is garbage and must be ignored), the
 * kernel frames from the callchain, merged as usual.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "events/lbr.h"
#include "recsynth.h"
#include "tap.h"

static volatile unsigned long sink;
static uint64_t ret_leaf, ret_mid, ret_root; /* real return addresses */

__attribute__((noinline)) void lbr_leaf(void)
{
	ret_leaf = (uintptr_t)__builtin_return_address(0);
	for (int i = 0; i < 50; i++)
		sink += i;
}
__attribute__((noinline)) void lbr_mid(void)
{
	ret_mid = (uintptr_t)__builtin_return_address(0);
	lbr_leaf();
	sink++;
}
__attribute__((noinline)) void lbr_root(void)
{
	ret_root = (uintptr_t)__builtin_return_address(0);
	lbr_mid();
	sink++;
}

static void direct(void)
{
	struct perf_branch_entry br[4] = {
		{ .from = 0x401010, .to = 0x402000 },
		{ .from = 0x403020, .to = 0x401000 },
		{ .from = 0, .to = 0x403000 }, /* the bottom */
		{ .from = 0x405000, .to = 0x406000 },
	};
	uint64_t out[8];
	unsigned int n;

	n = lbr_user_frames(0x402010, br, 4, out, 8);
	ok(n == 3 && out[0] == 0x402010 && out[1] == 0x401010 &&
	       out[2] == 0x403020,
	   "user sample: ip, then each call site, up to the bottom (%u)", n);
	n = lbr_user_frames(0xffffffff81000000ULL, br, 4, out, 8);
	ok(n == 3 && out[0] == 0x402000,
	   "kernel sample: the innermost function's entry leads (%u)", n);
	n = lbr_user_frames(0x402010, br, 4, out, 2);
	ok(n == 2, "at most max frames");
	n = lbr_user_frames(0x402010, br, 0, out, 8);
	ok(n == 1 && out[0] == 0x402010, "no branches: the ip alone");
}

int main(void)
{
	uint64_t st = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
		      PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
		      PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN |
		      PERF_SAMPLE_BRANCH_STACK;
	char data[] = "/tmp/pj-lbr-XXXXXX.data", err[512], names[2048];
	struct pj_profile *p = NULL;
	struct synth s;
	struct ring hwidx;
	uint64_t kip = 0, leaf_ip;
	int fd, user_ok = 0, kernel_ok = 0, kernel_first = 0;
	FILE *f;

	direct();
	lbr_root();
	leaf_ip = (uintptr_t)lbr_leaf + 6;
	/* A kernel text address with a name, when kallsyms shows them. */
	f = fopen("/proc/kallsyms", "re");
	if (f) {
		char line[256];

		while (!kip && fgets(line, sizeof(line), f)) {
			unsigned long long a;
			char t, sym[200];

			if (sscanf(line, "%llx %c %199s", &a, &t, sym) == 3 &&
			    a && !strcmp(sym, "do_syscall_64"))
				kip = a + 16;
		}
		fclose(f);
	}
	if (!kip)
		kip = 0xffffffff81000010ULL;

	fd = mkstemps(data, 5);
	if (fd < 0)
		return 1;
	close(fd);
	if (synth_open(&s, data, "cycles", st, LBR_BRANCH_SAMPLE_TYPE, true)) {
		ok(0, "synthesized recorder set up");
		return tap_done();
	}
	hwidx = s.ring;
	hwidx.branch_sample_type |= PERF_SAMPLE_BRANCH_HW_INDEX;

	/* Call-stack LBR: innermost call first; from = the call site. */
	struct perf_branch_entry br[3] = {
		{ .from = ret_leaf - 1, .to = (uintptr_t)lbr_leaf },
		{ .from = ret_mid - 1, .to = (uintptr_t)lbr_mid },
		{ .from = ret_root - 1, .to = (uintptr_t)lbr_root },
	};
	/* Frame pointers were useless: garbage user part. */
	uint64_t chain_user[] = { PERF_CONTEXT_USER, leaf_ip, 0x10, 0x20 };
	uint64_t chain_kernel[] = { PERF_CONTEXT_KERNEL, kip, PERF_CONTEXT_USER,
				    0x10 };

	for (int i = 0; i < 4; i++) {
		struct synth_sample u = { .id = SYNTH_ID0,
					  .ip = leaf_ip,
					  .time = 100 + i,
					  .period = 100003,
					  .tid = 7,
					  .chain = chain_user,
					  .nchain = 4,
					  .br = br,
					  .nbr = 3 };
		struct synth_sample k = u;

		k.ip = kip;
		k.chain = chain_kernel;
		synth_feed(&s, i & 1 ? &hwidx : &s.ring, &u);
		synth_feed(&s, i & 1 ? &hwidx : &s.ring, &k);
	}
	ok(s.rec->em.st.samples == 8 && s.rec->dec.st.bad_records == 0,
	   "LBR samples recorded (%llu, %llu bad)",
	   (unsigned long long)s.rec->em.st.samples,
	   (unsigned long long)s.rec->dec.st.bad_records);
	ok(!synth_close(&s), "profile closed");
	ok(!pj_profile_load(data, &p, err, sizeof(err)), "profile loads %s",
	   err);
	if (!p)
		return tap_done();
	for (size_t i = 0; i < p->nsamples; i++) {
		const struct pj_sample *x = &p->samples[i];
		uint32_t lo = p->stack_start[x->stack];

		synth_stack(p, x->stack, names, sizeof(names));
		if (!strcmp(names, "lbr_leaf;lbr_mid;lbr_root;main"))
			user_ok++;
		else if (strstr(names, "_[k];lbr_leaf;lbr_mid;lbr_root;main") &&
			 !strstr(names, "?"))
			kernel_ok++;
		else if (x->time >= 100)
			printf("# sample %zu: %s\n", i, names);
		if (x->time >= 100 && strstr(names, "_[k]") &&
		    p->frames[p->stack_frames[lo]].type == PJ_FRAME_KERNEL)
			kernel_first++;
	}
	ok(user_ok == 4,
	   "user-mode samples: leaf, mid, root, main from the LBR, "
	   "the garbage frame-pointer chain ignored (%d of 4)",
	   user_ok);
	ok(kernel_ok == 4 && kernel_first == 4,
	   "kernel-mode samples: kernel frames, then the LBR's user stack "
	   "(%d of 4)",
	   kernel_ok);
	pj_profile_free(p);
	unlink(data);
	/* (the writer kept mkstemps' empty file as NAME.old, as perf does) */
	snprintf(names, sizeof(names), "%s.old", data);
	unlink(names);
	return tap_done();
}

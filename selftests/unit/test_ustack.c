// SPDX-License-Identifier: GPL-2.0
/*
 * Where an off-CPU wait's Java frames start when CFI found none in the
 * stack copy (pipeline/ustack.c ustack_java_chain): the kernel's
 * frame-pointer chain followed through a synthesized copy, each link
 * checked against the chain; a frame of the JVM's code inside the copy
 * gives a copy from its frame, one beyond it the chain's remaining return
 * addresses and its first link outside the copy.
 */
#include <stdio.h>
#include <string.h>

#include "jvm/codemap.h"
#include "jvm/stacks.h"
#include "perfjava/profile.h"
#include "pipeline/ustack.h"
#include "tap.h"

#define BASE 0x10000ull /* the sample's stack pointer */
#define JIT 0x7210ull /* a pc in the code map */

static struct codemap cm;
static uint64_t words[8]; /* the copy: 64 bytes from BASE */
static uint64_t regs[17]; /* perf's ax..ip, r8..r15 */

static void put(uint64_t addr, uint64_t v)
{
	words[(addr - BASE) / 8] = v;
}

/* The sample: rbp at BASE + 0x10, two links in the copy (rets 0x401000,
 * 0x402000), the second pointing outside it (0x20000). */
static struct pj_raw_sample sample(void)
{
	struct pj_raw_sample rs;

	memset(&rs, 0, sizeof(rs));
	memset(words, 0, sizeof(words));
	memset(regs, 0, sizeof(regs));
	put(BASE + 0x10, BASE + 0x20);
	put(BASE + 0x18, 0x401000);
	put(BASE + 0x20, 0x20000);
	put(BASE + 0x28, 0x402000);
	regs[6] = BASE + 0x10; /* bp */
	regs[7] = BASE; /* sp */
	regs[8] = 0x400100; /* ip */
	rs.regs_abi = 2;
	rs.regs = regs;
	rs.nregs = 17;
	rs.stack = (const uint8_t *)words;
	rs.stack_size = sizeof(words);
	return rs;
}

int main(void)
{
	uint64_t fips[PJA_CHAIN_MAX + 8] = { 0x400100, 0x401000, 0x402000,
					     0x403000, JIT,	 0x7300 };
	struct pj_raw_sample rs;
	struct stack_copy c;

	codemap_add(&cm, 0x7200, 0x100, 11, PJ_FRAME_JIT, "A.run");

	rs = sample();
	memset(&c, 0, sizeof(c));
	ustack_java_chain(NULL, &cm, &rs, fips, 6, &c);
	ok(!c.stack && c.nchain == 2 && c.chain[0] == 0x403000 &&
	       c.chain[1] == JIT && c.fp == 0x20000,
	   "JVM code beyond the copy: the chain's first outside link and "
	   "its return addresses to the JVM's frame");

	rs = sample();
	fips[2] = JIT + 0x40;
	put(BASE + 0x28, JIT + 0x40);
	memset(&c, 0, sizeof(c));
	ustack_java_chain(NULL, &cm, &rs, fips, 6, &c);
	ok(c.stack == (const uint8_t *)words + 0x30 && c.len == 0x10 &&
	       c.pc == JIT + 0x40 && c.sp == BASE + 0x30 && c.fp == 0x20000 &&
	       !c.top && !c.nchain,
	   "JVM code inside the copy: a copy from its frame up");
	fips[2] = 0x402000;

	rs = sample();
	memset(&c, 0, sizeof(c));
	c.stack = (const uint8_t *)words; /* CFI found the JVM's frame */
	ustack_java_chain(NULL, &cm, &rs, fips, 6, &c);
	ok(c.stack == (const uint8_t *)words && c.link == 0x20000 &&
	       c.nchain == 3 && c.chain[0] == 0x403000 && c.chain[1] == JIT &&
	       c.chain[2] == 0x7300,
	   "a copy with the JVM's frame: the chain beyond it, from its first "
	   "outside link");

	rs = sample();
	put(BASE + 0x18, 0x401008);
	memset(&c, 0, sizeof(c));
	ustack_java_chain(NULL, &cm, &rs, fips, 6, &c);
	ok(!c.stack && !c.nchain,
	   "a link the copy holds differently from the chain: nothing");

	rs = sample();
	memset(&c, 0, sizeof(c));
	ustack_java_chain(NULL, &cm, &rs, fips, 4, &c);
	ok(!c.stack && !c.nchain, "no JVM code in the chain: nothing");

	rs = sample();
	for (unsigned int i = 3; i < PJA_CHAIN_MAX + 4; i++)
		fips[i] = 0x403000 + i;
	fips[PJA_CHAIN_MAX + 4] = JIT;
	memset(&c, 0, sizeof(c));
	ustack_java_chain(NULL, &cm, &rs, fips, PJA_CHAIN_MAX + 5, &c);
	ok(!c.stack && !c.nchain,
	   "more return addresses than a request holds: nothing");

	rs = sample();
	rs.regs_abi = 0;
	memset(&c, 0, sizeof(c));
	ustack_java_chain(NULL, &cm, &rs, fips, 6, &c);
	ok(!c.stack && !c.nchain, "no user registers: nothing");
	codemap_free(&cm);
	return tap_done();
}

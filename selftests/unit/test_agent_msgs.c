// SPDX-License-Identifier: GPL-2.0
/*
 * The reader's side of the agent protocol against hostile bytes, on buffers
 * (jvm/messages.c): HELLO depths 0, 0x7fffffff and 0xffffffff and oversized
 * HELLOs refused, frame counts past the payload dropped, lengths past the
 * message dropped, escape sequences in names made harmless, a header too long
 * ends the stream, the caps on methods, threads and code entries hold, and
 * ended threads are forgotten; blocked-thread stack answers (jvm/stacks.c)
 * checked the same way.
 */
#include <stdlib.h>
#include <string.h>

#include "jvm/client.h"
#include "jvm/conn_internal.h"
#include "jvm/messages.h"
#include "jvm/stacks.h"
#include "lib/text.h"
#include "perfjava/profile.h"
#include "tap.h"

static char msg[1 << 16];
static size_t mlen;

static void put(uint32_t type, const void *a, size_t alen, const void *b,
		size_t blen)
{
	struct pja_hdr h = { type, alen + blen };

	memcpy(msg + mlen, &h, sizeof(h));
	memcpy(msg + mlen + sizeof(h), a, alen);
	if (blen)
		memcpy(msg + mlen + sizeof(h) + alen, b, blen);
	mlen += sizeof(h) + alen + blen;
}

static unsigned int walks, last_n;
static const char *last_name;

static void on_walk(void *ctx, uint64_t cookie, int status,
		    const struct java_frame *f, unsigned int n, uint64_t t)
{
	walks++;
	last_n = n;
	last_name = n ? f[0].name : NULL;
}

static int last_type;

static void on_walk_type(void *ctx, uint64_t cookie, int status,
			 const struct java_frame *f, unsigned int n, uint64_t t)
{
	on_walk(ctx, cookie, status, f, n, t);
	last_type = n ? f[0].type : -1;
}

static unsigned int stacks, stack_n;
static int stack_status;
static const char *stack_name;

static void on_stack(void *ctx, const struct agent_stack *st)
{
	stacks++;
	stack_n = st->n;
	stack_status = st->status;
	stack_name = st->n ? st->frames[0].name : NULL;
}

static int clean(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

static void thread_msg(uint32_t type, uint32_t tid, const char *name)
{
	struct pja_thread t = { tid, name ? strlen(name) : 0 };

	put(type, &t, sizeof(t), name, t.name_len);
}

int main(void)
{
	struct pja_hello hello = { PJA_MAGIC, PJA_VERSION, 1, 2048 };
	struct pja_hdr h = { PJA_HELLO, sizeof(hello) };
	uint32_t depths[] = { 0, 0x7fffffff, 0xffffffff, PJA_MAX_DEPTH + 1 };
	struct agent *a;
	unsigned int i;
	char buf[64];
	long used;

	for (i = 0; i < 4; i++) {
		hello.depth = depths[i];
		ok(agent_check_hello(&h, &hello) == -2,
		   "HELLO with depth %#x is refused", depths[i]);
	}
	hello.depth = 16;
	ok(!agent_check_hello(&h, &hello), "HELLO with depth 16 is taken");
	h.len = 24 + 256 + 1000;
	ok(agent_check_hello(&h, &hello) == 0,
	   "a HELLO of %u bytes is taken (the rest skipped in steps)", h.len);
	h.len = AGENT_MAX_HELLO + 1;
	ok(agent_check_hello(&h, &hello) == -1,
	   "a HELLO over %u bytes is refused", AGENT_MAX_HELLO);
	h.len = 4;
	ok(agent_check_hello(&h, &hello) == -1, "a HELLO too short is refused");
	h.len = sizeof(hello);

	a = agent_alloc(1, &hello);
	ok(a != NULL, "state for a checked HELLO");

	/* a method whose name carries an escape sequence */
	{
		struct pja_method m = { 7, 3, 4, 0, 0, 0, 0 };

		put(PJA_METHOD, &m, sizeof(m), "a\033]Mb\x1b[2J", 7);
	}
	{
		struct pja_walk_result r = { .cookie = 1, .nframes = 1 };
		struct pja_frame f = { .method = 7, .bci = 1, .type = 200 };

		put(PJA_WALK_RESULT, &r, sizeof(r), &f, sizeof(f));
	}
	used = agent_consume(a, msg, mlen, on_walk, NULL);
	ok(used == (long)mlen && walks == 1 && last_n == 1 && last_name &&
	       clean(last_name) && strlen(last_name) == 8,
	   "escape sequences in a method name become '?' (\"%s\")",
	   last_name ? last_name : "");

	/* nframes past the payload; nframes past depth */
	mlen = 0;
	{
		struct pja_walk_result r = { .cookie = 2,
					     .nframes = 0xffffffff };

		put(PJA_WALK_RESULT, &r, sizeof(r), NULL, 0);
	}
	ok(agent_consume(a, msg, mlen, on_walk, NULL) == (long)mlen &&
	       walks == 1 && a->stats.dropped == 1,
	   "a walk result claiming 0xffffffff frames is dropped");
	mlen = 0;
	{
		static struct pja_frame f[64];
		struct pja_walk_result r = { .cookie = 3, .nframes = 64 };

		put(PJA_WALK_RESULT, &r, sizeof(r), f, sizeof(f));
	}
	used = agent_consume(a, msg, mlen, on_walk, NULL);
	ok(used == (long)mlen && walks == 2 && last_n == 16,
	   "a walk deeper than the HELLO's depth is cut at it (%u)", last_n);

	/* lengths past the message */
	mlen = 0;
	{
		struct pja_method m = { 8,	    0xffffffff, 0xffffffff,
					0xffffffff, 0xffffffff, 0xffffffff,
					0 };
		struct pja_code c = { 0x1000, 0x10, 0, 1, { 0 }, 0xfffffff0 };
		struct pja_code wrap = { ~0ull - 4, 0x10, 0, 1, { 0 }, 0 };
		struct pja_thread t = { 5, 0xffffffff };

		put(PJA_METHOD, &m, sizeof(m), NULL, 0);
		put(PJA_CODE_LOAD, &c, sizeof(c), NULL, 0);
		put(PJA_CODE_LOAD, &wrap, sizeof(wrap), NULL, 0);
		put(PJA_THREAD, &t, sizeof(t), NULL, 0);
		put(PJA_METHOD, "x", 1, NULL, 0);
	}
	used = agent_consume(a, msg, mlen, on_walk, NULL);
	ok(used == (long)mlen && a->stats.dropped == 6 && a->code.n == 0 &&
	       !u64map_ptr(&a->methods, 8),
	   "lengths past their message are dropped (%llu dropped)",
	   (unsigned long long)a->stats.dropped);

	/* a header too long, and a second HELLO, end the stream */
	mlen = 0;
	put(PJA_THREAD, buf, 0, NULL, 0);
	((struct pja_hdr *)msg)->len = PJA_MAX_MSG + 1;
	ok(agent_consume(a, msg, mlen, on_walk, NULL) == -1,
	   "a message longer than PJA_MAX_MSG ends the stream");
	mlen = 0;
	put(PJA_HELLO, &hello, sizeof(hello), NULL, 0);
	ok(agent_consume(a, msg, mlen, on_walk, NULL) == -1,
	   "a second HELLO ends the stream");

	/* thread names: cleaned, capped, forgotten when the thread ends */
	mlen = 0;
	thread_msg(PJA_THREAD, 9, "evil\033[31m\r\n");
	agent_consume(a, msg, mlen, on_walk, NULL);
	ok(u64map_ptr(&a->threads, 9) && clean(u64map_ptr(&a->threads, 9)),
	   "a thread name's control characters become '?'");
	for (i = 1; i <= AGENT_MAX_THREADS + 100; i++) {
		mlen = 0;
		snprintf(buf, sizeof(buf), "pool-1-thread-%u", i);
		thread_msg(PJA_THREAD, 1000 + i, buf);
		agent_consume(a, msg, mlen, on_walk, NULL);
	}
	ok(a->threads.n == AGENT_MAX_THREADS,
	   "named threads alive at once are capped at %u (%zu)",
	   AGENT_MAX_THREADS, a->threads.n);
	for (i = 1; i <= AGENT_MAX_THREADS + 100; i++) {
		mlen = 0;
		thread_msg(PJA_THREAD_END, 1000 + i, NULL);
		agent_consume(a, msg, mlen, on_walk, NULL);
	}
	ok(a->threads.n == 1 && u64map_ptr(&a->threads, 9),
	   "ended threads are forgotten (%zu left)", a->threads.n);

	/* the JVM's name and version: bounded, cleaned */
	{
		static char junk[512];
		struct pja_vm_info v = { 5, 8 };
		struct pja_vm_info big = { PJA_VM_INFO_MAX + 1, 0 };
		struct pja_vm_info over = { 200, 200 };
		uint64_t dropped = a->stats.dropped;

		ok(!agent_vm_info(a, false) && !agent_vm_info(a, true),
		   "no VM_INFO: no name, no version");
		mlen = 0;
		put(PJA_VM_INFO, &v, sizeof(v), "Hot\033S17.0.1+2", 13);
		agent_consume(a, msg, mlen, on_walk, NULL);
		ok(agent_vm_info(a, false) &&
		       !strcmp(agent_vm_info(a, false), "Hot?S") &&
		       agent_vm_info(a, true) &&
		       !strcmp(agent_vm_info(a, true), "17.0.1+2"),
		   "VM_INFO: name and version kept, made terminal-safe");
		mlen = 0;
		put(PJA_VM_INFO, &big, sizeof(big), junk, 8);
		put(PJA_VM_INFO, &over, sizeof(over), junk, 300);
		put(PJA_VM_INFO, &v, 4, NULL, 0);
		agent_consume(a, msg, mlen, on_walk, NULL);
		ok(a->stats.dropped == dropped + 3 &&
		       !strcmp(agent_vm_info(a, true), "17.0.1+2"),
		   "VM_INFO over its bound, beyond its message or cut short: "
		   "dropped");
	}

	/* the signature follows the name; one not starting with '(' does not */
	{
		struct pja_method m = { 21, 3, 1, 4, 0, 0, 0 };
		struct pja_method bad = { 22, 3, 1, 3, 0, 0, 0 };
		struct pja_walk_result r = { .cookie = 9, .nframes = 1 };
		struct pja_frame f = { .method = 21, .type = 2 }; /* JIT */
		const char *with = NULL;

		mlen = 0;
		put(PJA_METHOD, &m, sizeof(m), "p.Cm(I)V", 8);
		put(PJA_METHOD, &bad, sizeof(bad), "p.CmI)V", 7);
		put(PJA_WALK_RESULT, &r, sizeof(r), &f, sizeof(f));
		agent_consume(a, msg, mlen, on_walk, NULL);
		with = last_name;
		mlen = 0;
		f.method = 22;
		put(PJA_WALK_RESULT, &r, sizeof(r), &f, sizeof(f));
		agent_consume(a, msg, mlen, on_walk, NULL);
		ok(with && !strcmp(with, "p.C.m(I)V") && last_name &&
		       !strcmp(last_name, "p.C.m"),
		   "a method's signature follows its name (\"%s\"), a "
		   "malformed one is dropped (\"%s\")",
		   with ? with : "", last_name ? last_name : "");
		ok(java_same_method("p.C.m(I)V", "p.C.m") &&
		       java_same_method("p.C.m", "p.C.m(I)V") &&
		       java_same_method("p.C.m(I)V", "p.C.m(I)V") &&
		       !java_same_method("p.C.m(I)V", "p.C.m(J)V") &&
		       !java_same_method("p.C.m", "p.C.mm") &&
		       !java_same_method("p.C.mm(I)V", "p.C.m"),
		   "java_same_method: a signature on one side only aside");
	}

	/* PJA_STACK_RESULT: short, frames past the payload or past depth, a
	 * status out of range: dropped, cut to depth, or no frames */
	{
		struct pja_stack_result r = { .cookie = 5, .nframes = 2 };
		struct pja_frame f[20] = { { .method = 21, .type = 3 } };

		agent_on_stack(a, on_stack, NULL);
		mlen = 0;
		put(PJA_STACK_RESULT, &r, 8, NULL, 0);
		r.nframes = 0xffffffff;
		put(PJA_STACK_RESULT, &r, sizeof(r), f, sizeof(f));
		r.nframes = 3;
		put(PJA_STACK_RESULT, &r, sizeof(r), f, 2 * sizeof(f[0]));
		used = agent_consume(a, msg, mlen, on_walk, NULL);
		ok(used == (long)mlen && stacks == 0,
		   "stack answers short or with frames past the payload are "
		   "dropped (%u taken)",
		   stacks);
		mlen = 0;
		r.nframes = 20; /* depth is 16 */
		put(PJA_STACK_RESULT, &r, sizeof(r), f, sizeof(f));
		agent_consume(a, msg, mlen, on_walk, NULL);
		ok(stacks == 1 && stack_n == 16 &&
		       stack_status == AGENT_WALK_OK && stack_name &&
		       !strcmp(stack_name, "p.C.m(I)V"),
		   "a stack answer past depth is cut to it (%u frames, \"%s\")",
		   stack_n, stack_name ? stack_name : "");
		mlen = 0;
		r.status = -7;
		put(PJA_STACK_RESULT, &r, sizeof(r), f, sizeof(f));
		agent_consume(a, msg, mlen, on_walk, NULL);
		ok(stacks == 2 && stack_n == 0 &&
		       stack_status == AGENT_WALK_NOT_WALKABLE,
		   "a stack answer with an unknown status has no frames");
	}

	/* a native method has one type everywhere: its wrapper's code and
	 * its walked frames are the native method's, whichever came first */
	{
		struct pja_method nat = { 31, 1, 1, 0, 0, 0, PJA_METHOD_NATIVE };
		struct pja_code before = { 0x5000,	 0x40,	31,
					   PJ_FRAME_JIT, { 0 }, 1 };
		struct pja_code after = { 0x6000,      0x40,  31,
					  PJ_FRAME_C1, { 0 }, 1 };
		struct pja_code stub = {
			0x7000, 0x40, 0, PJ_FRAME_VM, { 0 }, 23
		};
		struct pja_walk_result r = { .cookie = 11, .nframes = 1 };
		struct pja_frame f = { .method = 31, .type = PJ_FRAME_JIT };
		const char *name = NULL;
		int t1, t2;

		mlen = 0;
		put(PJA_CODE_LOAD, &before, sizeof(before), "w", 1);
		put(PJA_METHOD, &nat, sizeof(nat), "Cw", 2);
		put(PJA_CODE_LOAD, &after, sizeof(after), "w", 1);
		put(PJA_CODE_LOAD, &stub, sizeof(stub),
		    "Stub Generator foo_stub", 23);
		put(PJA_WALK_RESULT, &r, sizeof(r), &f, sizeof(f));
		walks = 0;
		agent_consume(a, msg, mlen, on_walk_type, NULL);
		t1 = codemap_type_at(&a->code, 0x5010, NULL);
		t2 = codemap_type_at(&a->code, 0x6010, NULL);
		ok(t1 == PJ_FRAME_JAVA_NATIVE && t2 == PJ_FRAME_JAVA_NATIVE,
		   "a native method's wrapper code is typed native, loaded "
		   "before or after the method (%d, %d)",
		   t1, t2);
		ok(walks == 1 && last_type == PJ_FRAME_JAVA_NATIVE,
		   "a walked frame of a native method is native, though the "
		   "walk said compiled (%d)",
		   last_type);
		codemap_type_at(&a->code, 0x7010, &name);
		ok(name && !strcmp(name, "foo_stub"),
		   "JDK 24+'s \"Stub Generator \" prefix is dropped (\"%s\")",
		   name ? name : "");
	}

	/* code map entries are capped */
	for (i = 0; i < AGENT_MAX_CODE + 10; i++) {
		struct pja_code c = { 0x100000 + 64ull * i, 32, 0, 1, { 0 }, 1 };

		mlen = 0;
		put(PJA_CODE_LOAD, &c, sizeof(c), "n", 1);
		agent_consume(a, msg, mlen, on_walk, NULL);
	}
	ok(a->code.n == AGENT_MAX_CODE, "code map entries are capped at %u",
	   AGENT_MAX_CODE);

	/* a name the cleaning changes is interned once, not charged anew */
	{
		static const char esc[] = "T\x1b[2Jname";
		const char *p1, *p2;
		size_t spent;

		p1 = agent_intern(a, esc, sizeof(esc) - 1);
		spent = a->spent;
		p2 = agent_intern(a, esc, sizeof(esc) - 1);
		ok(p1 == p2 && a->spent == spent && clean(p1),
		   "a name with an escape is stored clean, once");
		p2 = agent_intern(a, "T", 1);
		ok(p2 != p1 && !strcmp(p2, "T"),
		   "a shorter name is told apart from a longer one");
	}
	agent_free(a);

	/* text_clean */
	{
		char s[] = "ok\xc3\xa9\xc2\x9b[2J\xff\xe2\x82";

		text_clean(s, sizeof(s) - 1);
		ok(!strcmp(s, "ok\xc3\xa9??[2J???"),
		   "text_clean keeps UTF-8, drops C1 controls and bad bytes");
	}
	return tap_done();
}

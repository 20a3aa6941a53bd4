// SPDX-License-Identifier: GPL-2.0
/*
 * The unwind's fast path (unwind/internal.h): each code address's CFI row,
 * as libdw reads it, kept in a small table, so that a frame costs a lookup
 * and a few loads instead of libdw's per-frame work (a state allocated, the
 * row found and built, every register's rule evaluated through its
 * expression machine, each with allocations of its own).
 *
 * The result is libdw's, frame for frame: the same rules applied in the
 * same way (libdwfl/frame_unwind.c, elfutils 0.188), including its
 * frame-pointer step where no CFI covers the code and its reads past the
 * stack copy (which decide how the walk ended). A row this does not model
 * (a DWARF expression, a CFA not of the form register + offset, a return
 * address column other than x86-64's) sends the whole sample to libdw.
 * PERFJAVA_UNWIND_CHECK in the environment (tests) unwinds every sample both
 * ways and counts the samples whose frames or end differ.
 */
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hash.h"
#include "unwind/internal.h"

/* Rows kept, direct-mapped by address: a table starts small (-a keeps an
 * unwinder per process) and doubles while more than one lookup in
 * MISS_RATE misses, up to NRULES_MAX. */
#define NRULES_MIN 256
#define NRULES_MAX 4096
#define MISS_RATE 16
#define BIT(r) (1u << (r))
#define ALL_REGS (BIT(UNWIND_NREGS) - 1)

enum rule_how { HOW_EMPTY, HOW_CFI, HOW_FP, HOW_LIBDW };
/* A register's rule, as dwarf_frame_register gives it. */
enum reg_kind { REG_UNDEF, REG_SAME, REG_AT, REG_VAL, REG_REG };

struct unwind_rule {
	uint64_t addr; /* the address looked up (pc, or pc - 1) */
	uint8_t how;
	uint8_t signal; /* the CIE marks a signal frame */
	uint8_t cfa_reg;
	uint8_t kind[UNWIND_NREGS];
	int32_t cfa_off;
	int32_t arg[UNWIND_NREGS]; /* REG_AT, REG_VAL: offset; REG_REG: reg */
};

static bool fits32(uint64_t v)
{
	return (int64_t)v >= INT32_MIN && (int64_t)v <= INT32_MAX;
}

/* One register's rule from ops as dwarf_frame_register returns them. */
static bool reg_rule(const Dwarf_Op *ops, const Dwarf_Op *mem, size_t nops,
		     uint8_t *kind, int32_t *arg)
{
	size_t i = 1;
	uint64_t off = 0;

	*arg = 0;
	if (!nops) {
		if (ops == mem)
			*kind = REG_UNDEF;
		else if (!ops)
			*kind = REG_SAME;
		else
			return false;
		return true;
	}
	if (nops == 1 && ops[0].atom == DW_OP_regx &&
	    ops[0].number < UNWIND_NREGS) {
		*kind = REG_REG;
		*arg = (int32_t)ops[0].number;
		return true;
	}
	if (ops[0].atom != DW_OP_call_frame_cfa)
		return false;
	if (i < nops && ops[i].atom == DW_OP_plus_uconst)
		off = ops[i++].number;
	*kind = REG_AT;
	if (i < nops && ops[i].atom == DW_OP_stack_value) {
		*kind = REG_VAL;
		i++;
	}
	if (i != nops || !fits32(off))
		return false;
	*arg = (int32_t)(int64_t)off;
	return true;
}

/* r from libdw's row f; false when it holds what the fast path leaves to
 * libdw. */
static bool row_rule(Dwarf_Frame *f, struct unwind_rule *r)
{
	Dwarf_Addr start, end;
	bool signal = false;
	Dwarf_Op mem[3], *ops;
	size_t nops;

	if (dwarf_frame_info(f, &start, &end, &signal) != UNWIND_DW_PC)
		return false;
	r->signal = signal;
	if (dwarf_frame_cfa(f, &ops, &nops) || nops != 1 ||
	    ops[0].atom != DW_OP_bregx || ops[0].number >= UNWIND_NREGS ||
	    !fits32(ops[0].number2))
		return false;
	r->cfa_reg = (uint8_t)ops[0].number;
	r->cfa_off = (int32_t)(int64_t)ops[0].number2;
	for (int reg = 0; reg < UNWIND_NREGS; reg++)
		if (dwarf_frame_register(f, reg, mem, &ops, &nops) ||
		    !reg_rule(ops, mem, nops, &r->kind[reg], &r->arg[reg]))
			return false;
	return true;
}

/* The rule at addr, found as libdw finds it: the module, its .eh_frame,
 * then its .debug_frame; none: the frame-pointer step. */
static void find_rule(struct unwinder *u, uint64_t addr, struct unwind_rule *r)
{
	Dwfl_Module *mod = dwfl_addrmodule(u->dwfl, addr);

	memset(r, 0, sizeof(*r));
	r->addr = addr;
	r->how = HOW_FP;
	for (int src = 0; mod && src < 2; src++) {
		Dwarf_Addr bias;
		Dwarf_CFI *cfi = src ? dwfl_module_dwarf_cfi(mod, &bias)
				     : dwfl_module_eh_cfi(mod, &bias);
		Dwarf_Frame *f;

		if (!cfi || dwarf_cfi_addrframe(cfi, addr - bias, &f))
			continue;
		r->how = row_rule(f, r) ? HOW_CFI : HOW_LIBDW;
		free(f);
		return;
	}
}

static const struct unwind_rule *rule_at(struct unwinder *u, uint64_t addr)
{
	uint64_t h = hash_u64(addr);
	struct unwind_rule *r = &u->rules[h & (u->nrules - 1)];

	if (++u->rule_looks >= (uint64_t)MISS_RATE * u->nrules) {
		if (u->rule_misses * MISS_RATE > u->rule_looks &&
		    u->nrules < NRULES_MAX) {
			struct unwind_rule *t =
			    calloc(2 * (size_t)u->nrules, sizeof(*t));

			if (t) {
				free(u->rules);
				u->rules = t;
				u->nrules *= 2;
				r = &u->rules[h & (u->nrules - 1)];
			}
		}
		u->rule_looks = u->rule_misses = 0;
	}
	if (r->how == HOW_EMPTY || r->addr != addr) {
		u->rule_misses++;
		find_rule(u, addr, r);
	}
	return r;
}

void unwind_rules_flush(struct unwinder *u)
{
	if (u->rules)
		memset(u->rules, 0, u->nrules * sizeof(*u->rules));
}

/* libdw's state of a frame: the registers it knows. */
struct regstate {
	uint64_t v[UNWIND_NREGS];
	uint32_t set;
};

/* libdw's step by frame pointer where no CFI is (x86_64_unwind). */
static bool fp_step(struct unwinder *u, struct regstate *s, uint64_t *pc)
{
	uint64_t fp = s->v[UNWIND_DW_BP], sp = 0, prev = 0, ret;

	if (!(s->set & BIT(UNWIND_DW_BP)) || !fp)
		return false;
	if (s->set & BIT(UNWIND_DW_SP))
		sp = s->v[UNWIND_DW_SP];
	if (!unwind_read(u, fp, &prev))
		prev = 0;
	if (!unwind_read(u, fp + 8, &ret))
		return false;
	fp += 16;
	if (sp >= fp)
		return false;
	s->v[UNWIND_DW_BP] = prev;
	s->v[UNWIND_DW_SP] = fp;
	s->set = BIT(UNWIND_DW_BP) | BIT(UNWIND_DW_SP);
	*pc = ret;
	return true;
}

/* libdw's step by the CFI row r (handle_cfi): every register's rule from
 * the old state, reads counted; false when the caller's pc is undefined
 * (the outermost frame, or a return address that could not be read). */
static bool cfi_step(struct unwinder *u, const struct unwind_rule *r,
		     struct regstate *s, uint64_t *pc)
{
	struct regstate n = { { 0 }, 0 };
	bool have_cfa = s->set & BIT(r->cfa_reg);
	uint64_t cfa = s->v[r->cfa_reg] + (uint64_t)(int64_t)r->cfa_off;
	bool pc_undefined = false;

	for (int reg = 0; reg < UNWIND_NREGS; reg++) {
		uint64_t at = cfa + (uint64_t)(int64_t)r->arg[reg], v;

		switch (r->kind[reg]) {
		case REG_UNDEF:
			if (reg == UNWIND_DW_PC)
				pc_undefined = true;
			continue;
		case REG_SAME:
			if (!(s->set & BIT(reg)))
				continue;
			v = s->v[reg];
			break;
		case REG_AT:
			if (!have_cfa || !unwind_read(u, at, &v))
				continue;
			break;
		case REG_VAL:
			if (!have_cfa)
				continue;
			v = at;
			break;
		default: /* REG_REG */
			if (!(s->set & BIT(r->arg[reg])))
				continue;
			v = s->v[r->arg[reg]];
			break;
		}
		n.v[reg] = v;
		n.set |= BIT(reg);
	}
	*s = n;
	if (pc_undefined || !(n.set & BIT(UNWIND_DW_PC)) || !n.v[UNWIND_DW_PC])
		return false;
	*pc = n.v[UNWIND_DW_PC];
	return true;
}

/* How a step from one frame to its caller went. */
enum step { STEP_OK, STEP_FAILED, STEP_OUTERMOST, STEP_LIBDW };

/* The caller of the frame at pc in s (looked up at pc - 1 but for the
 * first frame and a signal frame's caller): s and pc become the caller's,
 * *signal whether it is a signal frame's caller. */
static enum step step(struct unwinder *u, struct regstate *s, uint64_t *pc,
		      bool exact, bool *signal)
{
	const struct unwind_rule *r = rule_at(u, exact ? *pc : *pc - 1);

	*signal = false;
	if (r->how == HOW_LIBDW)
		return STEP_LIBDW;
	if (r->how == HOW_FP)
		return fp_step(u, s, pc) ? STEP_OK : STEP_FAILED;
	*signal = r->signal;
	return cfi_step(u, r, s, pc) ? STEP_OK : STEP_OUTERMOST;
}

int unwind_fast(struct unwinder *u, struct unwind_walk *w, const uint64_t *dw)
{
	struct regstate s, next;
	uint64_t pc = dw[UNWIND_DW_PC], npc;
	bool initial = true, signal = false, nsignal = false;
	enum step how = STEP_OK;

	if (!u->rules) {
		if (!(u->rules = calloc(NRULES_MIN, sizeof(*u->rules))))
			return UNWIND_FAST_NO;
		u->nrules = NRULES_MIN;
	}
	memcpy(s.v, dw, sizeof(s.v));
	s.set = ALL_REGS;
	for (;;) {
		/* libdw unwinds a frame that is neither the first nor a signal
		 * frame's caller before giving it to the callback
		 * (dwfl_frame_pc asking whether it is an activation): its
		 * reads past the copy count even when the callback ends the
		 * walk there */
		bool early = !initial && !signal;
		int err;

		next = s;
		npc = pc;
		if (early &&
		    (how = step(u, &next, &npc, false, &nsignal)) == STEP_LIBDW)
			return UNWIND_FAST_NO;
		err = unwind_take(
		    w, pc, s.set & BIT(UNWIND_DW_SP), s.v[UNWIND_DW_SP],
		    s.set & BIT(UNWIND_DW_BP) ? s.v[UNWIND_DW_BP] : 0);
		if (err)
			return err;
		if (!early &&
		    (how = step(u, &next, &npc, true, &nsignal)) == STEP_LIBDW)
			return UNWIND_FAST_NO;
		if (how == STEP_FAILED)
			return -1; /* libdw: no caller state */
		if (how == STEP_OUTERMOST)
			return 0; /* libdw: the caller's pc is undefined */
		s = next;
		pc = npc;
		signal = nsignal;
		initial = false;
	}
}

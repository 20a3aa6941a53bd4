// SPDX-License-Identifier: GPL-2.0
/*
 * One frame taken into a sample's unwind, from libdw's callback
 * (unwind/unwind.c) or the fast path (unwind/rules.c): each caller's frame
 * must lie above its callee's, so that damaged registers or saved frame
 * pointers that loop end the walk instead of looping; a pc outside every
 * mapping asks for the maps to be read again.
 */
#include "unwind/internal.h"

int unwind_take(struct unwind_walk *w, uint64_t pc, bool have_sp, uint64_t sp,
		uint64_t bp)
{
	struct unwind_out *o = w->out;

	if (!pc)
		return DWARF_CB_ABORT;
	if (!have_sp)
		sp = w->last_sp;
	/* Every caller's frame lies above its callee's. */
	if (o->n &&
	    (sp < w->last_sp || (sp == w->last_sp && pc == o->ips[o->n - 1]))) {
		w->looped = true;
		return DWARF_CB_ABORT;
	}
	if (o->n && !unwind_addr_mapped(w->u, pc)) {
		w->u->want_reload = true;
		w->u->missed = pc;
	}
	o->ips[o->n] = pc;
	if (o->sps)
		o->sps[o->n] = sp;
	if (o->bps)
		o->bps[o->n] = bp;
	w->last_sp = sp;
	if (o->stop_at_anon && unwind_addr_anon(w->u, pc)) {
		o->n++;
		w->stopped = true;
		return DWARF_CB_ABORT;
	}
	return ++o->n < o->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

// SPDX-License-Identifier: GPL-2.0
/* A sample named, merged once and written; see pipeline/emit.h. */
#include <string.h>

#include "pipeline/emit.h"
#include "pipeline/merge.h"
#include "pipeline/proc.h"
#include "pipeline/sample.h"
#include "pipeline/self.h"
#include "profile/io.h"
#include "rings/threads.h"
#include "sym/symbolize.h"

/* smp's kernel frames: named here, once per address (sym/symbolize.h). */
static const uint32_t *kernel_frames(struct emitter *e,
				     const struct sample *smp)
{
	if (smp->kframes || !smp->nk)
		return smp->kframes;
	for (unsigned int i = 0; i < smp->nk && i < MERGE_MAX_FRAMES; i++)
		e->kframes[i] = symbolize_kernel(e->ksym, smp->kips[i]);
	return e->kframes;
}

uint32_t emit_stack(struct emitter *e, const struct sample *smp,
		    const struct java_part *j, const char *why, uint32_t leaf,
		    int *marker)
{
	uint32_t *out = e->frames;
	struct proc *p = procs_get(e->procs, (pid_t)smp->s.pid);
	struct merge_sink k;
	struct merge_in in = {
		.kframes = kernel_frames(e, smp),
		.nk = smp->nk < MERGE_MAX_FRAMES ? smp->nk : MERGE_MAX_FRAMES,
		.uips = smp->uips,
		.nu = p ? smp->nu : 0, /* no process: nothing names them */
		.code = p ? agent_codemap(p->agent) : NULL,
		.walk_status = j ? j->status : MERGE_NO_WALK,
		.jf = j ? j->jf : NULL,
		.nj = j ? j->nj : 0,
		.held = j && j->held,
		.at_sample = j && j->at_sample,
		.root = why ? why : smp->root,
		.self_lo = p ? p->self.lo : 0,
		.self_hi = p ? p->self.hi : 0,
		.base = bases_of(&e->bases, smp->s.tid),
	};
	unsigned int n, at = leaf ? 1 : 0;

	if (p)
		agent_park_state(p->agent, &in.pass_lo, &in.pass_hi, NULL);
	e->nosym.w = e->w;
	merge_sink_symbolizer(&k, p ? &p->sym : &e->nosym);
	n = merge_stack(&k, &in, out + at, MERGE_MAX_FRAMES - at, marker);
	if (leaf)
		out[0] = leaf - 1;
	return pj_writer_stack(e->w, out, n + at);
}

/* Where smp's user stack (of process p) stopped: a thread's entry, or
 * early in a file. */
static void note_stack_end(struct emitter *e, struct proc *p,
			   const struct sample *smp)
{
	struct sym_user last;

	if (!smp->nu || e->lbr)
		return;
	last = sym_user_facts(&p->sym, smp->uips[smp->nu - 1], smp->nu == 1);
	stack_ends_note(&e->ends, last.facts & SYM_THREAD_ENTRY, last.module);
}

bool emit_own(const struct emitter *e, const struct proc *p,
	      const struct sample *smp)
{
	uint64_t lo, hi;

	if (e->self_pid && smp->s.pid == (uint32_t)e->self_pid)
		return true;
	if (!p || !p->agent)
		return false;
	if (jnames_is_agent(p->agent, smp->s.tid))
		return true;
	agent_park_state(p->agent, &lo, &hi, NULL);
	return self_stack(p->self.lo, p->self.hi, lo, hi, smp->uips, smp->nu);
}

void emit_count_own(struct emitter *e, const struct sample *smp)
{
	if (smp->s.event < RING_MAX_EVENTS) {
		e->st.own_samples[smp->s.event]++;
		e->st.own_period[smp->s.event] += smp->s.period;
	}
}

void emit_write(struct emitter *e, struct sample *smp, uint32_t stack)
{
	struct proc *p = procs_get(e->procs, (pid_t)smp->s.pid);

	if (emit_own(e, p, smp)) {
		emit_count_own(e, smp);
		if (!e->keep_self)
			return;
	}

	if (p && p->agent) {
		/* the agent's names of its thread, of its virtual thread */
		jnames_write(&e->names, e->w, p->agent, smp->s.pid, smp->s.tid);
		if (smp->s.vthread)
			jnames_write_vthread(&e->names, e->w, p->agent,
					     smp->s.vthread);
	}
	if (p)
		note_stack_end(e, p, smp);
	smp->s.stack = stack;
	if (smp->tp)
		smp->s.info = pj_writer_string(e->w, smp->tp);
	pj_writer_sample(e->w, &smp->s);
	e->st.samples++;
	if (smp->s.event < RING_MAX_EVENTS) {
		e->st.event_samples[smp->s.event]++;
		e->st.event_period[smp->s.event] += smp->s.period;
	}
}

void emit_java_names(struct emitter *e, const struct threads *th)
{
	for (unsigned int i = 0; i < th->n; i++) {
		const struct ring *r = th->v[i];
		struct proc *p = procs_get(e->procs, r->pid);

		if (p && p->agent)
			jnames_write(&e->names, e->w, p->agent,
				     (uint32_t)r->pid, (uint32_t)r->tid);
	}
}

void emit_new_file(struct emitter *e, struct pj_writer *w)
{
	e->w = w;
	ksymbolizer_new_file(e->ksym, w);
	procs_new_file(e->procs, w);
	jnames_free(&e->names);
	bases_forget(&e->bases);
	memset(&e->st, 0, sizeof(e->st));
}

void emit_free(struct emitter *e)
{
	jnames_free(&e->names);
	bases_forget(&e->bases);
}

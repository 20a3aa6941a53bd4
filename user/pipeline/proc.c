// SPDX-License-Identifier: GPL-2.0
/* The processes of a recording; see pipeline/proc.h. */
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "pipeline/proc.h"
#include "unwind/unwind.h"

static void proc_free(struct procs *ps, struct proc *p)
{
	ps->nunw -= p->unw != NULL;
	if (ps->drop)
		ps->drop(p);
	if (p->agent)
		agent_stop(p->agent);
	ksig_free(&p->ks);
	symbolizer_free(&p->sym);
	unwinder_free(p->unw);
	free(p);
}

struct proc *procs_add(struct procs *ps, pid_t pid, unsigned int flags)
{
	struct proc *p = procs_get(ps, pid);
	union u64map_val *slot = NULL;

	if (p || pid <= 0)
		return p;
	if (GROW(ps->v, ps->cap, ps->n + 1) ||
	    !(p = calloc(1, ps->size > sizeof(*p) ? ps->size : sizeof(*p))))
		return NULL;
	p->pid = pid;
	p->ks = ps->ks;
	if (!(slot = u64map_slot(&ps->by_pid, (uint64_t)pid + 1)) ||
	    symbolizer_init(&p->sym, ps->w, pid, flags & PROCS_BY_RECORDS))
		goto fail;
	if ((flags & PROCS_UNWIND) && ps->unwind &&
	    (!ps->max_unw || ps->nunw < ps->max_unw)) {
		/* (its samples' user frames from the kernel's chain alone
		 * beyond the bound) */
		if (!(p->unw = unwinder_new(pid))) {
			symbolizer_free(&p->sym);
			goto fail;
		}
		p->unw_tried = true;
		ps->nunw++;
	}
	slot->p = p;
	ps->v[ps->n++] = p;
	if (ps->made)
		ps->made(p);
	return p;
fail: /* (nothing else made yet) */
	if (slot)
		u64map_del(&ps->by_pid, (uint64_t)pid + 1);
	free(p);
	return NULL;
}

void procs_unwinder(struct procs *ps, struct proc *p)
{
	if (p->unw_tried || !ps->unwind ||
	    (ps->max_unw && ps->nunw >= ps->max_unw))
		return;
	p->unw_tried = true;
	p->unw = unwinder_new(p->pid);
	ps->nunw += p->unw != NULL;
}

void procs_remove(struct procs *ps, struct proc *p)
{
	for (unsigned int i = 0; i < ps->n; i++)
		if (ps->v[i] == p) {
			memmove(&ps->v[i], &ps->v[i + 1],
				(ps->n - i - 1) * sizeof(*ps->v));
			ps->n--;
			break;
		}
	u64map_del(&ps->by_pid, (uint64_t)p->pid + 1);
	proc_free(ps, p);
}

int procs_exec(struct procs *ps, struct proc *p)
{
	if (p->unw) {
		unwinder_free(p->unw);
		/* (NULL: its user frames are the kernel's chain) */
		p->unw = unwinder_new(p->pid);
		ps->nunw -= p->unw == NULL;
	}
	return symbolizer_reload_user(&p->sym, p->pid);
}

void procs_inherit(struct proc *p, const struct proc *parent)
{
	symbolizer_inherit(&p->sym, &parent->sym);
}

void procs_new_file(struct procs *ps, struct pj_writer *w)
{
	ps->w = w;
	for (unsigned int i = 0; i < ps->n; i++)
		symbolizer_new_file(&ps->v[i]->sym, w);
}

void procs_free(struct procs *ps)
{
	for (unsigned int i = 0; i < ps->n; i++)
		proc_free(ps, ps->v[i]);
	free(ps->v);
	u64map_free(&ps->by_pid);
	memset(ps, 0, sizeof(*ps));
}

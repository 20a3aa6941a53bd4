// SPDX-License-Identifier: GPL-2.0
/* The target's threads and their rings; see rings/threads.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/grow.h"
#include "lib/procfs.h"
#include "rings/threads.h"

/* r's key in the index: its tid, or its CPU past every tid. */
static uint64_t key_of(const struct ring *r)
{
	return ring_is_cpu(r) ? (1ull << 32) + (uint64_t)r->cpu
			      : (uint64_t)r->tid;
}

struct ring *threads_find(struct threads *t, pid_t tid)
{
	uint32_t pos;

	if (!u64map_get(&t->index, (uint64_t)tid, &pos) || !pos)
		return NULL;
	return t->v[pos - 1];
}

/* A new ring for tid of pid, with the options of pid; NULL with *err. */
static struct ring *open_thread(struct threads *t, pid_t pid, pid_t tid,
				unsigned int *bad_event, int *err)
{
	struct ring_opts o;
	struct ring *r = calloc(1, sizeof(*r));

	if (!r) {
		*err = -ENOMEM;
		return NULL;
	}
	o = t->opts;
	if (t->opts_for) /* what this process's rings differ by */
		t->opts_for(t->ctx, pid, &o);
	*err = ring_open(r, tid, t->evs, t->nevents, &o, bad_event);
	if (*err) {
		free(r);
		return NULL;
	}
	r->pid = pid;
	if (t->enabled)
		ring_enable(r);
	return r;
}

/* r into v, found by its tid from now on. */
static void put_ring(struct threads *t, struct ring *r)
{
	r->serial = ++t->serials;
	t->v[t->n++] = r;
	u64map_put(&t->index, (uint64_t)r->tid, t->n);
	t->changed = true;
	t->opened++;
	if (t->on_open)
		t->on_open(t->ctx, r);
}

int threads_add(struct threads *t, pid_t pid, pid_t tid,
		unsigned int *bad_event)
{
	struct ring *r;
	int err;

	if (threads_find(t, tid))
		return 0;
	if (GROW(t->v, t->cap, t->n + 1))
		return -ENOMEM;
	r = open_thread(t, pid, tid, bad_event, &err);
	if (!r) /* A thread that exited between listing and opening. */
		return err == -ESRCH ? 0 : err;
	threads_uncarry(t, tid); /* its own now */
	put_ring(t, r);
	return 0;
}

int threads_replace(struct threads *t, struct ring *old,
		    unsigned int *bad_event)
{
	struct ring *r;
	int err;

	if (old->retired || ring_is_cpu(old))
		return 0;
	if (GROW(t->v, t->cap, t->n + 1))
		return -ENOMEM;
	r = open_thread(t, old->pid, old->tid, bad_event, &err);
	if (!r)
		return err;
	old->retired = true; /* no longer its tid's (put_ring) */
	put_ring(t, r);
	return 0;
}

int threads_add_cpu(struct threads *t, int cpu, unsigned int *bad_event)
{
	struct ring *r;
	int err;

	if (GROW(t->v, t->cap, t->n + 1))
		return -ENOMEM;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	err = ring_open_cpu(r, cpu, t->evs, t->nevents, &t->opts, bad_event);
	if (err) {
		free(r);
		return err;
	}
	if (t->enabled)
		ring_enable(r);
	t->v[t->n++] = r;
	u64map_put(&t->index, key_of(r), t->n);
	t->changed = true;
	return 0;
}

int threads_scan(struct threads *t, pid_t pid, unsigned int *bad_event)
{
	char path[96];
	struct dirent *de;
	int added = 0, err = 0;
	DIR *d;

	d = opendir(proc_path(path, sizeof(path), pid, 0, "task"));
	if (!d)
		return -errno;
	while ((de = readdir(d)) != NULL) {
		pid_t tid = (pid_t)atoi(de->d_name);
		unsigned int before = t->opened;

		if (tid <= 0 || threads_find(t, tid) ||
		    threads_is_carried(t, tid))
			continue;
		err = threads_add(t, pid, tid, bad_event);
		if (err)
			break;
		added += t->opened != before;
	}
	closedir(d);
	return err ? err : added;
}

int threads_carry(struct threads *t, const struct ring *r, pid_t pid, pid_t tid)
{
	unsigned int max = t->carried_max ? t->carried_max
					  : THREADS_CARRIED_MAX;
	union u64map_val *v;

	if (tid <= 0 || pid <= 0 || ring_is_cpu(r) || !r->serial)
		return -1;
	if (!u64map_find(&t->carried, (uint64_t)tid + 1) &&
	    t->carried.n >= max) {
		t->carried_over++;
		return -1;
	}
	v = u64map_slot(&t->carried, (uint64_t)tid + 1);
	if (!v)
		return -1;
	v->u = (uint64_t)r->serial << 32 | (uint32_t)pid;
	return 0;
}

bool threads_is_carried(const struct threads *t, pid_t tid)
{
	return tid > 0 && u64map_find(&t->carried, (uint64_t)tid + 1);
}

struct ring *threads_carrier(const struct threads *t, pid_t tid)
{
	const union u64map_val *v =
	    tid > 0 ? u64map_find(&t->carried, (uint64_t)tid + 1) : NULL;

	for (unsigned int i = 0; v && i < t->n; i++)
		if (t->v[i]->serial == (uint32_t)(v->u >> 32))
			return t->v[i];
	return NULL;
}

void threads_uncarry(struct threads *t, pid_t tid)
{
	if (tid > 0)
		u64map_del(&t->carried, (uint64_t)tid + 1);
}

unsigned int threads_adopt(struct threads *t, const struct ring *r)
{
	struct task {
		pid_t pid, tid;
	} *v = NULL;
	size_t cnt = 0, cap = 0;
	unsigned int n = 0, bad;
	uint32_t i = 0;
	uint64_t k;
	union u64map_val *val;

	/* collected first: threads_add takes each out of the map */
	while (u64map_next(&t->carried, &i, &k, &val)) {
		if ((uint32_t)(val->u >> 32) != r->serial)
			continue;
		if (GROW(v, cap, cnt + 1))
			break;
		v[cnt++] =
		    (struct task){ (pid_t)(uint32_t)val->u, (pid_t)(k - 1) };
	}
	for (size_t j = 0; j < cnt; j++) {
		threads_uncarry(t, v[j].tid);
		n += !threads_add(t, v[j].pid, v[j].tid, &bad) &&
		     threads_find(t, v[j].tid);
	}
	free(v);
	return n;
}

void threads_remove(struct threads *t, struct ring *r)
{
	uint32_t pos = 0;

	if (!r->retired) {
		if (!u64map_get(&t->index, key_of(r), &pos) || !pos)
			return;
		u64map_del(&t->index, key_of(r)); /* flat over churn */
	} else { /* its tid is its successor's */
		for (uint32_t i = 0; i < t->n && !pos; i++)
			pos = t->v[i] == r ? i + 1 : 0;
		if (!pos)
			return;
	}
	ring_close(r);
	free(r);
	t->v[pos - 1] = t->v[--t->n];
	if (pos - 1 < t->n && !t->v[pos - 1]->retired)
		u64map_put(&t->index, key_of(t->v[pos - 1]), pos);
	t->changed = true;
}

void threads_enable(struct threads *t)
{
	t->enabled = true;
	for (unsigned int i = 0; i < t->n; i++)
		ring_enable(t->v[i]);
}

void threads_disable(struct threads *t)
{
	t->enabled = false;
	for (unsigned int i = 0; i < t->n; i++)
		ring_disable(t->v[i]);
}

void threads_free(struct threads *t)
{
	for (unsigned int i = 0; i < t->n; i++) {
		ring_close(t->v[i]);
		free(t->v[i]);
	}
	free(t->v);
	ring_fini(); /* the CPUs' shared rings, once no ring writes there */
	u64map_free(&t->index);
	u64map_free(&t->carried);
	memset(t, 0, sizeof(*t));
}

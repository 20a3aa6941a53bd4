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

int threads_add(struct threads *t, pid_t pid, pid_t tid,
		unsigned int *bad_event)
{
	struct ring_opts o;
	struct ring *r;
	int err;

	if (threads_find(t, tid))
		return 0;
	if (GROW(t->v, t->cap, t->n + 1))
		return -ENOMEM;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	o = t->opts;
	if (t->opts_for) /* what this process's rings differ by */
		t->opts_for(t->ctx, pid, &o);
	err = ring_open(r, tid, t->evs, t->nevents, &o, bad_event);
	if (err) {
		free(r);
		/* A thread that exited between listing and opening. */
		return err == -ESRCH ? 0 : err;
	}
	r->pid = pid;
	if (t->enabled)
		ring_enable(r);
	t->v[t->n++] = r;
	u64map_put(&t->index, (uint64_t)tid, t->n);
	t->changed = true;
	t->opened++;
	if (t->on_open)
		t->on_open(t->ctx, r);
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

		if (tid <= 0 || threads_find(t, tid))
			continue;
		err = threads_add(t, pid, tid, bad_event);
		if (err)
			break;
		added += t->opened != before;
	}
	closedir(d);
	return err ? err : added;
}

void threads_remove(struct threads *t, struct ring *r)
{
	uint32_t pos;

	if (!u64map_get(&t->index, key_of(r), &pos) || !pos)
		return;
	u64map_del(&t->index, key_of(r)); /* flat over thread churn */
	ring_close(r);
	free(r);
	t->v[pos - 1] = t->v[--t->n];
	if (pos - 1 < t->n)
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

void threads_alternate(struct threads *t, bool odd)
{
	if (!t->enabled || !t->opts.alt)
		return;
	for (unsigned int i = 0; i < t->n; i++)
		ring_alternate(t->v[i], odd);
}

void threads_free(struct threads *t)
{
	for (unsigned int i = 0; i < t->n; i++) {
		ring_close(t->v[i]);
		free(t->v[i]);
	}
	free(t->v);
	u64map_free(&t->index);
	memset(t, 0, sizeof(*t));
}

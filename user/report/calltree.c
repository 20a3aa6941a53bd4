// SPDX-License-Identifier: GPL-2.0
/* The call tree of a report (see report/calltree.h). */
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "lib/hash.h"
#include "report/calltree.h"
#include "report/names.h"

#define NAME_LEN 4096

void ct_titles_init(struct ct_titles *t)
{
	memset(t, 0, sizeof(*t));
}

void ct_titles_free(struct ct_titles *t)
{
	for (uint32_t i = 0; i < t->n; i++)
		free(t->name[i]);
	free(t->name);
	free(t->kind);
	idtable_free(&t->index);
	ct_titles_init(t);
}

static uint64_t title_hash(const void *ctx, uint32_t i)
{
	const struct ct_titles *t = ctx;

	return hash_str(t->name[i], t->kind[i]);
}

/* The index of (name, kind), added when new; UINT32_MAX when out of memory. */
uint32_t ct_title_intern(struct ct_titles *t, const char *name, uint8_t kind)
{
	uint64_t h = hash_str(name, kind);
	uint32_t v;

	for (size_t j = idtable_first(&t->index, h);
	     (v = idtable_at(&t->index, j)); j = idtable_next(&t->index, j))
		if (t->kind[v - 1] == kind && !strcmp(t->name[v - 1], name))
			return v - 1;
	if (t->n == UINT32_MAX - 1)
		return UINT32_MAX;
	if (t->n == t->cap) {
		/* Two arrays of one capacity: the second grows to the first. */
		uint32_t kcap = t->cap;

		if (GROW(t->name, t->cap, t->n + 1) ||
		    GROW(t->kind, kcap, t->cap))
			return UINT32_MAX;
	}
	t->name[t->n] = strdup(name);
	if (!t->name[t->n])
		return UINT32_MAX;
	t->kind[t->n] = kind;
	if (idtable_add(&t->index, h, t->n, title_hash, t)) {
		free(t->name[t->n]);
		return UINT32_MAX;
	}
	return t->n++;
}

static uint8_t kind_of(const struct report *r, uint32_t f, const char *name)
{
	switch (report_frame_type(r, f)) {
	case PJ_FRAME_INTERPRETED:
		return CT_INTERPRETED;
	case PJ_FRAME_JIT:
		return CT_JIT;
	case PJ_FRAME_INLINED:
		return CT_INLINED;
	case PJ_FRAME_C1:
		return CT_C1;
	case PJ_FRAME_KERNEL:
		return CT_KERNEL;
	case PJ_FRAME_VM:
		return CT_CPP;
	case PJ_FRAME_MARKER:
		return CT_LABEL;
	case PJ_FRAME_CLASS: /* as async-profiler colours them */
		return CT_INLINED;
	case PJ_FRAME_NATIVE:
		return strstr(name, "::") ? CT_CPP : CT_NATIVE;
	default:
		return CT_NATIVE;
	}
}

static uint64_t node_hash(uint32_t parent, uint32_t title)
{
	return hash_u64((uint64_t)parent << 32 | title);
}

static uint64_t node_hash_of(const void *ctx, uint32_t i)
{
	const struct calltree *ct = ctx;

	return node_hash(ct->nodes[i].parent, ct->nodes[i].title);
}

uint32_t calltree_find(const struct calltree *ct, uint32_t parent,
		       uint32_t title)
{
	uint32_t v;

	for (size_t j = idtable_first(&ct->index, node_hash(parent, title));
	     (v = idtable_at(&ct->index, j)); j = idtable_next(&ct->index, j))
		if (ct->nodes[v - 1].parent == parent &&
		    ct->nodes[v - 1].title == title)
			return v - 1;
	return UINT32_MAX;
}

static uint32_t child(struct calltree *ct, uint32_t parent, uint32_t title)
{
	uint32_t i = calltree_find(ct, parent, title);

	if (i != UINT32_MAX)
		return i;
	if (ct->n == UINT32_MAX - 1 || GROW(ct->nodes, ct->cap, ct->n + 1))
		return UINT32_MAX;
	ct->nodes[ct->n] = (struct ct_node){ title, parent, 0, 0 };
	if (idtable_add(&ct->index, node_hash(parent, title), ct->n,
			node_hash_of, ct))
		return UINT32_MAX;
	return ct->n++;
}

int calltree_build(struct calltree *ct, const struct report *r,
		   struct ct_titles *t)
{
	size_t nids = (size_t)r->p->nframes + r->nlabels;
	uint32_t *title_of = malloc((nids ? nids : 1) * sizeof(*title_of));
	char *name = malloc(NAME_LEN);
	int ret = -1;

	memset(ct, 0, sizeof(*ct));
	ct->r = r;
	ct->titles = t;
	ct->end = malloc((r->nstacks ? r->nstacks : 1) * sizeof(*ct->end));
	if (!title_of || !name || !ct->end || GROW(ct->nodes, ct->cap, 4096))
		goto out;
	memset(title_of, 0xff, (nids ? nids : 1) * sizeof(*title_of));
	ct->nodes[0] =
	    (struct ct_node){ ct_title_intern(t, "all", CT_LABEL), 0, 0, 0 };
	if (ct->nodes[0].title == UINT32_MAX)
		goto out;
	ct->n = 1;
	for (size_t i = 0; i < r->nstacks; i++) {
		const struct report_stack *s = &r->stacks[i];
		uint64_t c = report_count(r, s);
		uint32_t node = 0;

		ct->nodes[0].total += c;
		for (uint32_t j = 0; j < s->nframes; j++) {
			uint32_t f = s->frames[j];

			if (title_of[f] == UINT32_MAX) {
				report_frame_name(r, f, REPORT_PLAIN, name,
						  NAME_LEN);
				title_of[f] = ct_title_intern(
				    t, name, kind_of(r, f, name));
				if (title_of[f] == UINT32_MAX)
					goto out;
			}
			node = child(ct, node, title_of[f]);
			if (node == UINT32_MAX)
				goto out;
			ct->nodes[node].total += c;
		}
		ct->nodes[node].self += c;
		ct->end[i] = node;
	}
	ret = 0;
out:
	free(title_of);
	free(name);
	return ret;
}

void calltree_free(struct calltree *ct)
{
	free(ct->nodes);
	free(ct->end);
	idtable_free(&ct->index);
	memset(ct, 0, sizeof(*ct));
}

static const struct calltree *sort_ct;
static bool sort_by_total;

static int cmp_child(const void *a, const void *b)
{
	const struct ct_node *x = &sort_ct->nodes[*(const uint32_t *)a];
	const struct ct_node *y = &sort_ct->nodes[*(const uint32_t *)b];
	int c;

	if (sort_by_total && x->total != y->total)
		return x->total > y->total ? -1 : 1;
	c = strcmp(sort_ct->titles->name[x->title],
		   sort_ct->titles->name[y->title]);
	if (c)
		return c;
	return x->title < y->title ? -1 : x->title > y->title;
}

long calltree_order(const struct calltree *ct, bool by_total, double minfrac,
		    uint32_t *order, uint32_t *depth)
{
	/* Children grouped by parent (counting sort), then each group sorted. */
	uint32_t *start = calloc((size_t)ct->n + 1, sizeof(*start));
	uint32_t *kids = malloc(((size_t)ct->n + 1) * sizeof(*kids));
	uint32_t *stack = malloc(((size_t)ct->n + 1) * sizeof(*stack));
	uint32_t *sdepth = malloc(((size_t)ct->n + 1) * sizeof(*sdepth));
	double min = minfrac * (double)ct->nodes[0].total;
	long n = -1;
	size_t sp = 0;

	if (!start || !kids || !stack || !sdepth)
		goto out;
	for (uint32_t i = 1; i < ct->n; i++)
		start[ct->nodes[i].parent + 1]++;
	for (uint32_t i = 0; i < ct->n; i++)
		start[i + 1] += start[i];
	{
		uint32_t *fill = malloc(((size_t)ct->n + 1) * sizeof(*fill));

		if (!fill)
			goto out;
		memcpy(fill, start, ((size_t)ct->n + 1) * sizeof(*fill));
		for (uint32_t i = 1; i < ct->n; i++)
			kids[fill[ct->nodes[i].parent]++] = i;
		free(fill);
	}
	sort_ct = ct;
	sort_by_total = by_total;
	for (uint32_t i = 0; i < ct->n; i++)
		if (start[i + 1] - start[i] > 1)
			qsort(kids + start[i], start[i + 1] - start[i],
			      sizeof(*kids), cmp_child);
	n = 0;
	stack[sp] = 0;
	sdepth[sp++] = 0;
	while (sp) {
		uint32_t v = stack[--sp], d = sdepth[sp];

		order[n] = v;
		depth[n++] = d;
		/* Push in reverse so that the first child comes out first. */
		for (uint32_t k = start[v + 1]; k > start[v]; k--) {
			uint32_t c = kids[k - 1];

			if ((double)ct->nodes[c].total < min ||
			    !ct->nodes[c].total)
				continue;
			stack[sp] = c;
			sdepth[sp++] = d + 1;
		}
	}
out:
	free(start);
	free(kids);
	free(stack);
	free(sdepth);
	return n;
}

void json_string(FILE *out, const char *s)
{
	putc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c == '<' || c == '>' || c == '&')
			fprintf(out, "\\u%04x", c);
		else
			putc(c, out);
	}
	putc('"', out);
}

/* Decimal digits of v at the end of buf; returns where they start. */
static char *u64_dec(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

static void put_num(FILE *out, uint64_t v, char sep)
{
	char buf[24], *e = buf + sizeof(buf);
	char *s;

	*--e = sep;
	s = u64_dec(e, v);
	fwrite(s, 1, (size_t)(buf + sizeof(buf) - s), out);
}

int calltree_write_js(FILE *out, const struct calltree *ct,
		      const struct calltree *base, bool by_total,
		      double minfrac, uint32_t *pos)
{
	const struct report *r = ct->r;
	const struct ct_titles *t = ct->titles;
	uint32_t *order = malloc(((size_t)ct->n + 1) * sizeof(*order));
	uint32_t *depth = malloc(((size_t)ct->n + 1) * sizeof(*depth));
	uint32_t *old = base ? malloc(((size_t)ct->n + 1) * sizeof(*old))
			     : NULL;
	uint32_t *used = calloc(t->n ? t->n : 1, sizeof(*used));
	uint32_t nused = 0;
	long n;
	int ret = -1;

	if (!order || !depth || !used || (base && !old))
		goto out;
	n = calltree_order(ct, by_total, minfrac, order, depth);
	if (n < 0)
		goto out;
	if (pos) {
		memset(pos, 0xff, (size_t)ct->n * sizeof(*pos));
		for (long i = 0; i < n; i++)
			pos[order[i]] = (uint32_t)i;
	}
	/* Only titles that are drawn go into the page, renumbered. */
	for (long i = 0; i < n; i++) {
		uint32_t ti = ct->nodes[order[i]].title;

		if (!used[ti])
			used[ti] = ++nused;
	}
	fputs("const P = {\nunit: ", out);
	json_string(out, r->o->total ? r->unit : "samples");
	fprintf(out, ",\ntotal: %llu,\nweight: %llu,\nsamples: %llu,\n",
		(unsigned long long)ct->nodes[0].total,
		(unsigned long long)r->total_weight,
		(unsigned long long)r->total_samples);
	fputs("event: ", out);
	json_string(out, r->event ? r->event->name : "");
	fprintf(out, ",\ninverted: %s,\nreverse: %s,\n",
		r->o->inverted ? "true" : "false",
		r->o->reverse ? "true" : "false");
	if (base)
		fprintf(out, "baseTotal: %llu,\n",
			(unsigned long long)base->nodes[0].total);
	fputs("names: [", out);
	{
		uint32_t *inv = malloc((nused + 1) * sizeof(*inv));

		if (!inv)
			goto out;
		for (uint32_t i = 0; i < t->n; i++)
			if (used[i])
				inv[used[i] - 1] = i;
		for (uint32_t i = 0; i < nused; i++) {
			if (i)
				putc(',', out);
			json_string(out, t->name[inv[i]]);
			if (i % 64 == 63)
				putc('\n', out);
		}
		fputs("],\nkinds: [", out);
		for (uint32_t i = 0; i < nused; i++)
			fprintf(out, "%s%u", i ? "," : "", t->kind[inv[i]]);
		free(inv);
	}
	/* Nodes: depth, title, count; the page derives positions and self. */
	fputs("],\nnodes: [", out);
	for (long i = 0; i < n; i++) {
		const struct ct_node *nd = &ct->nodes[order[i]];

		put_num(out, depth[i], ',');
		put_num(out, used[nd->title] - 1, ',');
		put_num(out, nd->total, i + 1 < n ? ',' : ']');
		if (i % 32 == 31)
			putc('\n', out);
	}
	if (!n)
		putc(']', out);
	if (base) {
		/* The baseline's count of the same path; parents come first. */
		old[0] = 0;
		for (uint32_t i = 1; i < ct->n; i++) {
			uint32_t p = old[ct->nodes[i].parent];

			old[i] =
			    p == UINT32_MAX
				? UINT32_MAX
				: calltree_find(base, p, ct->nodes[i].title);
		}
		fputs(",\nbase: [", out);
		for (long i = 0; i < n; i++) {
			uint32_t o = old[order[i]];

			put_num(out, o == UINT32_MAX ? 0 : base->nodes[o].total,
				i + 1 < n ? ',' : ']');
			if (i % 32 == 31)
				putc('\n', out);
		}
		if (!n)
			putc(']', out);
	}
	fputs("\n};\n", out);
	ret = 0;
out:
	free(order);
	free(depth);
	free(old);
	free(used);
	return ret;
}

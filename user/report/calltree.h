/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The call tree of a report: the report's stacks merged by frame title (the
 * display name together with its kind), for the flame graph, the tree view
 * and the differential view. Titles are interned in a table that two trees
 * can share, so that --diff matches frames of two files by name.
 *
 * Node 0 is the root ("all"); a node's parent always has a lower index.
 */
#ifndef PJ_USER_REPORT_CALLTREE_H
#define PJ_USER_REPORT_CALLTREE_H

#include <stdint.h>
#include <stdio.h>

#include "lib/idtable.h"
#include "report/model.h"

/* Kinds of titles, in async-profiler's palette order (see report/flame.c). */
enum ct_kind {
	CT_INTERPRETED,
	CT_JIT,
	CT_INLINED,
	CT_NATIVE,
	CT_CPP,
	CT_KERNEL,
	CT_C1,
	CT_LABEL, /* made up by the report: "all", thread roots */
};

struct ct_titles {
	char **name;
	uint8_t *kind; /* enum ct_kind */
	uint32_t n, cap;
	struct idtable index; /* (name, kind) -> title */
};

struct ct_node {
	uint32_t title, parent;
	uint64_t total, self; /* counts: samples, or weights with --total */
};

struct calltree {
	struct ct_node *nodes;
	uint32_t n, cap;
	struct idtable index; /* (parent, title) -> node, the root excepted */
	struct ct_titles *titles;
	const struct report *r;
	uint32_t *end; /* per report stack: the node its path ends at */
};

void ct_titles_init(struct ct_titles *t);
void ct_titles_free(struct ct_titles *t);
/* The index of (name, kind), added when new; UINT32_MAX when out of memory. */
uint32_t ct_title_intern(struct ct_titles *t, const char *name, uint8_t kind);
/* Builds the tree of r's stacks with titles from t. -1 when out of memory. */
int calltree_build(struct calltree *ct, const struct report *r,
		   struct ct_titles *t);
void calltree_free(struct calltree *ct);
/* The child of parent titled title, or UINT32_MAX. */
uint32_t calltree_find(const struct calltree *ct, uint32_t parent,
		       uint32_t title);
/*
 * Nodes in depth-first order, children by title (ascending) or by total
 * (descending); nodes narrower than minfrac of the root are left out with
 * their subtrees. Returns the count (order[] and depth[] filled, allocated
 * by the caller for ct->n entries each) or -1 when out of memory.
 */
long calltree_order(const struct calltree *ct, bool by_total, double minfrac,
		    uint32_t *order, uint32_t *depth);
/* Writes s as a JSON string literal that is safe inside <script>. */
void json_string(FILE *out, const char *s);
/*
 * Writes the tree as the JavaScript object the flame graph and tree pages
 * read: `const P = {...};`. base (may be NULL) is the --diff baseline's
 * tree, built with the same titles. pos (may be NULL; ct->n entries) gets
 * each node's index in P.nodes, UINT32_MAX for one left out. -1 when out
 * of memory.
 */
int calltree_write_js(FILE *out, const struct calltree *ct,
		      const struct calltree *base, bool by_total,
		      double minfrac, uint32_t *pos);

#endif

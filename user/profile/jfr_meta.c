// SPDX-License-Identifier: GPL-2.0
/*
 * A JFR chunk's metadata (profile/jfr.h): the string pool and the element
 * tree (root > metadata > class > field) read into classes and fields,
 * and what is known of each class once: whether its values take no byte
 * (then never visited: a class of 1,000 fields of such a class, nested
 * four deep, would be 10^12 visits), or only varints, keys and bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "profile/jfr.h"

#define MAX_CLASSES (1u << 20)
#define MAX_FIELDS (1u << 22)

int jfr_meta_find(const struct jfr_meta *m, const char *name)
{
	for (uint32_t i = 0; i < m->nclasses; i++)
		if (!strcmp(m->classes[i].name, name))
			return (int)i;
	return -1;
}

int jfr_field_of(const struct jfr_meta *m, uint32_t k, const char *name)
{
	const struct jfr_class *cl = &m->classes[k];

	for (uint32_t i = 0; i < cl->nfields; i++)
		if (!strcmp(m->fields[cl->first + i].name, name))
			return (int)i;
	return -1;
}

/* Parsing: fields are found under their class and sorted by it after. */
struct mparse {
	struct jfr_meta *m;
	uint32_t *owner; /* per field, its class */
	uint64_t *type; /* per field, its class id */
	size_t cap_owner, cap_type;
};

static int str_index(struct mparse *mp, struct jfr_cur *c, const char **out)
{
	const uint8_t *at = c->p;
	uint64_t i;

	if (jfr_get_varint(c, &i))
		return -1;
	if (i >= mp->m->nstrings)
		return jfr_damaged(c, at, "metadata string %llu is not defined",
				   (unsigned long long)i);
	*out = mp->m->strings[i];
	return 0;
}

static uint8_t kind_of(const char *name)
{
	static const struct {
		const char *name;
		uint8_t kind;
	} prim[] = {
		{ "boolean", JK_BYTE },
		{ "byte", JK_BYTE },
		{ "char", JK_VARINT },
		{ "short", JK_VARINT },
		{ "int", JK_VARINT },
		{ "long", JK_VARINT },
		{ "float", JK_F4 },
		{ "double", JK_F8 },
		{ "java.lang.String", JK_STRING },
	};

	for (size_t i = 0; i < sizeof(prim) / sizeof(*prim); i++)
		if (!strcmp(name, prim[i].name))
			return prim[i].kind;
	return JK_COMPOSITE;
}

static int element(struct mparse *mp, struct jfr_cur *c, unsigned int depth,
		   int64_t cls)
{
	struct jfr_meta *m = mp->m;
	const char *name, *k, *v, *a_name = "", *a_id = NULL, *a_super = NULL,
				  *a_class = NULL;
	bool cpool = false, array = false;
	const uint8_t *at = c->p;
	uint64_t n;
	int64_t mine = -1;

	if (depth >= JFR_MAX_DEPTH)
		return jfr_damaged(c, at, "metadata nested deeper than %d",
				   JFR_MAX_DEPTH);
	if (str_index(mp, c, &name) || jfr_get_count(c, &n, "attribute"))
		return -1;
	for (uint64_t i = 0; i < n; i++) {
		if (str_index(mp, c, &k) || str_index(mp, c, &v))
			return -1;
		if (!strcmp(k, "name"))
			a_name = v;
		else if (!strcmp(k, "id"))
			a_id = v;
		else if (!strcmp(k, "superType"))
			a_super = v;
		else if (!strcmp(k, "class"))
			a_class = v;
		else if (!strcmp(k, "constantPool"))
			cpool = !strcmp(v, "true");
		else if (!strcmp(k, "dimension"))
			array = strcmp(v, "0") != 0;
	}
	if (!strcmp(name, "class") && a_id) {
		struct jfr_class *cl;

		if (m->nclasses == MAX_CLASSES ||
		    GROW(m->classes, m->cap_classes, (size_t)m->nclasses + 1))
			return jfr_damaged(c, at, "too many classes");
		cl = &m->classes[m->nclasses];
		*cl = (struct jfr_class){ .id = strtoull(a_id, NULL, 10),
					  .name = a_name,
					  .super = a_super ? a_super : "",
					  .kind = kind_of(a_name) };
		if (u64map_put(&m->by_id, cl->id + 1, m->nclasses + 1))
			return jfr_damaged(c, at, "out of memory");
		mine = m->nclasses++;
	} else if (!strcmp(name, "field") && cls >= 0 && a_class) {
		uint32_t f = m->nfields;

		if (f == MAX_FIELDS ||
		    GROW(m->fields, m->cap_fields, (size_t)f + 1) ||
		    GROW(mp->owner, mp->cap_owner, (size_t)f + 1) ||
		    GROW(mp->type, mp->cap_type, (size_t)f + 1))
			return jfr_damaged(c, at, "too many fields");
		m->fields[f] = (struct jfr_field){ .name = a_name,
						   .cpool = cpool,
						   .array = array };
		mp->owner[f] = (uint32_t)cls;
		mp->type[f] = strtoull(a_class, NULL, 10);
		m->nfields++;
	}
	if (jfr_get_count(c, &n, "element"))
		return -1;
	for (uint64_t i = 0; i < n; i++)
		if (element(mp, c, depth + 1, mine))
			return -1;
	return 0;
}

/* Whether a field holds its class's values themselves: not an array, not
 * a constant pool key. */
static bool plain(const struct jfr_field *f)
{
	return !f->array && !f->cpool;
}

/*
 * The classes whose values take no byte, found once per chunk in O(classes
 * + fields): every composite is assumed empty, then a class with a field
 * that takes bytes (an array's count, a key, a primitive) is not, and
 * neither is, in turn, every class with a plain field of such a class (the
 * classes that use each class are listed first, a counting sort). What is
 * left empty holds only plain fields of empty classes, nested or circular:
 * skipped without a visit.
 */
static int find_empty(struct jfr_meta *m)
{
	uint32_t nc = m->nclasses,
		 *start = calloc((size_t)nc + 2, sizeof(uint32_t)),
		 *users = malloc(((size_t)m->nfields + 1) * sizeof(uint32_t)),
		 *queue = malloc(((size_t)nc + 1) * sizeof(uint32_t)), nq = 0;

	if (!start || !users || !queue) {
		free(start);
		free(users);
		free(queue);
		return -1;
	}
	for (uint32_t i = 0; i < nc; i++) {
		struct jfr_class *cl = &m->classes[i];

		cl->empty = cl->kind == JK_COMPOSITE;
		for (uint32_t f = 0; f < cl->nfields; f++) {
			const struct jfr_field *fd = &m->fields[cl->first + f];

			if (!plain(fd) ||
			    m->classes[fd->cls].kind != JK_COMPOSITE)
				cl->empty = false;
			else
				start[fd->cls + 2]++;
		}
	}
	for (uint32_t i = 0; i < nc; i++)
		start[i + 2] += start[i + 1];
	for (uint32_t i = 0; i < nc; i++) { /* start[x + 1]: users of x */
		const struct jfr_class *cl = &m->classes[i];

		for (uint32_t f = 0; f < cl->nfields; f++) {
			const struct jfr_field *fd = &m->fields[cl->first + f];

			if (plain(fd) &&
			    m->classes[fd->cls].kind == JK_COMPOSITE)
				users[start[fd->cls + 1]++] = i;
		}
		if (!cl->empty)
			queue[nq++] = i;
	}
	while (nq) { /* start[x] .. start[x + 1]: users of x */
		uint32_t x = queue[--nq];

		for (uint32_t j = start[x]; j < start[x + 1]; j++) {
			struct jfr_class *u = &m->classes[users[j]];

			if (u->empty) {
				u->empty = false;
				queue[nq++] = users[j];
			}
		}
	}
	for (uint32_t f = 0; f < m->nfields; f++)
		m->fields[f].empty = plain(&m->fields[f]) &&
				     m->classes[m->fields[f].cls].empty;
	free(start);
	free(users);
	free(queue);
	return 0;
}

/* Fields grouped by class in their order, their classes resolved. */
static int finish(struct mparse *mp, struct jfr_cur *c)
{
	struct jfr_meta *m = mp->m;
	struct jfr_field *sorted;
	uint32_t *at;

	sorted = malloc((m->nfields ? m->nfields : 1) * sizeof(*sorted));
	at = calloc(m->nclasses + 1, sizeof(*at));
	if (!sorted || !at) {
		free(sorted);
		free(at);
		return jfr_damaged(c, c->p, "out of memory");
	}
	for (uint32_t f = 0; f < m->nfields; f++) {
		uint32_t k;

		if (!u64map_get(&m->by_id, mp->type[f] + 1, &k)) {
			free(sorted);
			free(at);
			return jfr_damaged(c, c->p,
					   "field %s is of class %llu, which "
					   "is not defined",
					   m->fields[f].name,
					   (unsigned long long)mp->type[f]);
		}
		m->fields[f].cls = k - 1;
		m->classes[mp->owner[f]].nfields++;
	}
	for (uint32_t i = 0; i < m->nclasses; i++) {
		m->classes[i].first = at[i];
		at[i + 1] = at[i] + m->classes[i].nfields;
		m->classes[i].nfields = 0;
	}
	for (uint32_t f = 0; f < m->nfields; f++) {
		struct jfr_class *cl = &m->classes[mp->owner[f]];

		sorted[cl->first + cl->nfields++] = m->fields[f];
	}
	free(m->fields);
	m->fields = sorted;
	free(at);
	if (find_empty(m))
		return jfr_damaged(c, c->p, "out of memory");
	for (uint32_t i = 0; i < m->nclasses; i++) {
		struct jfr_class *cl = &m->classes[i];

		cl->flat = cl->kind == JK_COMPOSITE;
		for (uint32_t f = 0; f < cl->nfields && cl->flat; f++) {
			const struct jfr_field *fd = &m->fields[cl->first + f];
			uint8_t k = m->classes[fd->cls].kind;

			cl->flat = fd->empty || (!fd->array &&
						 (fd->cpool || k == JK_VARINT ||
						  k == JK_BYTE));
		}
	}
	return 0;
}

int jfr_meta_parse(struct jfr_meta *m, struct jfr_cur *c)
{
	struct mparse mp = { .m = m };
	struct jfr_str *refs = NULL;
	size_t total = 0;
	uint64_t n;
	int ret = -1;

	memset(m, 0, sizeof(*m));
	if (jfr_get_count(c, &n, "metadata string"))
		return -1;
	if (n > (1u << 24))
		return jfr_damaged(c, c->p, "%llu metadata strings",
				   (unsigned long long)n);
	refs = malloc((n ? n : 1) * sizeof(*refs));
	m->strings = malloc((n ? n : 1) * sizeof(*m->strings));
	if (!refs || !m->strings) {
		jfr_damaged(c, c->p, "out of memory");
		goto out;
	}
	for (uint64_t i = 0; i < n; i++) {
		if (jfr_get_string(c, &refs[i]))
			goto out;
		total += 3 * (size_t)refs[i].n + 1; /* UTF-8 of the worst */
	}
	m->arena = malloc(total ? total : 1);
	if (!m->arena) {
		jfr_damaged(c, c->p, "out of memory");
		goto out;
	}
	total = 0;
	for (uint64_t i = 0; i < n; i++) {
		m->strings[i] = m->arena + total;
		total += jfr_str_utf8(&refs[i], m->arena + total,
				      3 * (size_t)refs[i].n + 1) +
			 1;
	}
	m->nstrings = (uint32_t)n;
	if (element(&mp, c, 0, -1) || finish(&mp, c))
		goto out;
	ret = 0;
out:
	free(refs);
	free(mp.owner);
	free(mp.type);
	return ret;
}

void jfr_meta_free(struct jfr_meta *m)
{
	free(m->strings);
	free(m->classes);
	free(m->fields);
	free(m->arena);
	u64map_free(&m->by_id);
	memset(m, 0, sizeof(*m));
}

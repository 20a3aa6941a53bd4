// SPDX-License-Identifier: GPL-2.0
/*
 * The constant pools of a JFR chunk (profile/jfr.h): its checkpoint events
 * read into tables by key (strings, symbols, classes, methods, threads,
 * stack traces, frame types, thread states), each entry keeping the few
 * values of its class's fields that the reader needs, found by name in the
 * chunk's metadata; texts made from them on demand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "profile/jfr.h"

static const char *const pool_class[JFR_P_N] = {
	"java.lang.String",    "jdk.types.Symbol",	"java.lang.Class",
	"jdk.types.Method",    "java.lang.Thread",	"jdk.types.StackTrace",
	"jdk.types.FrameType", "jdk.types.ThreadState",
};

/* The fields each pool keeps, by name (at most 4). */
static const char *const pool_fields[JFR_P_N][4] = {
	[JFR_P_SYMBOL] = { "string" },
	[JFR_P_CLASS] = { "name" },
	[JFR_P_METHOD] = { "type", "name", "descriptor" },
	[JFR_P_THREAD] = { "osName", "osThreadId", "javaName", "javaThreadId" },
	[JFR_P_STACK] = { "frames" },
	[JFR_P_FTYPE] = { "description" },
	[JFR_P_STATE] = { "name" },
};

/* A pool: nv values an entry (the fields it keeps), entries by key. */
struct pool {
	struct jfr_val *v;
	uint32_t n, nv;
	size_t cap;
	struct u64map by_key; /* key + 1 -> index + 1 */
};

struct jfr_cp {
	const struct jfr_meta *m;
	int cls[JFR_P_N]; /* class index of each pool, -1 absent */
	int field[JFR_P_N][4];
	struct pool pools[JFR_P_N];
};

struct jfr_cp *jfr_cp_new(const struct jfr_meta *m)
{
	struct jfr_cp *cp = calloc(1, sizeof(*cp));

	if (!cp)
		return NULL;
	cp->m = m;
	for (int p = 0; p < JFR_P_N; p++) {
		cp->cls[p] = jfr_meta_find(m, pool_class[p]);
		cp->pools[p].nv = 1;
		for (int i = 0; i < 4; i++) {
			cp->field[p][i] =
			    cp->cls[p] >= 0 && pool_fields[p][i]
				? jfr_field_of(m, (uint32_t)cp->cls[p],
					       pool_fields[p][i])
				: -1;
			if (pool_fields[p][i])
				cp->pools[p].nv = (uint32_t)i + 1;
		}
	}
	return cp;
}

void jfr_cp_free(struct jfr_cp *cp)
{
	if (!cp)
		return;
	for (int p = 0; p < JFR_P_N; p++) {
		free(cp->pools[p].v);
		u64map_free(&cp->pools[p].by_key);
	}
	free(cp);
}

/* One value of field f into v: numbers and keys, strings, where an array
 * starts and its bytes; anything else is skipped. */
static int read_value(const struct jfr_meta *m, struct jfr_cur *c,
		      const struct jfr_field *f, struct jfr_val *v)
{
	const struct jfr_class *cl = &m->classes[f->cls];
	struct jfr_str s;

	v->set = true;
	v->p = c->p;
	if (f->array) {
		size_t len;

		if (jfr_skip(m, c, f, 1))
			return -1;
		len = (size_t)(c->p - v->p);
		v->n = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
		return 0;
	}
	if (f->cpool || cl->kind == JK_VARINT)
		return jfr_get_varint(c, &v->u);
	if (cl->kind == JK_STRING) {
		if (jfr_get_string(c, &s))
			return -1;
		*v = (struct jfr_val){ .p = s.p,
				       .u = s.key,
				       .n = s.n,
				       .enc = s.enc,
				       .set = true };
		return 0;
	}
	if (cl->kind == JK_BYTE && c->p < c->end) {
		v->u = *c->p++;
		return 0;
	}
	return jfr_skip(m, c, f, 1);
}

int jfr_read_fields(const struct jfr_meta *m, struct jfr_cur *c, uint32_t k,
		    const int *want, struct jfr_val *out, uint32_t nv)
{
	const struct jfr_class *cl = &m->classes[k];

	memset(out, 0, nv * sizeof(*out));
	if (cl->kind != JK_COMPOSITE) { /* a pool of plain strings */
		struct jfr_field f = { .cls = k };

		return read_value(m, c, &f, &out[0]);
	}
	for (uint32_t i = 0; i < cl->nfields; i++) {
		const struct jfr_field *f = &m->fields[cl->first + i];
		uint32_t j = 0;

		while (j < nv && want[j] != (int)i)
			j++;
		if (j < nv ? read_value(m, c, f, &out[j])
			   : jfr_skip(m, c, f, 1))
			return -1;
	}
	return 0;
}

static int read_pool(struct jfr_cp *cp, struct jfr_cur *c, int p, uint32_t k)
{
	static const int all[4] = { 0, -1, -1, -1 };
	struct pool *pl = p >= 0 ? &cp->pools[p] : NULL;
	const uint8_t *at = c->p;
	uint64_t n, key;
	struct jfr_val e[4];

	if (jfr_get_varint(c, &n))
		return -1;
	if (n > (uint64_t)(c->end - c->p))
		return jfr_damaged(c, at,
				   "constant pool of %llu entries is "
				   "larger than its event",
				   (unsigned long long)n);
	for (uint64_t i = 0; i < n; i++) {
		uint32_t idx;

		if (jfr_get_varint(c, &key))
			return -1;
		if (!pl) {
			if (jfr_skip_class(cp->m, c, k, 1))
				return -1;
			continue;
		}
		if (jfr_read_fields(cp->m, c, k,
				    cp->m->classes[k].kind == JK_COMPOSITE
					? cp->field[p]
					: all,
				    e, pl->nv))
			return -1;
		if (key == UINT64_MAX)
			continue;
		if (u64map_get(&pl->by_key, key + 1, &idx)) {
			/* a later definition wins */
			memcpy(pl->v + (size_t)(idx - 1) * pl->nv, e,
			       pl->nv * sizeof(*e));
			continue;
		}
		if (pl->n == UINT32_MAX - 1 ||
		    GROW(pl->v, pl->cap, ((size_t)pl->n + 1) * pl->nv) ||
		    u64map_put(&pl->by_key, key + 1, pl->n + 1))
			return jfr_damaged(c, at, "out of memory");
		memcpy(pl->v + (size_t)pl->n++ * pl->nv, e,
		       pl->nv * sizeof(*e));
	}
	return 0;
}

int jfr_cp_read(struct jfr_cp *cp, struct jfr_cur *c)
{
	uint64_t v, npools;
	const uint8_t *at;

	/* start, duration, delta to the previous checkpoint */
	for (int i = 0; i < 3; i++)
		if (jfr_get_varint(c, &v))
			return -1;
	if (c->p >= c->end)
		return jfr_damaged(c, c->p, "checkpoint runs past its event");
	c->p++; /* flush / type flags */
	at = c->p;
	if (jfr_get_varint(c, &npools))
		return -1;
	if (npools > (uint64_t)(c->end - c->p))
		return jfr_damaged(c, at, "%llu constant pools in one event",
				   (unsigned long long)npools);
	for (uint64_t i = 0; i < npools; i++) {
		uint32_t k;
		int p = -1;

		at = c->p;
		if (jfr_get_varint(c, &v))
			return -1;
		if (v == UINT64_MAX || !u64map_get(&cp->m->by_id, v + 1, &k))
			return jfr_damaged(c, at,
					   "constant pool of class %llu, which "
					   "is not defined",
					   (unsigned long long)v);
		for (int q = 0; q < JFR_P_N; q++)
			if (cp->cls[q] == (int)(k - 1))
				p = q;
		if (read_pool(cp, c, p, k - 1))
			return -1;
	}
	return 0;
}

const struct jfr_val *jfr_cp_get(const struct jfr_cp *cp, enum jfr_pool pool,
				 uint64_t key)
{
	const struct pool *pl = &cp->pools[pool];
	uint32_t i;

	if (key == UINT64_MAX || !u64map_get(&pl->by_key, key + 1, &i))
		return NULL;
	return pl->v + (size_t)(i - 1) * pl->nv;
}

uint32_t jfr_cp_count(const struct jfr_cp *cp, enum jfr_pool pool)
{
	return cp->pools[pool].n;
}

static struct jfr_str str_of(const struct jfr_val *v)
{
	return (
	    struct jfr_str){ .enc = v->enc, .n = v->n, .p = v->p, .key = v->u };
}

/* The text of a string value in buf (a pool key looked up once). */
const char *jfr_cp_text(const struct jfr_cp *cp, const struct jfr_str *s,
			char *buf, size_t cap)
{
	struct jfr_str pooled;
	const struct jfr_val *v;

	if (s->enc == JFR_S_POOL) {
		v = jfr_cp_get(cp, JFR_P_STRING, s->key);
		if (!v || v->enc == JFR_S_POOL) {
			*buf = 0;
			return buf;
		}
		pooled = str_of(v);
		s = &pooled;
	}
	jfr_str_utf8(s, buf, cap);
	return buf;
}

const char *jfr_cp_val_text(const struct jfr_cp *cp, const struct jfr_val *v,
			    char *buf, size_t cap)
{
	struct jfr_str s = str_of(v);

	return jfr_cp_text(cp, &s, buf, cap);
}

const char *jfr_cp_symbol(const struct jfr_cp *cp, uint64_t key, char *buf,
			  size_t cap)
{
	const struct jfr_val *v = jfr_cp_get(cp, JFR_P_SYMBOL, key);

	*buf = 0;
	return v ? jfr_cp_val_text(cp, v, buf, cap) : buf;
}

bool jfr_cp_thread(const struct jfr_cp *cp, uint64_t key, uint32_t *tid,
		   char *buf, size_t cap)
{
	const struct jfr_val *v = jfr_cp_get(cp, JFR_P_THREAD, key);

	if (!v)
		return false;
	*tid = (uint32_t)(v[1].u ? v[1].u : v[3].u ? v[3].u : key);
	jfr_cp_val_text(cp, v[2].enc > JFR_S_EMPTY ? &v[2] : &v[0], buf, cap);
	return true;
}

size_t jfr_cp_class(const struct jfr_cp *cp, uint64_t key, char *buf,
		    size_t cap)
{
	const struct jfr_val *v = jfr_cp_get(cp, JFR_P_CLASS, key);
	size_t n;

	*buf = 0;
	if (!v)
		return 0;
	jfr_cp_symbol(cp, v[0].u, buf, cap);
	n = strlen(buf);
	for (size_t i = 0; i < n; i++)
		if (buf[i] == '/')
			buf[i] = '.';
	return n;
}

// SPDX-License-Identifier: GPL-2.0
/* Lists of ids as perf takes them: -p, -t, -C; see record/idlist.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/file.h"
#include "lib/grow.h"
#include "record/idlist.h"

/* One number of a list at *s, below max; *s moves past it. */
static int number(const char **s, long max, long *v)
{
	char *end;

	if (**s < '0' || **s > '9')
		return -1;
	errno = 0;
	*v = strtol(*s, &end, 10);
	if (errno || *v > max)
		return -1;
	*s = end;
	return 0;
}

static int add(struct idlist *l, long v)
{
	for (unsigned int i = 0; i < l->n; i++)
		if (l->v[i] == (int)v)
			return 0; /* given twice: once */
	if (l->n == IDLIST_MAX || GROW(l->v, l->cap, l->n + 1))
		return -1;
	l->v[l->n++] = (int)v;
	return 0;
}

int idlist_add(struct idlist *l, const char *arg, bool ranges, long max)
{
	const char *s = arg;

	do {
		long a, b;

		if (number(&s, max, &a) || (!ranges && !a))
			return -1;
		b = a;
		if (ranges && *s == '-') {
			s++;
			if (number(&s, max, &b) || b < a)
				return -1;
		}
		if (*s && *s != ',')
			return -1;
		for (long v = a; v <= b; v++)
			if (add(l, v))
				return -1;
		if (*s == ',' && !s[1])
			return -1;
		s += *s == ',';
	} while (*s);
	return 0;
}

bool idlist_has(const struct idlist *l, int v)
{
	for (unsigned int i = 0; i < l->n; i++)
		if (l->v[i] == v)
			return true;
	return false;
}

int idlist_online_cpus(struct idlist *l)
{
	char buf[4096];

	l->n = 0;
	if (read_small_file("/sys/devices/system/cpu/online", buf, sizeof(buf)))
		return -1;
	return idlist_add(l, buf, true, IDLIST_MAX - 1);
}

void idlist_free(struct idlist *l)
{
	free(l->v);
	*l = (struct idlist){ 0 };
}

void idlist_print(const struct idlist *l, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (unsigned int i = 0; i < l->n && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%d", i ? "," : "",
				      l->v[i]);
}

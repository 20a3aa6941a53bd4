/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lists of ids as perf takes them: processes (-p 10,11), threads (-t 12)
 * and CPUs (-C 0-3,6: ranges too). An id given twice counts once; a list
 * holds at most IDLIST_MAX. An all-zero struct is the empty list.
 */
#ifndef PJ_USER_RECORD_IDLIST_H
#define PJ_USER_RECORD_IDLIST_H

#include <stdbool.h>
#include <stddef.h>

#define IDLIST_MAX 4096

struct idlist {
	int *v;
	unsigned int n, cap;
};

/* Adds the comma-separated ids of arg (with ranges "a-b" when ranges),
 * each at most max (0 only with ranges: a CPU). 0, or -1 for a list
 * that is not one, or too long. */
int idlist_add(struct idlist *l, const char *arg, bool ranges, long max);
bool idlist_has(const struct idlist *l, int v);
/* The CPUs online now (/sys/devices/system/cpu/online); -1 when unknown. */
int idlist_online_cpus(struct idlist *l);
/* "10,11,12" into buf (cut to len). */
void idlist_print(const struct idlist *l, char *buf, size_t len);
void idlist_free(struct idlist *l);

#endif

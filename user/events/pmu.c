// SPDX-License-Identifier: GPL-2.0
/* PMUs from sysfs: types, format files and named events; see events/pmu.h. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "events/pmu.h"

#define PMU_DIR "bus/event_source/devices"
#define ALIAS_DEPTH 4 /* events/ entries naming other entries */

const char *pj_sysfs_root(void)
{
	const char *r = getenv("PJ_SYSFS_ROOT");

	return r && *r ? r : "/sys";
}

bool pj_sysfs_is_real(void)
{
	return !strcmp(pj_sysfs_root(), "/sys");
}

static bool valid_name(const char *s)
{
	if (!*s || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	return strchr(s, '/') == NULL;
}

int pmu_read(const char *pmu, const char *rel, char *buf, size_t len)
{
	char path[1024];
	FILE *f;
	size_t n;

	buf[0] = 0;
	if (!valid_name(pmu)) {
		errno = ENOENT;
		return -1;
	}
	snprintf(path, sizeof(path), "%s/" PMU_DIR "/%s/%s", pj_sysfs_root(),
		 pmu, rel);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f))
		buf[0] = 0;
	fclose(f);
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return 0;
}

int pmu_type(const char *pmu, uint32_t *type)
{
	char buf[32], *end;
	unsigned long v;

	if (pmu_read(pmu, "type", buf, sizeof(buf)))
		return -1;
	errno = 0;
	v = strtoul(buf, &end, 0);
	if (errno || end == buf || v > UINT32_MAX)
		return -1;
	*type = (uint32_t)v;
	return 0;
}

bool pmu_have_cpu(void)
{
	uint32_t t;

	return !pmu_type("cpu", &t) || !pmu_type("cpu_core", &t) ||
	       !pmu_type("cpu_atom", &t);
}

void pmu_names(char *buf, size_t len)
{
	char path[1024];
	struct dirent **d = NULL;
	size_t at = 0;
	int n;

	buf[0] = 0;
	snprintf(path, sizeof(path), "%s/" PMU_DIR, pj_sysfs_root());
	n = scandir(path, &d, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		int w = 0;

		if (d[i]->d_name[0] != '.' && at < len)
			w = snprintf(buf + at, len - at, "%s%s", at ? " " : "",
				     d[i]->d_name);
		if (w > 0)
			at += (size_t)w;
		free(d[i]);
	}
	if (n >= 0)
		free(d);
	if (at >= len && len)
		buf[len - 1] = 0;
}

static uint64_t *config_field(struct perf_event_attr *attr, const char *f)
{
	if (!strcmp(f, "config"))
		return (uint64_t *)&attr->config;
	if (!strcmp(f, "config1"))
		return (uint64_t *)&attr->config1;
	if (!strcmp(f, "config2"))
		return (uint64_t *)&attr->config2;
#ifdef PERF_ATTR_SIZE_VER8
	if (!strcmp(f, "config3"))
		return (uint64_t *)&attr->config3;
#endif
	return NULL;
}

/* "config1:0-7,32-35" -> field and bit mask. 0, or -1 when malformed. */
static int parse_format(const char *fmt, char *field, size_t flen,
			uint64_t *mask)
{
	const char *colon = strchr(fmt, ':');
	const char *p;

	*mask = 0;
	if (!colon || (size_t)(colon - fmt) >= flen)
		return -1;
	memcpy(field, fmt, (size_t)(colon - fmt));
	field[colon - fmt] = 0;
	for (p = colon + 1; *p;) {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;

		if (end == p)
			return -1;
		p = end;
		if (*p == '-') {
			hi = strtoul(p + 1, &end, 10);
			if (end == p + 1)
				return -1;
			p = end;
		}
		if (lo > hi || hi > 63)
			return -1;
		for (unsigned long b = lo; b <= hi; b++)
			*mask |= 1ULL << b;
		if (*p == ',')
			p++;
		else if (*p)
			return -1;
	}
	return *mask ? 0 : -1;
}

/* Spreads the low bits of v over the set bits of mask, lowest first. */
static int place_bits(uint64_t v, uint64_t mask, uint64_t *out)
{
	uint64_t placed = 0;

	for (int b = 0; b < 64; b++) {
		if (!(mask & (1ULL << b)))
			continue;
		if (v & 1)
			placed |= 1ULL << b;
		v >>= 1;
	}
	*out = placed;
	return v ? -1 : 0;
}

static int apply_alias(const char *pmu, const char *name,
		       struct perf_event_attr *attr, int depth, char *err,
		       size_t errlen);

static int apply_term(const char *pmu, const char *name, const char *value,
		      struct perf_event_attr *attr, int depth, char *err,
		      size_t errlen)
{
	char rel[300], fmt[256], field[16];
	uint64_t mask, v = 1, placed, *dst;
	char *end;

	if (!valid_name(name)) {
		snprintf(err, errlen, "bad term '%s' for PMU %s", name, pmu);
		return -1;
	}
	snprintf(rel, sizeof(rel), "format/%s", name);
	if (pmu_read(pmu, rel, fmt, sizeof(fmt))) {
		if (!value)
			return apply_alias(pmu, name, attr, depth, err, errlen);
		snprintf(
		    err, errlen,
		    "PMU %s has no format term '%s' (its terms are in %s/" PMU_DIR
		    "/%s/format)",
		    pmu, name, pj_sysfs_root(), pmu);
		return -1;
	}
	if (parse_format(fmt, field, sizeof(field), &mask) ||
	    !(dst = config_field(attr, field))) {
		snprintf(err, errlen, "cannot use format '%s' of %s/%s", fmt,
			 pmu, name);
		return -1;
	}
	if (value) {
		errno = 0;
		v = strtoull(value, &end, 0);
		if (errno || end == value || *end || value[0] == '-') {
			snprintf(err, errlen, "bad value '%s' for %s/%s/",
				 value, pmu, name);
			return -1;
		}
	}
	if (place_bits(v, mask, &placed)) {
		snprintf(err, errlen,
			 "value %s too big for %s/%s/ (%d bits: %s)",
			 value ? value : "1", pmu, name,
			 __builtin_popcountll(mask), fmt);
		return -1;
	}
	*dst = (*dst & ~mask) | placed;
	return 0;
}

/* Applies "event=0x3c,umask=0x1" of events/<name>. */
static int apply_alias(const char *pmu, const char *name,
		       struct perf_event_attr *attr, int depth, char *err,
		       size_t errlen)
{
	char rel[300], terms[1024], *save = NULL, *t;

	snprintf(rel, sizeof(rel), "events/%s", name);
	if (depth >= ALIAS_DEPTH || pmu_read(pmu, rel, terms, sizeof(terms))) {
		snprintf(err, errlen,
			 "PMU %s has no event or term '%s'; see perfjava list",
			 pmu, name);
		return -1;
	}
	for (t = strtok_r(terms, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');

		while (*t == ' ')
			t++;
		if (eq)
			*eq++ = 0;
		if (eq && !strcmp(eq, "?")) {
			snprintf(err, errlen, "%s/%s/ needs %s=VALUE", pmu,
				 name, t);
			return -1;
		}
		if (apply_term(pmu, t, eq, attr, depth + 1, err, errlen))
			return -1;
	}
	return 0;
}

int pmu_apply_term(const char *pmu, const char *name, const char *value,
		   struct perf_event_attr *attr, char *err, size_t errlen)
{
	return apply_term(pmu, name, value, attr, 0, err, errlen);
}

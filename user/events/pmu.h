/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Performance monitoring units as sysfs describes them:
 * <sysfs>/bus/event_source/devices/<pmu>/type      the attr.type to use
 * <sysfs>/bus/event_source/devices/<pmu>/format/F  "config:0-7,21": where the
 *                                                  bits of term F go
 * <sysfs>/bus/event_source/devices/<pmu>/events/E  "event=0x3c,umask=0x1":
 *                                                  a named event's terms
 * The sysfs root is $PJ_SYSFS_ROOT when set (tests), else /sys.
 */
#ifndef PJ_USER_PMU_H
#define PJ_USER_PMU_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The sysfs root: $PJ_SYSFS_ROOT or "/sys". */
const char *pj_sysfs_root(void);
/* True when sysfs is the real one (tracefs may be mounted under it). */
bool pj_sysfs_is_real(void);
/* 0 and the PMU's type, or -1 when <pmu> does not exist. */
int pmu_type(const char *pmu, uint32_t *type);
/* True when the machine has a CPU PMU (cpu, cpu_core or cpu_atom). */
bool pmu_have_cpu(void);
/* The names of every PMU, space-separated, into buf ("" when none). */
void pmu_names(char *buf, size_t len);
/*
 * Applies one term "NAME=VALUE" (or "NAME" alone, meaning 1) of pmu to attr
 * through pmu's format/NAME file; a NAME that is no format but one of pmu's
 * events/ applies that event's terms. 0, or -1 with a reason in err.
 */
int pmu_apply_term(const char *pmu, const char *name, const char *value,
		   struct perf_event_attr *attr, char *err, size_t errlen);
/*
 * Reads the first line of <sysfs>/bus/event_source/devices/<pmu>/<rel> into
 * buf. 0, or -1 (errno set) when it cannot be read.
 */
int pmu_read(const char *pmu, const char *rel, char *buf, size_t len);

#endif

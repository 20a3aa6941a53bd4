/* SPDX-License-Identifier: GPL-2.0 */
/* Minimal TAP output for the unit tests: ok(), skip(), tap_done(). */
#ifndef PJ_SELFTEST_TAP_H
#define PJ_SELFTEST_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_n, tap_failed;

static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
		tap_failed++;
	fflush(stdout);
	return cond;
}
#define ok(cond, ...) tap_ok(!!(cond), __VA_ARGS__)

static inline void skip(const char *what, const char *why)
{
	printf("ok %d - %s # SKIP %s\n", ++tap_n, what, why);
	fflush(stdout);
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * HotSpot's performance data (hsperfdata): the shared memory every HotSpot
 * JVM keeps at /tmp/hsperfdata_<user>/<pid> unless -XX:-UsePerfData. Its
 * string counters hold the JVM's real arguments (java.rt.vmArgs, after the
 * launcher expanded @argfiles and JDK_JAVA_OPTIONS; java.rt.vmFlags, from
 * -XX:Flags=). The image is the target's: every offset is checked.
 */
#ifndef PJ_USER_PERFDATA_H
#define PJ_USER_PERFDATA_H

#include <stddef.h>

/* Largest image read (HotSpot's default is 64 KiB). */
#define PERFDATA_MAX (4u << 20)

/*
 * Copies the string counter name of the image img[0..len) into out (at most
 * outlen - 1 bytes, NUL-terminated). 0, or -1 when the image is not perf
 * data or has no such string.
 */
int perfdata_string(const void *img, size_t len, const char *name, char *out,
		    size_t outlen);

#endif

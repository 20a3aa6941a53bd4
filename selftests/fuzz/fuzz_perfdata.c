// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: a HotSpot perf-data image (jvm/perfdata.c) as the
 * target's hsperfdata file could hold it. */
#include <stdint.h>
#include <string.h>

#include "jvm/perfdata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char out[256];

	if (!perfdata_string(data, size, "java.rt.vmArgs", out, sizeof(out)))
		return strlen(out) >= sizeof(out);
	return 0;
}

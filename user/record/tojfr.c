// SPDX-License-Identifier: GPL-2.0
/* `record -o FILE.jfr` (record/tojfr.h): recorded as perfjava's file, then
 * written as JFR by the writer main.c hands to cmd_record. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "record/tojfr.h"

bool tojfr_wanted(const char *output)
{
	size_t n = output ? strlen(output) : 0;

	return n > 4 && !strcasecmp(output + n - 4, ".jfr");
}

const char *tojfr_data_path(const char *jfr, char *buf, size_t len)
{
	snprintf(buf, len, "%s.data", jfr);
	return buf;
}

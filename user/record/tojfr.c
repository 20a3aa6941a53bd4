// SPDX-License-Identifier: GPL-2.0
/* `record -o FILE.jfr` (record/tojfr.h): recorded as perfjava's file, then
 * written as JFR by `perfjava report` itself. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "lib/outfile.h"
#include "record/tojfr.h"
#include "report/report.h"

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

int tojfr_convert(const char *data, const char *jfr, bool quiet)
{
	char *argv[] = { "report",     "--format", "jfr",	"-i",
			 (char *)data, "-o",	   (char *)jfr, NULL };

	if (cmd_report(7, argv)) {
		fprintf(stderr,
			"perfjava: the recording is kept in %s; convert it "
			"with: perfjava report -i %s -o %s\n",
			data, data, jfr);
		return 1;
	}
	if (outfile_remove(data))
		fprintf(stderr, "perfjava: wrote %s; could not remove %s\n",
			jfr, data);
	else if (!quiet)
		fprintf(stderr, "perfjava: wrote %s (JFR)\n", jfr);
	return 0;
}

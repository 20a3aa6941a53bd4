// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: JDK Flight Recorder files read as profiles
 * (profile/jfr_*.c through pj_profile_load, a memfd for a path), then
 * what a report asks of the result (selftests/fuzz/jfr_check.h). The
 * corpus: small files of perfjava's and async-profiler's. Its neighbour
 * fuzz_jfr_struct.c builds files that follow the format's structure. */
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "jfr_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;

	if (fd < 0)
		fd = memfd_create("fuzz-jfr", 0);
	if (fd < 0 || ftruncate(fd, 0) ||
	    pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	jfr_check_file(fd);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: the profile file reader (profile/read.c, decode.c) on any
 * file (through a memfd: the reader takes a path), then what a report asks
 * of the result. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "profile/io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	struct pj_profile *p;
	char path[64], err[256];
	size_t i, sum = 0;

	if (fd < 0)
		fd = memfd_create("fuzz-profile", 0);
	if (fd < 0 || ftruncate(fd, 0) ||
	    pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (pj_profile_load(path, &p, err, sizeof(err)))
		return 0;
	/* what a file says reaches a terminal only made safe */
	for (i = 0; i < p->nstrings; i++)
		for (const char *c = p->strings[i]; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				abort();
	for (i = 0; i < p->nframes; i++)
		sum += strlen(pj_str(p, p->frames[i].name));
	for (i = 0; i < p->nthreads; i++)
		sum += strlen(pj_profile_thread_name(p, p->threads[i].pid,
						     p->threads[i].tid));
	for (i = 0; i < p->nprocs; i++) {
		const struct pj_process *pr =
		    pj_profile_process(p, p->procs[i].pid);

		sum += strlen(pj_str(p, pr->comm)) +
		       strlen(pj_str(p, pr->cmdline)) +
		       strlen(pj_str(p, pr->container));
	}
	for (i = 0; i < p->nstacks; i++)
		sum += p->stack_start[i + 1] - p->stack_start[i];
	sum += strlen(pj_profile_meta(p, "cmdline") ?: "");
	pj_profile_free(p);
	return sum == (size_t)-1;
}

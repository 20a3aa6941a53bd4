// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: JDK Flight Recorder files read as profiles
 * (profile/jfr_*.c through pj_profile_load, a memfd for a path), then
 * what a report asks of the result: every id in range, every string safe
 * for a terminal. The corpus: small files of perfjava's and async-
 * profiler's. */
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
		fd = memfd_create("fuzz-jfr", 0);
	if (fd < 0 || ftruncate(fd, 0) ||
	    pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (pj_profile_load(path, &p, err, sizeof(err))) {
		if (strchr(err, '\n'))
			abort(); /* one line */
		return 0;
	}
	for (i = 0; i < p->nstrings; i++)
		for (const char *c = p->strings[i]; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				abort();
	for (i = 0; i < p->nframes; i++)
		if (p->frames[i].name >= p->nstrings ||
		    p->frames[i].module >= p->nstrings ||
		    p->frames[i].type >= PJ_FRAME_TYPE_MAX)
			abort();
	for (i = 0; i < p->nstacks; i++) {
		if (p->stack_start[i + 1] < p->stack_start[i])
			abort();
		for (uint32_t j = p->stack_start[i]; j < p->stack_start[i + 1];
		     j++)
			if (p->stack_frames[j] >= p->nframes)
				abort();
	}
	for (i = 0; i < p->nsamples; i++) {
		const struct pj_sample *s = &p->samples[i];
		uint32_t e = 0;

		while (e < p->nevents && p->events[e].index != s->event)
			e++;
		if (s->stack >= p->nstacks || s->info >= p->nstrings ||
		    e == p->nevents)
			abort();
	}
	for (i = 0; i < p->nthreads; i++)
		sum += strlen(pj_profile_thread_name(p, p->threads[i].pid,
						     p->threads[i].tid));
	sum += strlen(pj_profile_meta(p, "cmdline") ?: "");
	pj_profile_free(p);
	return sum == (size_t)-1;
}

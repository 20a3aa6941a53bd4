// SPDX-License-Identifier: GPL-2.0
/* -g lbr: branch-stack call stacks; see events/lbr.h. */
#include <stdbool.h>
#include <stdio.h>

#include "events/lbr.h"
#include "events/pmu.h"

static bool user_addr(uint64_t a)
{
	return a && a < 0x0000800000000000ULL;
}

int lbr_check(const struct pj_event *evs, unsigned int n, char *err,
	      size_t errlen)
{
	const char *cpu = NULL;
	char caps[32];
	uint32_t t;

	if (!pmu_type("cpu", &t))
		cpu = "cpu";
	else if (!pmu_type("cpu_core", &t))
		cpu = "cpu_core";
	if (!cpu) {
		snprintf(err, errlen,
			 "-g lbr needs the CPU's last branch records, and this "
			 "machine has no hardware PMU (virtual machine?); use "
			 "-g fp");
		return -1;
	}
	if (pmu_read(cpu, "caps/branches", caps, sizeof(caps)) || !*caps ||
	    caps[0] == '0') {
		snprintf(err, errlen,
			 "-g lbr: this CPU records no branch stacks (no "
			 "%s/caps/branches in sysfs); use -g fp",
			 cpu);
		return -1;
	}
	for (unsigned int i = 0; i < n; i++)
		if (!evs[i].hardware) {
			snprintf(err, errlen,
				 "-g lbr works with hardware events only, not "
				 "%s (%s); use -e cycles, or -g fp",
				 evs[i].name, events_kind_name(evs[i].kind));
			return -1;
		}
	return 0;
}

unsigned int lbr_user_frames(uint64_t ip, const struct perf_branch_entry *br,
			     uint64_t nbr, uint64_t *out, unsigned int max)
{
	unsigned int n = 0;

	if (!max)
		return 0;
	if (user_addr(ip))
		out[n++] = ip;
	else if (nbr && user_addr(br[0].to))
		out[n++] = br[0].to;
	for (uint64_t i = 0; i < nbr && n < max; i++) {
		if (!user_addr(br[i].from))
			break; /* the bottom of the recorded stack */
		out[n++] = br[i].from;
	}
	return n;
}

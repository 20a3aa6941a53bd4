// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: a ring record as the kernel would write it, parsed with
 * every field perfjava asks for (rings/perf_parse.c), its user registers
 * and stack copy then given to the default mode's join (unwind/join.c).
 * The first 8 bytes choose the sample_type; the rest is the record. */
#include <stdint.h>
#include <string.h>

#include "rings/perf_parse.h"
#include "unwind/unwind.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint64_t rec[65536 / 8 + 1];
	const uint64_t want =
	    PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
	    PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
	    PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |
	    PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	struct perf_event_header *h = (void *)rec;
	struct pj_raw_sample s;
	uint64_t st, out[64], dips[8] = { 0 }, dsps[8] = { 0 };
	unsigned int i, nf;

	if (size < 8 + sizeof(*h) || size - 8 > sizeof(rec) ||
	    size - 8 > UINT16_MAX)
		return 0;
	memcpy(&st, data, 8);
	memcpy(rec, data + 8, size - 8);
	h->size = (uint16_t)(size - 8);
	if (sample_parse_regs(h, st & want, 0, UNWIND_REGS_MASK, &s))
		return 0;
	if (s.nregs > 17 || s.nread > 16 || (s.stack_size && !s.stack))
		__builtin_trap();
	nf = s.nr < 64 ? (unsigned int)s.nr : 64;
	for (i = 0; i < 8 && i < s.nregs; i++) {
		memcpy(&dips[i], &s.regs[i], 8);
		dsps[i] = dips[i] ^ 0x1000;
	}
	unwind_join(dips, dsps, 8, UNWIND_CUT, s.ips, nf,
		    s.nregs > 6 ? dips[6] : 0, s.stack, dsps[0], s.stack_size,
		    st & 1, out, 64);
	return 0;
}

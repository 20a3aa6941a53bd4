/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parsing perf ring records: PERF_RECORD_SAMPLE bodies for any sample_type,
 * the sample_id trailer of other records, and callchains with their
 * PERF_CONTEXT_* markers. Pure functions over bytes, every read bounds-checked.
 */
#ifndef PJ_USER_SAMPLE_H
#define PJ_USER_SAMPLE_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>

struct pj_raw_sample {
	uint64_t id; /* IDENTIFIER or ID */
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t stream_id;
	uint32_t cpu;
	uint64_t period;
	/* PERF_SAMPLE_READ, which perfjava asks only with PERF_FORMAT_GROUP
	 * alone: the group's first values (the clock event's, the switch
	 * counter's) */
	uint64_t read[2];
	unsigned int nread;
	uint64_t nr; /* callchain entries, markers included */
	const uint64_t *ips;
	uint32_t raw_size;
	const void *raw;
	uint64_t nbranch;
	const struct perf_branch_entry *branches;
	uint64_t regs_abi; /* PERF_SAMPLE_REGS_ABI_*; 0: no user registers */
	const uint64_t *regs; /* one per bit of the mask, lowest bit first */
	unsigned int nregs;
	uint64_t stack_size; /* bytes copied from the user stack (dyn_size) */
	const uint8_t *stack; /* from the sampled stack pointer up */
};

/*
 * Parses a PERF_RECORD_SAMPLE (hdr included) written with sample_type and
 * branch_sample_type. Returns 0, or -1 when the record is shorter than its
 * fields say. Pointers point into the record.
 */
int sample_parse(const struct perf_event_header *hdr, uint64_t sample_type,
		 uint64_t branch_sample_type, struct pj_raw_sample *s);
/* The same for events with PERF_SAMPLE_REGS_USER (regs_mask is the event's
 * sample_regs_user) and PERF_SAMPLE_STACK_USER. regs and stack are not
 * aligned: read them with memcpy. */
int sample_parse_regs(const struct perf_event_header *hdr, uint64_t sample_type,
		      uint64_t branch_sample_type, uint64_t regs_mask,
		      struct pj_raw_sample *s);

enum callchain_ctx {
	CC_NONE = 0,
	CC_KERNEL,
	CC_USER,
	CC_HV,
	CC_GUEST_KERNEL,
	CC_GUEST_USER,
};

struct callchain_iter {
	const uint64_t *ips;
	uint64_t nr, i;
	enum callchain_ctx ctx;
};

void callchain_iter_init(struct callchain_iter *it, const uint64_t *ips,
			 uint64_t nr);
/* Next address (markers consumed); false at the end. */
bool callchain_next(struct callchain_iter *it, uint64_t *ip,
		    enum callchain_ctx *ctx);
/* What a PERF_CONTEXT_* marker value means; CC_NONE for an address. */
enum callchain_ctx callchain_marker(uint64_t v);

#endif

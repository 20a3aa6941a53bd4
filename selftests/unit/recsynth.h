/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test helper: a recorder fed with synthesized ring records. The records go
 * through the real hot path (record_on_record: sample_parse, the event index
 * of the sample id, tracepoint decoding, LBR frames, merge_stack, the
 * writer) into a profile file that the test then loads or reports on.
 */
#ifndef PJ_SELFTEST_RECSYNTH_H
#define PJ_SELFTEST_RECSYNTH_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "events/tracepoint.h"
#include "profile/io.h"
#include "record/hotpath.h"
#include "record/recorder.h"
#include "rings/perf_parse.h"

#define SYNTH_ID0 1000 /* kernel id of event i: SYNTH_ID0 + i */

struct synth {
	char path[300];
	struct recorder *rec;
	struct ring ring;
};

struct synth_sample {
	uint64_t id, ip, time, period;
	uint32_t tid;
	const uint64_t *chain; /* callchain entries, markers included */
	unsigned int nchain;
	const void *raw;
	uint32_t rawsz;
	const struct perf_branch_entry *br;
	unsigned int nbr;
	uint32_t pid; /* 0: this process */
};

static inline int synth_open(struct synth *s, const char *path,
			     const char *events, uint64_t sample_type,
			     uint64_t branch_sample_type, bool lbr)
{
	struct recorder *rec = malloc(sizeof(*rec));
	struct record_opts o = {
		.pid = getpid(),
		.events = events,
		.output = path,
		/* lbr_check refuses -g lbr where the CPU has no LBR: frame
		 * pointers here, lbr set below (the records are made here) */
		.callgraph = "fp",
		.quiet = true,
	};

	memset(s, 0, sizeof(*s));
	snprintf(s->path, sizeof(s->path), "%s", path);
	if (!rec || recorder_init(rec, &o)) {
		free(rec);
		return -1;
	}
	rec->dec.lbr = lbr;
	for (unsigned int i = 0; i < rec->nevents; i++)
		s->ring.ids[i] = SYNTH_ID0 + i;
	s->ring.nevents = rec->nevents;
	s->ring.tid = getpid();
	s->ring.pid = getpid();
	s->ring.fd = -1;
	s->ring.sample_type = sample_type;
	s->ring.branch_sample_type = branch_sample_type;
	pj_writer_thread(rec->w, (uint32_t)getpid(), (uint32_t)getpid(),
			 "synth");
	s->rec = rec;
	return 0;
}

/* Builds the record for ring->sample_type and feeds it to the recorder. */
static inline void synth_feed(struct synth *s, struct ring *r,
			      const struct synth_sample *x)
{
	static uint64_t buf[2048];
	size_t n = 1; /* the header */
	struct perf_event_header *h = (void *)buf;
	uint64_t st = r->sample_type;

#define PUT(v) (buf[n++] = (uint64_t)(v))
	if (st & PERF_SAMPLE_IDENTIFIER)
		PUT(x->id);
	if (st & PERF_SAMPLE_IP)
		PUT(x->ip);
	if (st & PERF_SAMPLE_TID) /* threads of the process recorded */
		PUT((uint64_t)x->tid << 32 |
		    (x->pid ? x->pid : (uint32_t)getpid()));
	if (st & PERF_SAMPLE_TIME)
		PUT(x->time);
	if (st & PERF_SAMPLE_CPU)
		PUT(1);
	if (st & PERF_SAMPLE_PERIOD)
		PUT(x->period);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		PUT(x->nchain);
		for (unsigned int i = 0; i < x->nchain; i++)
			PUT(x->chain[i]);
	}
	if (st & PERF_SAMPLE_RAW) {
		/* u32 size, the bytes, padded so that 4 + size is 8-aligned */
		uint32_t sz = (x->rawsz + 4 + 7) / 8 * 8 - 4;
		uint8_t *p = (uint8_t *)&buf[n];

		memset(p, 0, sz + 4);
		memcpy(p, &sz, 4);
		if (x->rawsz)
			memcpy(p + 4, x->raw, x->rawsz);
		n += (sz + 4) / 8;
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		PUT(x->nbr);
		if (r->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			PUT(x->nbr - 1);
		memcpy(&buf[n], x->br, x->nbr * sizeof(*x->br));
		n += x->nbr * sizeof(*x->br) / 8;
	}
#undef PUT
	h->type = PERF_RECORD_SAMPLE;
	h->misc = 0;
	h->size = (uint16_t)(n * 8);
	record_on_record(s->rec, r, h);
}

static inline int synth_close(struct synth *s)
{
	struct recorder *rec = s->rec;
	int rc;

	pj_writer_stat(rec->w, "samples", rec->em.st.samples);
	rc = pj_writer_close(rec->w);
	rec->w = NULL;
	recorder_free(rec);
	free(rec);
	s->rec = NULL;
	return rc;
}

/* "leaf;caller;..." names of stack id st. */
static inline const char *synth_stack(const struct pj_profile *p, uint32_t st,
				      char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	if (st >= p->nstacks)
		return buf;
	for (uint32_t i = p->stack_start[st]; i < p->stack_start[st + 1]; i++) {
		const struct pj_frame *f = &p->frames[p->stack_frames[i]];
		const char *name = pj_str(p, f->name);

		at += (size_t)snprintf(
		    buf + at, at < len ? len - at : 0, "%s%s%s", at ? ";" : "",
		    *name ? name : "?",
		    f->type == PJ_FRAME_KERNEL ? "_[k]" : "");
		if (at >= len)
			break;
	}
	return buf;
}

#endif

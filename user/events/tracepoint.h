/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel tracepoints: ids and formats from tracefs (mounted on demand when
 * running as root), and the decoding of a sample's PERF_SAMPLE_RAW bytes into
 * one line of text through libtraceevent ("prev_comm=x prev_pid=1 ...").
 */
#ifndef PJ_USER_TRACEPOINT_H
#define PJ_USER_TRACEPOINT_H

#include <stddef.h>
#include <stdint.h>

/*
 * The tracefs events directory into buf: <sysfs>/kernel/tracing/events, or
 * debugfs' tracing/events. When neither is there and this is the real /sys
 * and we are root, mounts tracefs on /sys/kernel/tracing (with a notice).
 * 0, or -1 with a one-line reason and what to do in err.
 */
int tracefs_events_dir(char *buf, size_t len, char *err, size_t errlen);
/* The id of tracepoint sys:name. 0, or -1 with a reason in err. */
int tracepoint_id(const char *sys, const char *name, uint64_t *id, char *err,
		  size_t errlen);
/* Calls cb for every tracepoint; returns how many, or -1 with err set. */
int tracepoint_foreach(void (*cb)(void *ctx, const char *sys, const char *name),
		       void *ctx, char *err, size_t errlen);

struct tp_decoder;

struct tp_decoder *tp_decoder_new(void);
/* Loads the format of sys:name. 0, or -1 with a reason in err. */
int tp_decoder_add(struct tp_decoder *d, const char *sys, const char *name,
		   char *err, size_t errlen);
/*
 * Decodes one tracepoint's raw bytes into buf as "field=value ..." (the
 * event's own print format). Returns the length, or -1 when the record
 * names an event not added or is damaged (buf then says so).
 */
int tp_decode(struct tp_decoder *d, const void *raw, uint32_t size, char *buf,
	      size_t len);
void tp_decoder_free(struct tp_decoder *d);

#endif

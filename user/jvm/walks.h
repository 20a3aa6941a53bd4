/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A walk's results as the reader makes them (jvm/walks.c), whichever way
 * they came: a WALK_RESULT or STACK_RESULT on the socket, or the walk ring.
 */
#ifndef PJ_USER_JVM_WALKS_H
#define PJ_USER_JVM_WALKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct agent;
struct java_frame;
struct pja_frame;

/*
 * Whether Java method names a and b are the same method, a signature on
 * one side only aside (the code map's names may come without: an agent of
 * an older build).
 */
bool java_same_method(const char *a, const char *b);

/* For jvm/ only (struct agent, jvm/conn_internal.h): */
/* A frame of a walk with its method's name and line; false when it names
 * a method the agent has not sent (yet). */
bool agent_name_frame(const struct agent *a, const struct pja_frame *f,
		      struct java_frame *out);
/* The frames of a walk or stack result: nframes pja_frames after its head
 * of hsize bytes in the len-byte message p, checked against len and cut to
 * the HELLO's depth, named into a->frames. Their number, or -1 (counted as
 * dropped) when the message is too short for its head or its frames. */
int agent_result_frames(struct agent *a, const char *p, uint32_t len,
			size_t hsize, uint32_t nframes);
/* Counts a walk's outcome in a->stats; its enum agent_walk_status. */
int agent_count_walk(struct agent *a, int32_t status, int32_t asgct,
		     uint32_t flags);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What profile/jfr_event.c (event types, their fields' roles, settings)
 * and profile/jfr_sample.c (samples into the profile) share. Not for
 * other parts.
 */
#ifndef PJ_USER_PROFILE_JFR_EVENT_H
#define PJ_USER_PROFILE_JFR_EVENT_H

#include "profile/jfr.h"

/* What a field of an event is for, found by its name. */
enum role {
	R_SKIP,
	R_TIME,
	R_DURATION,
	R_THREAD,
	R_STACK,
	R_SAMPLES,
	R_SPAN,
	R_EVENT,
	R_PERIOD,
	R_CPU,
	R_DETAILS,
	R_WEIGHT,
	R_TLAB,
	R_SIZE,
	R_CLASS,
	R_ID,
	R_NAME,
	R_VALUE,
	R_ARGS,
	R_APP,
	R_PID,
	R_N
};

/* What an event type is: its profile event's kind. */
enum kind { K_OTHER, K_CPU, K_WALL, K_ALLOC, K_LOCK, K_SETTING, K_JVM };

/* An event type of the chunk that the profile takes. */
struct evtype {
	uint32_t cls;
	uint8_t kind;
	uint8_t *role; /* per field */
	uint32_t event; /* the profile's event index, UINT32_MAX: not yet */
	bool per_sample; /* perfjava.EventSample: each names its event */
};

/* What the settings say of one JFR event type. */
struct setting {
	char *event; /* "event": the name it stands for */
	uint64_t period; /* ns, 0 unknown */
};

struct jfr_events {
	struct evtype *ev;
	uint32_t nev;
	struct u64map ev_of; /* class id + 1 -> index + 1 */
	struct setting *set;
	uint32_t nset;
	size_t cap_set;
	struct u64map set_of; /* class id + 1 -> index + 1 */
	uint64_t recording_id; /* jdk.ActiveRecording's class id + 1 */
	uint64_t wall_id; /* profiler.WallClockSample's + 1 */
	struct u64map named; /* String key + 1 -> event index + 1 */
	struct u64map details; /* String key + 1 -> string id + 1 */
	struct u64map tids; /* Thread key + 1 -> tid + 1 */
};

/* The values of one event, by role. */
struct vals {
	uint64_t u[R_N];
	struct jfr_str s[R_N];
	uint32_t have; /* bit per role */
};

/* The settings of event type id (class id), made when first asked for;
 * NULL past the bound or out of memory (profile/jfr_event.c). */
struct setting *jfr_setting_of(struct jfr_events *ev, uint64_t id);
/* An event of type e with a stack trace, read into v, as a sample of the
 * profile (profile/jfr_sample.c). */
int jfr_on_sample(struct jfr_chunk *ch, struct jfr_build *b, struct jfr_cur *c,
		  struct evtype *e, struct vals *v);

#endif

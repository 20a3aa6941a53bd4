/* SPDX-License-Identifier: GPL-2.0 */
/* What events.c and events_table.c share; other parts use events.h. */
#ifndef PJ_USER_EVENTS_INTERNAL_H
#define PJ_USER_EVENTS_INTERNAL_H

#include <stdbool.h>

#include "events.h"

/*
 * Software, hardware, cache and raw events by name (base has no modifiers
 * or terms): fills ev's type, config, kind and unit and returns true, or
 * returns false when base is none of them.
 */
bool events_lookup_symbolic(const char *base, struct pj_event *ev);

#endif

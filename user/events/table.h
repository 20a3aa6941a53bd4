/* SPDX-License-Identifier: GPL-2.0 */
/* What events/spec.c and events/table.c share; other parts use events/spec.h. */
#ifndef PJ_USER_EVENTS_INTERNAL_H
#define PJ_USER_EVENTS_INTERNAL_H

#include <stdbool.h>

#include "events/spec.h"

/*
 * Software, hardware, cache and raw events by name (base has no modifiers
 * or terms): fills ev's type, config, kind and unit and returns true, or
 * returns false when base is none of them.
 */
bool events_lookup_symbolic(const char *base, struct pj_event *ev);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/* A report's off-CPU and wall-clock views: states, events, titles (report/wallview.c). */
#ifndef PJ_USER_REPORT_WALLVIEW_H
#define PJ_USER_REPORT_WALLVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/model.h"

#define REPORT_NSTATES 7 /* running, sleep, io, lock, runnable, blocked, wait */
/* "sleep,io" -> bits; -1 for a name that is no state. */
int report_parse_states(const char *arg, unsigned int *mask);
/* Chooses the events and weights of an offcpu/wall file, and the states
 * of --state; 0, -1 for --event wall without offcpu, -2 out of memory,
 * -3 for --state without offcpu. */
int report_wall_setup(struct report *r, struct report_opts *o);
/* A page's title: what, and the event ("Flame graph (cpu-clock)"). */
void report_title(const struct report *r, const char *what, char *buf,
		  size_t len);
bool report_state_selected(const struct report *r, const struct pj_sample *s);
/* The state of stack st (0 running, ...): its leaf "[off-cpu: X]" frame. */
uint8_t report_stack_state(const struct pj_profile *p, uint32_t st);

#endif

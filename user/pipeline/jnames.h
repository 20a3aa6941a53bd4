/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Java thread names in the profile: the JVM's full names from the agent
 * ("http-nio-8080-exec-12"), not the kernel's 15-byte comm. A name is
 * written the first time a sample of its thread comes with it known, and
 * again only when it changes; the reader keeps the last name of a tid, so it
 * replaces the comm written when the thread was opened.
 */
#ifndef PJ_USER_PIPELINE_JNAMES_H
#define PJ_USER_PIPELINE_JNAMES_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/u64map.h"

struct agent;
struct pj_writer;

struct jnames {
	struct u64map m; /* tid -> the name written (its hash, flags) */
	struct u64map vnames; /* virtual thread id -> its name written */
};

/* Whether tid is the agent a's own thread. */
bool jnames_is_agent(const struct agent *a, uint32_t tid);
/* Writes tid's (of process pid) Java name into w when the agent a has a
 * new one; true when tid is the agent's own thread. */
bool jnames_write(struct jnames *j, struct pj_writer *w, const struct agent *a,
		  uint32_t pid, uint32_t tid);
/* Writes the name of virtual thread id once per file (named ones). */
void jnames_write_vthread(struct jnames *j, struct pj_writer *w,
			  const struct agent *a, uint64_t id);
/* Whether a Java name was written for tid (a comm must not replace it). */
bool jnames_has(const struct jnames *j, uint32_t tid);
/* tid is gone. */
void jnames_forget(struct jnames *j, uint32_t tid);
/* All of them (a new file, or the end). */
void jnames_free(struct jnames *j);

#endif

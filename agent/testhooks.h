/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PJ_AGENT_TESTHOOKS_H
#define PJ_AGENT_TESTHOOKS_H

#include "pja.h"

/* testhooks.c: the benchmark and test switches of a session (bench=, and
 * PERFJAVA_AGENT_* in the JVM's environment) read, each production file's
 * hook set where one is on. Whether PERFJAVA_AGENT_TESTFAULT is. */
void testhooks_session(const char *bench);
int testhooks_testfault(void);

#endif

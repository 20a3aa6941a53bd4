/* SPDX-License-Identifier: GPL-2.0 */
/*
 * HotSpot dynamic attach: the .attach_pid trigger file, SIGQUIT, the
 * .java_pid socket and the `load` command, through /proc/PID/root and NSpid
 * so that a JVM in another mount or pid namespace works too.
 */
#ifndef PJ_USER_ATTACH_H
#define PJ_USER_ATTACH_H

#include <stddef.h>
#include <sys/types.h>

enum attach_error {
	ATTACH_OK = 0,
	ATTACH_ENOPROC, /* no such process / cannot read it */
	ATTACH_ENOTJVM, /* no libjvm.so in its maps */
	ATTACH_ENOTHOTSPOT, /* a JVM, but not HotSpot */
	ATTACH_EDISABLED, /* attach disabled or never answered */
	ATTACH_EPROTO, /* the attach socket said something unexpected */
	ATTACH_ELOAD, /* the JVM could not load the agent */
	ATTACH_EAGENT, /* Agent_OnAttach returned an error */
};

/*
 * Checks that pid is a HotSpot JVM we can attach to, without touching it.
 * ATTACH_OK, or an error with a one-line reason in err.
 */
int attach_check(pid_t pid, char *err, size_t errlen);

/*
 * Loads the agent library at lib (a path valid inside the target's mount
 * namespace) with options into JVM pid and waits (bounded by timeout_ms for
 * the attach socket and again for the answer). ATTACH_OK, or an error with a
 * one-line reason in err.
 */
int attach_load(pid_t pid, const char *lib, const char *options, int timeout_ms,
		char *err, size_t errlen);

#endif

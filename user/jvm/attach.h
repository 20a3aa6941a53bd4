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

/*
 * Checks that pid is a HotSpot JVM we can attach to, without touching it.
 * 0, or -1 with a one-line reason in err; -2 (the reason in err too) when
 * it cannot be judged yet: a JVM starting, which has no SIGQUIT handler
 * yet (ATTACH_NOT_YET).
 */
#define ATTACH_NOT_YET (-2)
int attach_check(pid_t pid, char *err, size_t errlen);

/*
 * Loads the agent library at lib (a path valid inside the target's mount
 * namespace) with options into JVM pid and waits (bounded by timeout_ms for
 * the attach socket and again for the answer). 0, or -1 with a one-line
 * reason in err (attach disabled, not HotSpot, agent failed to load, ...);
 * ATTACH_NOT_YET, the reason in err too, for what a JVM still starting
 * does, to be tried again a while: no SIGQUIT handler yet (with no attach
 * listener running, it cannot be asked for one: -Xrs, or starting), no
 * attach socket in time (or hung), the agent's Agent_OnAttach failing
 * (JVMTI not live yet).
 * Files in the JVM's directories are made as its user (jvm/tfs.h); its
 * attach socket is used only when the JVM's user owns it and the JVM itself
 * serves it.
 */
int attach_load(pid_t pid, const char *lib, const char *options, int timeout_ms,
		char *err, size_t errlen);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the agent meets the reader, inside the target's /tmp: the agent
 * library (when the target has a root of its own) and the reader's listening
 * socket. Both are made by the target's user (jvm/tfs.h), so that nothing is
 * written through a path the target controls with root's rights, and a JVM
 * in a user namespace where root is not mapped can use them.
 */
#ifndef PJ_USER_RENDEZVOUS_H
#define PJ_USER_RENDEZVOUS_H

#include <stddef.h>
#include <sys/types.h>

#include "jvm/tfs.h"

/*
 * The path of the agent library at path as the target can open it: path
 * itself when the target, with its rights, reaches that very file there
 * (decided per path: a private /tmp, a hidden home or a container's root
 * may not show it); else the copy in its /tmp that it has loaded already
 * (mapped, its user's, our bytes), or a new copy there, made as its user
 * at a random name (O_EXCL, another name when taken: no one can squat it).
 * 0, or -1 with errno: the cause itself (ENOSPC, EROFS, EDQUOT...).
 */
int rdv_agent_lib(const struct tfs *t, const char *path, char *out, size_t len);
/*
 * A listening socket in the target's /tmp, bound as its user with mode
 * 0600; its name (in /tmp) into name. Sockets of readers that died, which
 * nobody listens on any more, are removed first. The fd, or -1 with errno
 * (the bind's own error).
 */
int rdv_listen(const struct tfs *t, char *name, size_t len);
/*
 * How many agent libraries process pid maps, told apart by file: ours
 * (libperfjava-agent.so, a /tmp copy .perfjava-agent-*.so, or a file named
 * as lib, the one loaded). A JVM keeps each it loads: one of another build
 * or path puts its signal handlers in front of this one's. 0 when its maps
 * cannot be read.
 */
int rdv_agent_copies(pid_t pid, const char *lib);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A process's container, named from its cgroup as the runtimes name theirs
 * (what `docker ps` and `crictl ps` show as ids): "docker:3f2a9c1b7e4d"
 * (docker-ID.scope, /docker/ID), "k8s:..." (cri-containerd-ID.scope,
 * crio-ID.scope, /kubepods/.../ID), "podman:..." (libpod-ID.scope),
 * "lxc:NAME" (lxc.payload.NAME, /lxc/NAME), "machine:NAME"
 * (systemd-nspawn's machine-NAME.scope). The cgroup is the target's text:
 * read bounded, names kept to [A-Za-z0-9_.-].
 */
#ifndef PJ_USER_RECORD_CONTAINER_H
#define PJ_USER_RECORD_CONTAINER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* From the text of /proc/PID/cgroup: true with the name in out ("" and
 * false when it names no container). */
bool container_of_cgroup(const char *text, char *out, size_t len);
/* The same for process pid. */
bool container_of(pid_t pid, char *out, size_t len);

#endif

// SPDX-License-Identifier: GPL-2.0
/* A process's container from its cgroup; see record/container.h. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "lib/file.h"
#include "record/container.h"

#define ID_SHORT 12 /* as `docker ps` shows an id */

/* Whether s[0..n) is a container id: 64 hex digits. */
static bool is_id(const char *s, size_t n)
{
	if (n != 64)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* kind:name into out, the name's bytes outside [A-Za-z0-9_.-] as '_'
 * (a cgroup's name is its creator's), cut to fit. */
static void put(char *out, size_t len, const char *kind, const char *s,
		size_t n)
{
	size_t k = (size_t)snprintf(out, len, "%s:", kind);

	for (size_t i = 0; i < n && k + 1 < len; i++, k++)
		out[k] = isalnum((unsigned char)s[i]) || strchr("_.-", s[i])
			     ? s[i]
			     : '_';
	if (k < len)
		out[k] = 0;
}

/* The component s[0..n) (its parent p[0..pn), "" at the top) as a
 * container: true with the name in out. */
static bool component(const char *p, size_t pn, const char *s, size_t n,
		      char *out, size_t len)
{
	static const struct {
		const char *prefix, *kind;
	} scopes[] = { { "docker-", "docker" },
		       { "cri-containerd-", "k8s" },
		       { "crio-", "k8s" },
		       { "libpod-", "podman" } };
	const char *scope = ".scope";
	size_t sn = strlen(scope);

	if (n > sn && !memcmp(s + n - sn, scope, sn)) {
		for (size_t i = 0; i < sizeof(scopes) / sizeof(*scopes); i++) {
			size_t k = strlen(scopes[i].prefix);

			if (n - sn > k && !memcmp(s, scopes[i].prefix, k) &&
			    is_id(s + k, n - sn - k)) {
				put(out, len, scopes[i].kind, s + k, ID_SHORT);
				return true;
			}
		}
		if (n - sn > 8 && !memcmp(s, "machine-", 8)) { /* nspawn */
			put(out, len, "machine", s + 8, n - sn - 8);
			return true;
		}
	}
	if (is_id(s, n)) { /* cgroup v1: /docker/ID, /kubepods/.../ID */
		put(out, len,
		    pn == 6 && !memcmp(p, "docker", 6) ? "docker" : "k8s", s,
		    ID_SHORT);
		return true;
	}
	if (n > 12 && !memcmp(s, "lxc.payload.", 12)) {
		put(out, len, "lxc", s + 12, n - 12);
		return true;
	}
	if (pn == 3 && !memcmp(p, "lxc", 3)) {
		put(out, len, "lxc", s, n);
		return true;
	}
	return false;
}

/* The deepest container in one cgroup path. */
static bool path_container(const char *path, size_t n, char *out, size_t len)
{
	const char *p = "";
	size_t pn = 0, at = 0;
	bool found = false;

	while (at < n) {
		size_t k = 0;

		while (at < n && path[at] == '/')
			at++;
		while (at + k < n && path[at + k] != '/')
			k++;
		if (k && component(p, pn, path + at, k, out, len))
			found = true;
		p = path + at;
		pn = k;
		at += k;
	}
	return found;
}

bool container_of_cgroup(const char *text, char *out, size_t len)
{
	const char *line = text;
	bool found = false;

	out[0] = 0;
	while (*line && !found) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);
		const char *path = memchr(line, ':', n);

		/* "ID:CONTROLLERS:PATH" */
		if (path)
			path = memchr(path + 1, ':',
				      n - (size_t)(path + 1 - line));
		if (path) {
			path++;
			found = path_container(path, n - (size_t)(path - line),
					       out, len);
		}
		line += n + (nl != NULL);
	}
	if (!found)
		out[0] = 0;
	return found;
}

bool container_of(pid_t pid, char *out, size_t len)
{
	char path[64], text[4096];

	snprintf(path, sizeof(path), "/proc/%d/cgroup", pid);
	if (read_small_file(path, text, sizeof(text))) {
		out[0] = 0;
		return false;
	}
	return container_of_cgroup(text, out, len);
}

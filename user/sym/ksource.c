// SPDX-License-Identifier: GPL-2.0
/* The source of kernel symbols and its reasons; see sym/ksource.h. */
#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/file.h"
#include "sym/kallsyms.h"
#include "sym/ksource.h"

static bool has_cap_syslog(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3,
						0 };
	struct __user_cap_data_struct data[2] = { 0 };

	if (syscall(SYS_capget, &hdr, data))
		return false;
	return data[CAP_TO_INDEX(CAP_SYSLOG)].effective &
	       CAP_TO_MASK(CAP_SYSLOG);
}

/* A kernel.* sysctl as text, "?" when unreadable. */
static void sysctl(const char *name, char *buf, size_t len)
{
	char path[96];

	snprintf(path, sizeof(path), "/proc/sys/kernel/%s", name);
	if (read_small_file(path, buf, len) || !*buf)
		snprintf(buf, len, "?");
}

/*
 * Why kallsyms shows zeros: kptr_restrict=2 hides addresses from everyone,
 * 1 from readers without CAP_SYSLOG, and 0 from those too when
 * perf_event_paranoid > 1.
 */
static void kallsyms_hidden_why(struct ksource *k, const char *path)
{
	char kptr[16], par[16];
	bool cap = has_cap_syslog();
	int v;

	sysctl("kptr_restrict", kptr, sizeof(kptr));
	sysctl("perf_event_paranoid", par, sizeof(par));
	v = atoi(kptr);
	if (v >= 2 || (v == 1 && !cap))
		snprintf(k->kallsyms_why, sizeof(k->kallsyms_why),
			 "%s hides addresses%s (kernel.kptr_restrict=%s)", path,
			 v == 1 ? " from readers without CAP_SYSLOG" : "",
			 kptr);
	else if (!cap && atoi(par) > 1)
		snprintf(k->kallsyms_why, sizeof(k->kallsyms_why),
			 "%s hides addresses from readers without CAP_SYSLOG "
			 "(kernel.perf_event_paranoid=%s)",
			 path, par);
	else
		snprintf(k->kallsyms_why, sizeof(k->kallsyms_why),
			 "%s shows no addresses (kernel.kptr_restrict=%s)",
			 path, kptr);
}

static void open_module(struct ksource *k)
{
	int e;

	k->fd = ksym_module_open();
	if (k->fd >= 0) {
		k->kind = KSOURCE_MODULE;
		return;
	}
	e = k->module_errno = errno;
	if (e == ENOENT || e == ENXIO || e == ENODEV)
		snprintf(k->module_why, sizeof(k->module_why),
			 "perfjava_ksym is not loaded");
	else if (e == EACCES || e == EPERM)
		snprintf(k->module_why, sizeof(k->module_why),
			 "perfjava_ksym refuses this user (it needs "
			 "CAP_SYSLOG or the device's group)");
	else if (e == EPROTO)
		snprintf(k->module_why, sizeof(k->module_why),
			 "perfjava_ksym speaks another ABI than this perfjava");
	else
		snprintf(k->module_why, sizeof(k->module_why),
			 "cannot open %s: %s", PJ_KSYM_DEVICE, strerror(e));
}

void ksource_open(struct ksource *k, const char *kallsyms)
{
	const char *path = kallsyms ? kallsyms : "/proc/kallsyms";
	bool hidden;

	memset(k, 0, sizeof(*k));
	k->fd = -1;
	k->path = path;
	hidden = ksyms_peek_hidden(path);
	if (!hidden)
		k->ksyms = ksyms_load(path);
	if (k->ksyms && !ksyms_hidden(k->ksyms) && ksyms_count(k->ksyms)) {
		k->kind = KSOURCE_KALLSYMS;
		return;
	}
	if (k->ksyms && !ksyms_hidden(k->ksyms))
		snprintf(k->kallsyms_why, sizeof(k->kallsyms_why),
			 "%s holds no functions", path);
	else if (hidden || k->ksyms)
		kallsyms_hidden_why(k, path);
	else
		snprintf(k->kallsyms_why, sizeof(k->kallsyms_why),
			 "cannot read %s: %s", path, strerror(errno));
	ksyms_free(k->ksyms);
	k->ksyms = NULL;
	open_module(k);
}

void ksource_close(struct ksource *k)
{
	ksyms_free(k->ksyms);
	k->ksyms = NULL;
	if (k->kind == KSOURCE_MODULE && k->fd >= 0)
		close(k->fd);
	k->fd = -1;
	k->kind = KSOURCE_NONE;
	u64map_free(&k->cache);
	free(k->names.buf);
	memset(&k->names, 0, sizeof(k->names));
}

const char *ksource_name(const struct ksource *k)
{
	return k->kind == KSOURCE_KALLSYMS ? "kallsyms"
	       : k->kind == KSOURCE_MODULE ? "perfjava_ksym"
					   : "none";
}

void ksource_describe(const struct ksource *k, char *buf, size_t len)
{
	const char *todo;

	if (k->kind == KSOURCE_KALLSYMS) {
		snprintf(buf, len, "named by %s", k->path);
		return;
	}
	if (k->kind == KSOURCE_MODULE) {
		snprintf(buf, len, "named by the perfjava_ksym module: %s",
			 k->kallsyms_why);
		return;
	}
	todo = k->module_errno == EACCES || k->module_errno == EPERM
		   ? "ask for the group of " PJ_KSYM_DEVICE
		     " or run with CAP_SYSLOG"
	       : k->module_errno == EPROTO
		   ? "load the perfjava_ksym built with this perfjava"
		   : "load perfjava_ksym (see module/README.md)";
	snprintf(buf, len, "unnamed: %s, and %s; %s", k->kallsyms_why,
		 k->module_why, todo);
}

/* Addresses whose answers are kept (the kernel's text has fewer). */
#define MODULE_CACHE_MAX (1u << 20)

/* The module's answer for ip, once per address: "name\0module\0" or NULL. */
static const char *module_lookup(struct ksource *k, uint64_t ip)
{
	struct ksym_module_sym r;
	uint32_t v, name, mod;

	if (ip && u64map_get(&k->cache, ip, &v))
		return v ? k->names.buf + v - 1 : NULL;
	if (ksym_module_resolve(k->fd, &ip, 1, &r) != 1 || !r.found) {
		if (ip && k->cache.n < MODULE_CACHE_MAX)
			u64map_put(&k->cache, ip, 0);
		return NULL;
	}
	if (strpool_add(&k->names, r.name, strlen(r.name), &name) ||
	    strpool_add(&k->names, r.module, strlen(r.module), &mod))
		return NULL;
	if (ip && k->cache.n < MODULE_CACHE_MAX)
		u64map_put(&k->cache, ip, name + 1);
	return k->names.buf + name;
}

const char *ksource_lookup(struct ksource *k, uint64_t ip, const char **module)
{
	const char *name;
	uint64_t off;

	if (k->kind == KSOURCE_KALLSYMS)
		return ksyms_lookup(k->ksyms, ip, module, &off);
	if (k->kind != KSOURCE_MODULE || !(name = module_lookup(k, ip)))
		return NULL;
	*module = name + strlen(name) + 1;
	return name;
}

uint64_t ksource_start(struct ksource *k, uint64_t ip)
{
	const char *module;
	uint64_t off;

	if (k->kind != KSOURCE_KALLSYMS ||
	    !ksyms_lookup(k->ksyms, ip, &module, &off))
		return 0;
	return ip - off;
}

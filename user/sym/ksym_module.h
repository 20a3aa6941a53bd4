/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel symbols through the perfjava_ksym module (/dev/perfjava_ksym), for
 * when /proc/kallsyms hides addresses. ABI: include/perfjava/ksym.h.
 */
#ifndef PJ_USER_KSYM_MODULE_H
#define PJ_USER_KSYM_MODULE_H

#include <stdbool.h>
#include <stdint.h>

#include <perfjava/ksym.h>

struct ksym_module_sym {
	bool found; /* the rest is valid */
	bool truncated; /* name or module was cut to fit */
	uint64_t offset; /* from the start of the symbol */
	uint64_t size; /* of the symbol */
	char name[PJ_KSYM_NAME_LEN]; /* symbol, "" when not found */
	char module[PJ_KSYM_MODULE_LEN]; /* module, "" for the kernel image */
};

/*
 * Opens the device and checks its ABI version. The fd, or -1 with errno:
 * ENOENT (module not loaded), EACCES/EPERM (needs root with CAP_SYSLOG),
 * EPROTO (the module speaks another ABI version).
 */
int ksym_module_open(void);
/*
 * Resolves addrs[0..n) into out[0..n), in batches. Returns how many were
 * found, or -1 with errno (EPERM when the caller lost CAP_SYSLOG).
 */
int ksym_module_resolve(int fd, const uint64_t *addrs, unsigned int n,
			struct ksym_module_sym *out);

#endif

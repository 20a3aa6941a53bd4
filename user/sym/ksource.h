/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which source names kernel addresses: /proc/kallsyms when it shows this
 * reader real addresses, else the perfjava_ksym module (module/README.md)
 * when it is loaded and lets this reader in, else none; and, in words, why
 * kallsyms or the module could not.
 */
#ifndef PJ_USER_KSOURCE_H
#define PJ_USER_KSOURCE_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/strpool.h"
#include "lib/u64map.h"
#include "sym/ksym_module.h"

struct ksyms;

enum ksource_kind { KSOURCE_NONE, KSOURCE_KALLSYMS, KSOURCE_MODULE };

struct ksource {
	enum ksource_kind kind;
	const char *path; /* of kallsyms, as given to ksource_open */
	struct ksyms *ksyms; /* KSOURCE_KALLSYMS: the table */
	int fd; /* KSOURCE_MODULE: the device */
	int module_errno; /* why the module could not be opened, or 0 */
	char kallsyms_why[192]; /* why kallsyms names nothing, or "" */
	char module_why[128]; /* why the module names nothing, or "" */
	/* KSOURCE_MODULE: its answers by address (pool offset + 1, 0 for none),
	 * each "name\0module\0" in the pool: one ioctl per address */
	struct u64map cache;
	struct strpool names;
};

/*
 * Picks the source. kallsyms is the file to read (NULL: /proc/kallsyms; it
 * must outlive k); the module is asked only when kallsyms names nothing. A
 * zeroed struct may be closed.
 */
void ksource_open(struct ksource *k, const char *kallsyms);
void ksource_close(struct ksource *k);
/* "kallsyms", "perfjava_ksym" or "none", as in the profile's metadata. */
const char *ksource_name(const struct ksource *k);
/*
 * One line: "named by /proc/kallsyms", "named by the perfjava_ksym module:
 * why kallsyms could not" or "unnamed: why; what to do".
 */
void ksource_describe(const struct ksource *k, char *buf, size_t len);
/*
 * The function holding kernel address ip and its module ("" for the kernel
 * image; module must not be NULL), or NULL when the source has no name for
 * it. Both stay valid until the next lookup.
 */
const char *ksource_lookup(struct ksource *k, uint64_t ip, const char **module);
/* The start of the function holding ip, when kallsyms shows addresses (the
 * module names without them: 0, as for an address nothing names). */
uint64_t ksource_start(struct ksource *k, uint64_t ip);

#endif

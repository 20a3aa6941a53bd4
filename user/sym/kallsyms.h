/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel symbols from /proc/kallsyms, modules included. */
#ifndef PJ_USER_KALLSYMS_H
#define PJ_USER_KALLSYMS_H

#include <stdbool.h>
#include <stdint.h>

struct ksyms;

/* Loads a kallsyms file ("/proc/kallsyms"). NULL with errno on error. */
struct ksyms *ksyms_load(const char *path);
void ksyms_free(struct ksyms *k);
/* True when every address reads as 0 (kptr_restrict, no CAP_SYSLOG). */
bool ksyms_hidden(const struct ksyms *k);
/*
 * The function containing addr; its module ("" for the kernel image) in
 * *module. NULL when unknown or hidden.
 */
const char *ksyms_lookup(const struct ksyms *k, uint64_t addr,
			 const char **module, uint64_t *offset);
unsigned int ksyms_count(const struct ksyms *k);

#endif

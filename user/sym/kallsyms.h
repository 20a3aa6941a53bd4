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
 * True when the first text symbol of the file reads 0: the kernel hides
 * every address from a reader or none, so the whole file need not be read
 * (the kernel writes it slowly) to know. False when unsure (no text symbol
 * in the first 64 KiB, or the file cannot be read): ksyms_load tells.
 */
bool ksyms_peek_hidden(const char *path);
/*
 * The function containing addr; its module ("" for the kernel image) in
 * *module. NULL when unknown or hidden.
 */
const char *ksyms_lookup(const struct ksyms *k, uint64_t addr,
			 const char **module, uint64_t *offset);
unsigned int ksyms_count(const struct ksyms *k);

#endif

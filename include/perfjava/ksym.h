/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The perfjava_ksym module's ioctl ABI, version 1.
 *
 * The module (module/perfjava_ksym.c) registers the misc device
 * /dev/perfjava_ksym, mode 0600. Opening it and every ioctl require that the
 * caller hold CAP_SYSLOG or be in the device's group while that group may
 * read it (an administrator's grant); the permission bits for others never
 * grant. An fd handed to a process with neither right gets EPERM. Through
 * it a reader
 * resolves kernel addresses (kernel image, modules, BPF, ftrace
 * trampolines) to what /proc/kallsyms would say with real addresses:
 * symbol, offset, size and module, the answer of the kernel's %pS format
 * "symbol+offset/size [module]". It never returns an address.
 *
 * Protocol
 *
 *   PJ_KSYM_IOC_INFO     fills struct pj_ksym_info. A reader checks
 *                        abi_version == PJ_KSYM_ABI_VERSION (and the entry
 *                        size) before anything else.
 *   PJ_KSYM_IOC_RESOLVE  resolves a batch: the caller sets abi_version,
 *                        count (1..max_batch), entries (a user pointer to
 *                        count struct pj_ksym_entry with addr set) and zeroes
 *                        the rest; the module fills every entry and sets
 *                        resolved to the number found.
 *
 * Errors: EPERM without that right; EINVAL for a wrong abi_version, a count
 * of 0 or above max_batch, or non-zero reserved fields; EFAULT for a bad
 * pointer; ENOTTY for an unknown command. A later ABI version changes
 * PJ_KSYM_ABI_VERSION and the ioctl numbers together.
 */
#ifndef PERFJAVA_KSYM_H
#define PERFJAVA_KSYM_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define PJ_KSYM_ABI_VERSION 1
#define PJ_KSYM_DEVICE "/dev/perfjava_ksym"
#define PJ_KSYM_MAX_BATCH 256
/* Buffers include the terminating NUL; longer names are cut, flagged. */
#define PJ_KSYM_NAME_LEN 256
#define PJ_KSYM_MODULE_LEN 64

/* pj_ksym_entry.flags */
#define PJ_KSYM_FOUND 0x1 /* name, offset, size (and module) are valid */
#define PJ_KSYM_TRUNCATED 0x2 /* name or module was cut to fit */

struct pj_ksym_info {
	__u32 abi_version; /* PJ_KSYM_ABI_VERSION */
	__u32 entry_size; /* sizeof(struct pj_ksym_entry) */
	__u32 max_batch; /* most entries per PJ_KSYM_IOC_RESOLVE */
	__u32 reserved;
};

struct pj_ksym_entry {
	__u64 addr; /* in: a kernel address */
	__u64 offset; /* out: addr - start of the symbol */
	__u64 size; /* out: size of the symbol */
	__u32 flags; /* out: PJ_KSYM_* */
	__u32 reserved; /* out: 0 */
	char name[PJ_KSYM_NAME_LEN]; /* out: symbol, "" when not found */
	char module[PJ_KSYM_MODULE_LEN]; /* out: module, "" for vmlinux */
};

struct pj_ksym_resolve {
	__u32 abi_version; /* in: PJ_KSYM_ABI_VERSION */
	__u32 count; /* in: entries in the array */
	__u64 entries; /* in: user pointer to struct pj_ksym_entry[count] */
	__u32 resolved; /* out: entries with PJ_KSYM_FOUND */
	__u32 reserved; /* in: 0 */
};

#define PJ_KSYM_IOC_MAGIC 0xB7
#define PJ_KSYM_IOC_INFO _IOR(PJ_KSYM_IOC_MAGIC, 1, struct pj_ksym_info)
#define PJ_KSYM_IOC_RESOLVE _IOWR(PJ_KSYM_IOC_MAGIC, 2, struct pj_ksym_resolve)

#endif

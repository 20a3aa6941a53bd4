/* SPDX-License-Identifier: GPL-2.0 */
/* The user/kernel boundary of x86-64 addresses: where the kernel half
 * starts under 4-level paging (user space ends below the canonical hole). */
#ifndef PJ_USER_ADDR_H
#define PJ_USER_ADDR_H

#include <stdbool.h>
#include <stdint.h>

#define KERNEL_ADDR_START 0xffff800000000000ull

static inline bool addr_is_kernel(uint64_t ip)
{
	return ip >= KERNEL_ADDR_START;
}

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * The shared library of nofp (built -O2 -fomit-frame-pointer): two levels of
 * the chain, each with a frame of its own on the stack, calling back into
 * the program.
 */
#include <string.h>

void nofp_lib_c(unsigned long n, void (*back)(unsigned long));

/* volatile buffers keep real frames, as in code that uses its stack */
void nofp_lib_c(unsigned long n, void (*back)(unsigned long))
{
	volatile char buf[96];

	memset((char *)buf, (int)n, sizeof(buf));
	back(n + buf[3]);
	buf[5] = 1;
}

void nofp_lib_b(unsigned long n, void (*back)(unsigned long))
{
	volatile char buf[160];

	memset((char *)buf, (int)n, sizeof(buf));
	nofp_lib_c(n + buf[7], back);
	buf[9] = 1;
}

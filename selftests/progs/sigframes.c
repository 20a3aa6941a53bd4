// SPDX-License-Identifier: GPL-2.0
/*
 * Frames a symbolizer must not misname: time spent in a signal handler (its
 * caller is libc's signal trampoline, __restore_rt, which no call reaches),
 * and a frame chain whose return address lies in a file mapped without
 * execute (what a stale word on the stack looks like to an unwinder).
 * Usage: sigframes SECONDS; prints "ready PID".
 */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

static void spin_in_handler(void)
{
	for (unsigned long i = 0; i < 20000000UL; i++)
		sink += i;
}

static void on_sig(int s)
{
	(void)s;
	spin_in_handler();
}

/* Spins rsi times with rbp pointing at rdi: a frame {next, return}. */
void spin_fake_caller(uint64_t *frame, unsigned long n);
__asm__(".text\n"
	".globl spin_fake_caller\n"
	".type spin_fake_caller, @function\n"
	"spin_fake_caller:\n"
	"	push %rbp\n"
	"	mov %rdi, %rbp\n"
	"1:	dec %rsi\n"
	"	jnz 1b\n"
	"	pop %rbp\n"
	"	ret\n"
	".size spin_fake_caller, .-spin_fake_caller\n");

int main(int argc, char **argv)
{
	time_t end = time(NULL) + (argc > 1 ? atoi(argv[1]) : 4);
	uint64_t frame[2] = { 0, 0 };
	int fd = open("/proc/self/exe", O_RDONLY);
	char *data;

	if (fd < 0)
		return 1;
	data = mmap(NULL, 65536, PROT_READ, MAP_PRIVATE, fd, 0);
	if (data == MAP_FAILED)
		return 1;
	frame[1] = (uintptr_t)data + 4096 + 16; /* no code lives there */
	signal(SIGUSR1, on_sig);
	printf("ready %d\n", getpid());
	fflush(stdout);
	while (time(NULL) < end) {
		raise(SIGUSR1);
		spin_fake_caller(frame, 20000000UL);
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kfp - a task whose frame pointer leads to a return address of the kernel
 *
 * As a frame-pointer walk of code built without frame pointers can read
 * any word: perf record -g walks the user stack by %rbp and stores the
 * word it finds as a user frame. 200 sleeps of 100 us with %rbp at a frame
 * whose return address is ADDRESS (argv[1], hexadecimal): each sleep is a
 * sched_switch with a kernel part (nanosleep) and a user part: this
 * program's address, then ADDRESS.
 * Build: gcc -O2 -fno-omit-frame-pointer -o kfp kfp.c (x86-64).
 */
#include <stdlib.h>
#include <time.h>

static unsigned long frame[2];	/* next frame, return address */

int main(int argc, char **argv)
{
	struct timespec ts = { 0, 100000 };
	long ret;
	int i;

	if (argc != 2)
		return 2;
	frame[1] = strtoul(argv[1], NULL, 16);
	for (i = 0; i < 200; i++)
		__asm__ volatile("mov %%rbp, %%r12\n\tmov %[fp], %%rbp\n\tsyscall\n\tmov %%r12, %%rbp"
				 : "=a"(ret)
				 : "a"(35L), "D"(&ts), "S"(0L), [fp] "r"(frame)
				 : "rcx", "r11", "r12", "memory");
	return 0;
}

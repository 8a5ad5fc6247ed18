// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * badfp - a task whose frame pointer leads to a return address of -1
 *
 * As code built without frame pointers can leave %rbp: perf record -g walks
 * the user stack by frame pointers and stores the -1 it finds, a value of
 * the range of perf's call chain context markers (-4095..-1) that is no
 * marker. 20 sleeps of 100 us with the frame pointers of this program, then
 * 200 with %rbp at a frame whose return address is -1: each sleep is a
 * sched_switch with a kernel part (nanosleep) and a user part.
 * Build: gcc -O2 -fno-omit-frame-pointer -o badfp badfp.c (x86-64).
 */
#include <time.h>

static unsigned long frame[2] = { 0, (unsigned long)-1 };	/* next frame, return address */

int main(void)
{
	struct timespec ts = { 0, 100000 };
	long ret;
	int i;

	for (i = 0; i < 20; i++)
		nanosleep(&ts, NULL);
	for (i = 0; i < 200; i++)
		__asm__ volatile("mov %%rbp, %%r12\n\tmov %[fp], %%rbp\n\tsyscall\n\tmov %%r12, %%rbp"
				 : "=a"(ret)
				 : "a"(35L), "D"(&ts), "S"(0L), [fp] "r"(frame)
				 : "rcx", "r11", "r12", "memory");
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A small program for the DWARF unwinding tests: no frame pointers, no libc
 * (nothing of this machine's libraries in its stacks), its own call frame
 * information (.eh_frame, and .eh_frame_hdr for perf's libunwind), three
 * calls deep to a getppid system call (a tracepoint sample) and to a
 * busy loop (cpu-clock samples). tests/data/README.md says how it was built
 * and recorded.
 */
#define SYS_write 1
#define SYS_getppid 110
#define SYS_exit_group 231

static long sys3(long n, long a, long b, long c)
{
	long ret;
	__asm__ volatile ("syscall" : "=a"(ret) : "a"(n), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
	return ret;
}

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long burn(unsigned long n)
{
	unsigned long i, x = n;
	for (i = 0; i < n; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return x;
}

__attribute__((noinline)) static void leaf(int i)
{
	sink += burn(150000);
	sys3(SYS_getppid, 0, 0, 0);
	(void)i;
}

__attribute__((noinline)) static void middle(int i)
{
	char buf[64];
	for (int k = 0; k < 64; k++) buf[k] = (char)(i + k);
	leaf(i);
	sink += buf[i & 63];
}

__attribute__((noinline)) static void outer(int i)
{
	middle(i);
	sink++;
}

__attribute__((noinline, used)) void run(void)
{
	for (int i = 0; i < 100; i++)
		outer(i);
	sys3(SYS_exit_group, 0, 0, 0);
	for (;;) ;
}

/* The entry point: no caller (the unwinders stop here), an aligned stack */
__asm__(".text\n.globl _start\n.type _start,@function\n_start:\n"
	".cfi_startproc\n.cfi_undefined rip\n"
	"xor %ebp, %ebp\nand $-16, %rsp\ncall run\nhlt\n.cfi_endproc\n");

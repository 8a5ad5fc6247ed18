// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Calls through the procedure linkage table in a loop, for
 * tests/integration/plt-names.sh: abs() and strlen() of libc (built with
 * -fno-builtin, so that they are calls), some arithmetic between them,
 * argv[1] million times (a count, not a time: as many samples of its CPU
 * time on a busy machine as on an idle one).
 */
#include <stdlib.h>
#include <string.h>

volatile long sink;

__attribute__((noinline)) static long work(const char *s, long i)
{
	long x = i;

	for (int k = 0; k < 16; k++)
		x = x * 31 + k;
	return abs((int)x) + (long)strlen(s);
}

int main(int argc, char **argv)
{
	long n = (argc > 1 ? atol(argv[1]) : 1) * 1000000;
	char buf[8] = "abcdefg";

	for (long i = 0; i < n; i++)
		sink += work(buf + (i & 3), i);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Calls through the procedure linkage table in a loop, for
 * tests/integration/plt-names.sh: abs() and strlen() of libc (built with
 * -fno-builtin, so that they are calls), some arithmetic between them.
 * Runs for argv[1] seconds.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

volatile long sink;

__attribute__((noinline)) static long work(const char *s, long i)
{
	long x = i;

	for (int k = 0; k < 32; k++)
		x = x * 31 + k;
	return abs((int)x) + (long)strlen(s);
}

int main(int argc, char **argv)
{
	time_t end = time(NULL) + (argc > 1 ? atoi(argv[1]) : 1);
	char buf[8] = "abcdefg";
	long i = 0;

	while (time(NULL) < end)
		for (int k = 0; k < 100000; k++, i++)
			sink += work(buf + (i & 3), i);
	return 0;
}

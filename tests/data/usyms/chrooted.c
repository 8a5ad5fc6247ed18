// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A program run inside a chroot by tests/integration/chroot-names.sh:
 * stripped, its local functions and its global ones are named only by its
 * separate debug file, which is in the chroot's /usr/lib/debug/.build-id.
 * outer_global has a longer-named alias (perf prints the longer one).
 * Runs for argv[1] seconds.
 */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void leaf_local(int n)
{
	for (int i = 0; i < n; i++)
		sink += (unsigned long)i * 7;
}

__attribute__((noinline)) static void mid_local(int n)
{
	leaf_local(n);
	sink++;
}

__attribute__((noinline)) void outer_global(int n)
{
	mid_local(n);
	sink++;
}

void outer_global_alias(int n) __attribute__((alias("outer_global")));

int main(int argc, char **argv)
{
	time_t end = time(NULL) + (argc > 1 ? atoi(argv[1]) : 3);

	while (time(NULL) < end)
		outer_global(20000);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A program run inside a chroot by tests/integration/chroot-names.sh:
 * stripped, its local functions and its global ones are named only by its
 * separate debug file, which is in the chroot's /usr/lib/debug/.build-id.
 * No function has an alias: perf 7 names these frames (below 0x10000 in
 * the file, or with DWARF only in a separate file) after binutils'
 * addr2line, by their DWARF names, where perf 6 and perf2dat take the
 * symbol perf's choose_best_symbol() prefers. Runs for argv[1] seconds.
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

int main(int argc, char **argv)
{
	time_t end = time(NULL) + (argc > 1 ? atoi(argv[1]) : 3);

	while (time(NULL) < end)
		outer_global(20000);
	return 0;
}

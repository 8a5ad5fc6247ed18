// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A JIT compiler in miniature for tests/integration/user-names.sh (x86_64):
 * it writes two functions' machine code into anonymous executable memory,
 * names them in /tmp/perf-PID.map as JIT compilers do for perf, and runs
 * them. Usage: jit ROUNDS (the map file is left for the test to remove).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* mov $0x100000,%ecx; 1: dec %rcx; jnz 1b; ret */
static const unsigned char spin[] = {
	0xb9, 0x00, 0x00, 0x10, 0x00, 0x48, 0xff, 0xc9, 0x75, 0xfb, 0xc3,
};

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 2000, i;
	unsigned char *code;
	char path[64];
	FILE *map;

	code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	if (code == MAP_FAILED)
		return 1;
	memcpy(code, spin, sizeof(spin));
	memcpy(code + 64, spin, sizeof(spin));
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	map = fopen(path, "w");
	if (!map)
		return 1;
	fprintf(map, "%lx %zx jit_spin_one\n", (unsigned long)code, sizeof(spin));
	fprintf(map, "%lx %zx Jit::spin two(int)\n", (unsigned long)(code + 64), sizeof(spin));
	fclose(map);
	for (i = 0; i < rounds; i++)
		((void (*)(void))(code + (i & 1) * 64))();
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a page of fresh anonymous memory costs on this machine: MB megabytes
 * touched one page at a time (one page fault each), the same mapped by
 * madvise(MADV_POPULATE_WRITE) in 64 KiB steps (what p2d_prefault_to()
 * does), and then rewritten once mapped. On a virtual machine with shadow
 * page tables a fault is several times the cost of the page's memory.
 *
 *	cc -O2 -o bench/pagefault bench/pagefault.c && bench/pagefault 64
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static char *region(size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	return p;
}

int main(int argc, char **argv)
{
	size_t len = (size_t)atol(argc > 1 ? argv[1] : "64") << 20, step = 64 << 10, i;
	double pages = (double)(len / 4096), t0, t1, t2;
	char *a = region(len), *b = region(len);

	t0 = now();
	for (i = 0; i < len; i += 4096)
		a[i] = 1;
	t1 = now();
	for (i = 0; i < len; i += step) {
		if (madvise(b + i, step, MADV_POPULATE_WRITE)) {
			perror("madvise(MADV_POPULATE_WRITE)");
			return 1;
		}
		memset(b + i, 1, step);
	}
	t2 = now();
	printf("one fault per page:        %.2f us/page\n", (t1 - t0) / pages * 1e6);
	printf("mapped 64 KiB at a time:   %.2f us/page (written too)\n", (t2 - t1) / pages * 1e6);
	t0 = now();
	memset(a, 2, len);
	t1 = now();
	printf("rewriting a mapped page:   %.2f us/page\n", (t1 - t0) / pages * 1e6);
	return 0;
}

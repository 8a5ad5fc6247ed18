// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a page-cache page costs on this machine: writes MB megabytes in
 * 256 KiB writes into a new unlinked file in /tmp, then over the same pages
 * twice more. On a VM whose host backs guest memory lazily (free page
 * reporting), the first pass (new pages) can be ten times slower than the
 * others: this is what perf2dat's temporary page files and its output pay.
 *
 *	cc -O2 -o bench/pagecache bench/pagecache.c && bench/pagecache 440
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	size_t total = (size_t)atol(argc > 1 ? argv[1] : "440") << 20, chunk = 256 << 10, o;
	char *buf = malloc(chunk);
	double t0, t;
	int fd, pass;

	fd = open("/tmp", O_TMPFILE | O_RDWR, 0600);
	if (!buf || fd < 0) {
		perror("pagecache");
		return 1;
	}
	memset(buf, 'x', chunk);
	for (pass = 0; pass < 3; pass++) {
		t0 = now();
		if (lseek(fd, 0, SEEK_SET) < 0)
			return 1;
		for (o = 0; o < total; o += chunk)
			if (write(fd, buf, chunk) != (ssize_t)chunk)
				return 1;
		t = now() - t0;
		printf("pass %d (%s pages): %.3f s, %.2f GB/s\n", pass, pass ? "the same" : "new",
		       t, (double)total / t / 1e9);
	}
	return 0;
}

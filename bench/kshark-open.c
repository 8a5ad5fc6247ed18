// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * How long KernelShark takes to open a recording: kshark_open() (the call
 * File -> Open makes) and kshark_load_entries() (what the GUI then loads),
 * headless, for each FILE given: a perf.data through the perf2dat plugin,
 * or a trace.dat by KernelShark's own reader, to compare with.
 *
 *	cc -O2 -o bench/kshark-open bench/kshark-open.c $(pkg-config --cflags --libs libkshark)
 *	bench/kshark-open plugin/.libs/plugin-perf2dat.so FILE...
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "libkshark.h"
#include "libkshark-plugin.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct kshark_context *ctx = NULL;
	struct kshark_entry **rows;
	double t0, t1, t2;
	ssize_t n, i;
	int a, sd;

	if (argc < 3) {
		fprintf(stderr, "usage: %s PLUGIN.so FILE...\n", argv[0]);
		return 2;
	}
	if (!kshark_instance(&ctx) || !kshark_register_plugin(ctx, "perf2dat", argv[1])) {
		fprintf(stderr, "kshark-open: cannot load %s\n", argv[1]);
		return 1;
	}
	for (a = 2; a < argc; a++) {
		t0 = now();
		sd = kshark_open(ctx, argv[a]);
		t1 = now();
		if (sd < 0) {
			fprintf(stderr, "kshark-open: %s: cannot open\n", argv[a]);
			return 1;
		}
		n = kshark_load_entries(ctx, sd, &rows);
		t2 = now();
		printf("%s: open %.3f s, load %.3f s, total %.3f s, %zd entries\n", argv[a],
		       t1 - t0, t2 - t1, t2 - t0, n);
		for (i = 0; i < n; i++)
			free(rows[i]);
		free(rows);
		kshark_close(ctx, sd);
	}
	kshark_free(ctx);
	return 0;
}

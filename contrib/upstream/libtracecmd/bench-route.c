// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * How long libtracecmd's writer takes to put per-CPU page files into a
 * trace.dat: the step tracecmd_write_cpu_data() (or, with --fds and the
 * patched library, tracecmd_write_cpu_data_fds()) takes, timed inside the
 * process with CLOCK_MONOTONIC. The headers before it are written untimed.
 *
 *   bench-route [--fds] OUTPUT PAGEFILE...
 *
 * Prints the seconds of that step. Build against a trace-cmd tree:
 *   gcc -O2 -DHAVE_FDS -I$TC/lib/trace-cmd/include/private \
 *       -I$TC/lib/trace-cmd/include -I$TC/include/trace-cmd \
 *       $(pkg-config --cflags libtraceevent libtracefs) bench-route.c \
 *       -L$TC/lib/trace-cmd -ltracecmd $(pkg-config --libs libtraceevent libtracefs)
 * (without -DHAVE_FDS for an unpatched tree; -Wl,-rpath,$TC/lib/trace-cmd
 * to run it without LD_LIBRARY_PATH).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "trace-cmd-private.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct tracecmd_event_list one = { .next = NULL, .glob = "sched/sched_switch" };
	struct tracecmd_output *h;
	int fds = 0, cpus, ret;
	double t0, t1;

	if (argc > 1 && !strcmp(argv[1], "--fds")) {
		fds = 1;
		argv++;
		argc--;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: bench-route [--fds] OUTPUT PAGEFILE...\n");
		return 2;
	}
	cpus = argc - 2;
	h = tracecmd_output_create(argv[1]);
	if (!h || tracecmd_output_write_headers(h, &one) || tracecmd_write_cpus(h, cpus) ||
	    tracecmd_write_buffer_info(h) || tracecmd_write_options(h)) {
		fprintf(stderr, "bench-route: cannot write the headers of %s\n", argv[1]);
		return 1;
	}
	tracecmd_set_quiet(h, true);
	t0 = now();
	if (fds) {
#ifdef HAVE_FDS
		struct tracecmd_cpu_data *d = calloc(cpus, sizeof(*d));
		struct stat st;
		int i;

		for (i = 0; d && i < cpus; i++) {
			d[i].fd = open(argv[2 + i], O_RDONLY);
			if (d[i].fd < 0 || fstat(d[i].fd, &st))
				return 1;
			d[i].size = st.st_size;
		}
		ret = d ? tracecmd_write_cpu_data_fds(h, cpus, d, NULL) : -1;
#else
		fprintf(stderr, "bench-route: built without tracecmd_write_cpu_data_fds()\n");
		return 2;
#endif
	} else {
		ret = tracecmd_write_cpu_data(h, cpus, argv + 2, NULL);
	}
	t1 = now();
	tracecmd_output_close(h);
	if (ret) {
		fprintf(stderr, "bench-route: writing the CPU data failed\n");
		return 1;
	}
	printf("%.6f\n", t1 - t0);
	return 0;
}

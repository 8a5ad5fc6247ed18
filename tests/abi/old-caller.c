// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A caller compiled against the PERF2DAT_0.1 header (tests/abi/perf2dat-0.1.h,
 * frozen; this program cannot see src/perf2dat.h) converts a recording
 * through the library as built: usage old-caller IN OUT. It also holds the
 * library to the size rules of libperf2dat(3): options without a size or
 * smaller than the 0.1 layout are refused (-EINVAL), a larger structure
 * whose unknown bytes are zero is taken, one with a set unknown byte is
 * refused (-E2BIG), and the summary is filled to the caller's size.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf2dat-0.1.h"

static int failed;

static void check(int ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAIL", what);
	if (!ok)
		failed = 1;
}

/* A caller of a newer header: the 0.1 options and then fields this library lacks */
struct newer_options {
	struct p2d_options	o;
	unsigned long		more[4];
};

int main(int argc, char **argv)
{
	struct newer_options big;
	struct p2d_summary sum;
	struct p2d_options o;
	int ret;

	if (argc != 3) {
		fprintf(stderr, "usage: old-caller IN OUT\n");
		return 2;
	}
	p2d_options_init(&o);
	check(o.size == sizeof(o), "p2d_options_init() records the caller's size");

	/* the size rules, each on a copy of the options that would convert */
	o.input = argv[1];
	o.output = NULL;
	o.output_fd = -1;
	{
		struct p2d_options bad = o;

		bad.size = 0;
		ret = p2d_convert(&bad, &sum);
		check(ret == -EINVAL && strstr(sum.error, "p2d_options_init"),
		      "options without a size: -EINVAL, naming p2d_options_init()");
		bad.size = sizeof(bad) - 1;
		ret = p2d_convert(&bad, &sum);
		check(ret == -EINVAL, "options smaller than the 0.1 layout: -EINVAL");
		ret = p2d_convert_size(&o, &sum, sizeof(sum) - 1);
		check(ret == -EINVAL, "a summary smaller than the 0.1 layout: -EINVAL");
	}
	memset(&big, 0, sizeof(big));
	p2d_options_init_size(&big.o, sizeof(big));
	check(big.o.size == sizeof(big) && !big.more[0] && !big.more[3],
	      "p2d_options_init_size() of a larger structure zeroes what it does not know");
	big.o.input = argv[1];
	big.o.output = NULL;	/* no output: refused after the size checks */
	big.o.output_fd = -1;
	ret = p2d_convert(&big.o, &sum);
	check(ret == -EINVAL && strstr(sum.error, "no output"),
	      "a larger structure with zero unknown bytes passes the size checks");
	big.more[2] = 1;
	ret = p2d_convert(&big.o, &sum);
	check(ret == -E2BIG && strstr(sum.error, "newer libperf2dat"),
	      "a set byte the library does not know: -E2BIG");

	/* the conversion itself */
	o.output = argv[2];
	o.force = 1;
	ret = p2d_convert(&o, &sum);
	if (ret)
		printf("convert: %s\n", sum.error);
	check(ret == 0 && sum.size == sizeof(sum) && sum.events > 0,
	      "the 0.1 caller converts; its summary is filled to its size");
	printf("%llu events, %d CPUs, %u tasks\n", (unsigned long long)sum.events, sum.cpus,
	       sum.tasks);
	return failed;
}

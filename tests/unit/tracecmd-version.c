// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The libtracecmd capabilities decided at run time (src/lib/write-trace.c):
 * the running library's version is the one pkg-config names
 * ($TRACECMD_MODVERSION, from configure), and more than 2 GiB per CPU is
 * allowed from 1.5.3 on only.
 */
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "write.h"

int main(void)
{
	const char *want = getenv("TRACECMD_MODVERSION");
	char ver[32];

	p2d_tracecmd_version(ver, sizeof(ver));
	CHECK(want != NULL);
	if (want) {
		CHECK(!strcmp(ver, want));
		if (strcmp(ver, want))
			fprintf(stderr, "running libtracecmd %s, pkg-config says %s\n", ver, want);
	}
	CHECK(!p2d_tracecmd_large_cpu_data("1.3.1"));
	CHECK(!p2d_tracecmd_large_cpu_data("1.5.2"));
	CHECK(p2d_tracecmd_large_cpu_data("1.5.3"));
	CHECK(p2d_tracecmd_large_cpu_data("1.6"));
	CHECK(p2d_tracecmd_large_cpu_data("2.0.0"));
	CHECK(!p2d_tracecmd_large_cpu_data(""));
	CHECK(!p2d_tracecmd_large_cpu_data("x"));
	printf("running libtracecmd %s: %s 2 GiB per CPU\n", ver,
	       p2d_tracecmd_large_cpu_data(ver) ? "more than" : "at most");
	return unit_done("tracecmd-version");
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The library with a second input format (import-toy.c): this program links
 * the convenience library with a table of its own, perf.data and the toy
 * format, in place of importers.c. Through the public interface alone, a toy
 * recording is recognised (p2d_is_perf_data(), p2d_is_perf_path()) and
 * converted; perf.data still converts; a file of neither names both.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perf2dat.h"
#include "read-perf.h"
#include "unit.h"

extern const struct p2d_import p2d_import_toy;

/* The table: importers.c's, and a line for the toy format */
const struct p2d_import *const p2d_importers[] = {
	&p2d_import_perf,
	&p2d_import_toy,
	NULL
};

static const char toy[] =
	"P2DTOY1 2\n"
	"0 1000000 100 100 ffffffff81000000\n"
	"1 1000500 200 201 401000\n"
	"0 1001000 100 100 ffffffff81000010\n";

static int convert(const char *in, const char *out, struct p2d_summary *sum)
{
	struct p2d_options o;

	p2d_options_init(&o);
	o.input = in;
	o.output = out;
	o.force = true;
	o.kallsyms = "none";
	o.log_level = P2D_LOG_ERROR;
	return p2d_convert(&o, sum);
}

int main(void)
{
	char dir[] = "/tmp/p2d-import-XXXXXX", path[64], out[64], head[8];
	struct p2d_summary sum;
	const char *data = getenv("DATA");
	FILE *f;

	if (!mkdtemp(dir))
		return 99;
	snprintf(path, sizeof(path), "%s/rec.toy", dir);
	snprintf(out, sizeof(out), "%s/out.dat", dir);
	f = fopen(path, "w");
	if (!f || fputs(toy, f) < 0 || fclose(f))
		return 99;

	CHECK(p2d_is_perf_data(toy, sizeof(toy) - 1));
	CHECK(p2d_is_perf_path(path));
	CHECK(!p2d_is_perf_path(dir));	/* the toy format has no directories */

	CHECK_EQ(convert(path, out, &sum), 0);
	CHECK_EQ(sum.events, 3);
	CHECK_EQ(sum.samples, 3);
	CHECK_EQ(sum.cpus, 2);
	CHECK_EQ(sum.first_ts, 1000000);
	CHECK_EQ(sum.last_ts, 1001000);
	f = fopen(out, "r");
	CHECK(f && fread(head, 1, sizeof(head), f) == sizeof(head) &&
	      !memcmp(head, "\027\010\104tracin", sizeof(head)));
	if (f)
		fclose(f);

	/* perf.data, the table's first format, as before */
	if (data) {
		char sample[512];

		snprintf(sample, sizeof(sample), "%s/sample.data", data);
		CHECK_EQ(convert(sample, out, &sum), 0);
		CHECK_EQ(sum.events, 629);
	} else {
		CHECK(!"DATA is not set");
	}

	/* neither: the message names both formats */
	f = fopen(path, "w");
	if (!f || fputs("neither format\n", f) < 0 || fclose(f))
		return 99;
	CHECK(convert(path, out, &sum) < 0);
	CHECK(strstr(sum.error, "not a perf.data or toy file (bad magic)") != NULL);
	if (!strstr(sum.error, "perf.data or toy"))
		fprintf(stderr, "error: %s\n", sum.error);

	unlink(path);
	unlink(out);
	rmdir(dir);
	return unit_done("import");
}

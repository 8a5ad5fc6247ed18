// SPDX-License-Identifier: LGPL-2.1-or-later
/* The small functions of perf2dat.h: defaults, recognising a recording, version */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include "conv.h"

#define offsetofend(t, m)	(offsetof(t, m) + sizeof(((t *)0)->m))

/*
 * The first stable layouts (PERF2DAT_0.1): a caller's structures are at
 * least this large. A field added later goes at the end of its structure
 * and means "the default" when zero (libperf2dat(3), ABI).
 */
#define OPTIONS_SIZE_0_1	offsetofend(struct p2d_options, buildid_dir)
#define SUMMARY_SIZE_0_1	offsetofend(struct p2d_summary, unwind_skipped)

/**
 * p2d_options_init_size - fill @opts with the defaults
 * @opts: options to initialize
 * @size: the caller's sizeof(*@opts)
 *
 * Fields the library does not know (@size larger than its own) are zeroed.
 */
void p2d_options_init_size(struct p2d_options *opts, size_t size)
{
	struct p2d_options def;

	memset(&def, 0, sizeof(def));
	def.size = size;
	def.output = "trace.dat";
	def.output_fd = -1;
	def.file_version = 7;
	def.log_level = P2D_LOG_WARN;
	if (size > sizeof(def)) {
		memset((char *)opts + sizeof(def), 0, size - sizeof(def));
		size = sizeof(def);
	}
	memcpy(opts, &def, size);
}

static int refuse(struct p2d_summary *sum, size_t sum_size, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* A caller's structures that cannot be used: say so in @sum if it has room */
static int refuse(struct p2d_summary *sum, size_t sum_size, int err, const char *fmt, ...)
{
	va_list ap;

	if (sum && sum_size >= offsetofend(struct p2d_summary, error)) {
		memset(sum, 0, sum_size);
		sum->size = sum_size < sizeof(*sum) ? sum_size : sizeof(*sum);
		va_start(ap, fmt);
		vsnprintf(sum->error, sizeof(sum->error), fmt, ap);
		va_end(ap);
	}
	return err;
}

/* Bytes past what this library knows: all zero, or a field it does not have is set */
static bool tail_is_zero(const void *p, size_t from, size_t to)
{
	const unsigned char *b = p;

	for (; from < to; from++) {
		if (b[from])
			return false;
	}
	return true;
}

/**
 * p2d_convert_size - convert a recording to trace.dat
 * @opts: what to convert; @opts->size tells its layout
 * @sum: filled with counts
 * @sum_size: the caller's sizeof(*@sum)
 *
 * The caller's structures are copied to and from the library's own layout,
 * so everything behind this sees one layout.
 *
 * Returns 0 on success, or a negative errno.
 */
int p2d_convert_size(const struct p2d_options *opts, struct p2d_summary *sum, size_t sum_size)
{
	struct p2d_options o;
	struct p2d_summary s;
	size_t n;
	int ret;

	if (!opts || !sum)
		return refuse(sum, sum_size, -EINVAL, "no options or no summary");
	if (sum_size < SUMMARY_SIZE_0_1)
		return refuse(sum, sum_size, -EINVAL, "a summary of %zu bytes: at least %zu"
			      " (the PERF2DAT_0.1 layout)", sum_size, SUMMARY_SIZE_0_1);
	if (opts->size < OPTIONS_SIZE_0_1)
		return refuse(sum, sum_size, -EINVAL, "options of %zu bytes: at least %zu (the"
			      " PERF2DAT_0.1 layout; fill them with p2d_options_init())",
			      opts->size, OPTIONS_SIZE_0_1);
	if (opts->size > sizeof(o) && !tail_is_zero(opts, sizeof(o), opts->size))
		return refuse(sum, sum_size, -E2BIG, "options of a newer libperf2dat (%zu bytes,"
			      " this one knows %zu): a field this version does not have is set",
			      opts->size, sizeof(o));
	/* what the caller's layout lacks takes its default */
	p2d_options_init_size(&o, sizeof(o));
	n = opts->size < sizeof(o) ? opts->size : sizeof(o);
	memcpy(&o, opts, n);
	o.size = sizeof(o);

	ret = p2d_conv_run(&o, &s);

	n = sum_size < sizeof(s) ? sum_size : sizeof(s);
	s.size = n;
	memcpy(sum, &s, n);
	if (sum_size > n)
		memset((char *)sum + n, 0, sum_size - n);
	return ret;
}

/**
 * p2d_is_perf_data - does @buf start like a perf.data file?
 * @buf: the first bytes of a file
 * @len: bytes available in @buf
 */
bool p2d_is_perf_data(const void *buf, size_t len)
{
	return p2d_import_probe(buf, len) != NULL;
}

/**
 * p2d_is_perf_path - is @path a perf.data recording?
 * @path: a file, or a perf record --threads directory
 *
 * By content, through the table of formats (importers.c).
 */
bool p2d_is_perf_path(const char *path)
{
	return p2d_import_probe_path(path, NULL) != NULL;
}

/**
 * p2d_version - the library version string
 */
const char *p2d_version(void)
{
	return PACKAGE_VERSION;
}

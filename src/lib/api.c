// SPDX-License-Identifier: LGPL-2.1-or-later
/* The small functions of perf2dat.h: defaults, recognising a recording, version */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include "read-perf.h"

/**
 * p2d_options_init - fill @opts with the defaults
 * @opts: options to initialize
 */
void p2d_options_init(struct p2d_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->output = "trace.dat";
	opts->output_fd = -1;
	opts->file_version = 7;
	opts->log_level = P2D_LOG_WARN;
}

/**
 * p2d_is_perf_data - does @buf start like a perf.data file?
 * @buf: the first bytes of a file
 * @len: bytes available in @buf
 */
bool p2d_is_perf_data(const void *buf, size_t len)
{
	return p2d_perf_magic(buf, len);
}

static bool file_is_perf(const char *path)
{
	unsigned char magic[8];
	bool perf = false;
	struct stat st;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	/* pread: nothing is consumed, and a pipe or terminal fails here */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    pread(fd, magic, sizeof(magic), 0) == (ssize_t)sizeof(magic))
		perf = p2d_perf_magic(magic, sizeof(magic));
	close(fd);
	return perf;
}

/**
 * p2d_is_perf_path - is @path a perf.data recording?
 * @path: a file, or a perf record --threads directory
 */
bool p2d_is_perf_path(const char *path)
{
	struct stat st;
	char *data;
	bool perf;

	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return file_is_perf(path);
	if (asprintf(&data, "%s/data", path) < 0)
		return false;
	perf = file_is_perf(data);
	free(data);
	return perf;
}

/**
 * p2d_version - the library version string
 */
const char *p2d_version(void)
{
	return PACKAGE_VERSION;
}

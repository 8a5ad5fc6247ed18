// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perf.data as an input format (sink.h, struct p2d_import): a file or a
 * stream that starts with the "PERFILE2" magic of either byte order, or a
 * perf record --threads directory, whose "data" file does and whose
 * "data.N" files the reader takes after it.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "named-file.h"
#include "read-perf.h"

#define MAGIC_LEN	8

static bool perf_probe(const uint8_t *buf, size_t len)
{
	return p2d_perf_magic(buf, len);
}

static char *data_file(const char *dir)
{
	char *path;

	return asprintf(&path, "%s/data", dir) < 0 ? NULL : path;
}

/* A --threads directory: its "data" file starts with the magic */
static bool perf_probe_dir(const char *path)
{
	uint8_t magic[MAGIC_LEN];
	char *data = data_file(path);
	bool perf = false;
	int fd;

	if (!data)
		return false;
	/*
	 * a FIFO, a device or a terminal named "data" is not even opened, nor
	 * is a link to a file elsewhere (perf writes none)
	 */
	fd = p2d_open_named_own(data, NULL, 0);
	free(data);
	if (fd < 0)
		return false;
	if (pread(fd, magic, sizeof(magic), 0) == (ssize_t)sizeof(magic))
		perf = p2d_perf_magic(magic, sizeof(magic));
	close(fd);
	return perf;
}

/* Reading a --threads directory starts with its "data" file */
static int perf_open_dir(struct p2d_input *in, const char *path, struct p2d_diag *d)
{
	char *data = data_file(path);
	int ret;

	if (!data)
		return -ENOMEM;
	ret = p2d_in_open_part(in, data);
	in->own_name = data;
	if (ret)
		return p2d_error(d, P2D_NO_OFFSET, ret, "%s: %s", data, p2d_named_strerror(-ret));
	return 0;
}

const struct p2d_import p2d_import_perf = {
	.name		= "perf.data",
	.probe_len	= MAGIC_LEN,
	.probe		= perf_probe,
	.probe_dir	= perf_probe_dir,
	.open_dir	= perf_open_dir,
	.read		= p2d_perf_read,
};

// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Recognising an input by the table of formats (importers.c): by its first
 * bytes, or a file or directory by its path.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/stat.h>

#include "named-file.h"
#include "sink.h"

#define PROBE_MAX	64	/* bytes of a file p2d_import_probe_path() reads */

/**
 * p2d_import_probe - the format whose recordings start with @buf
 * @buf: the first bytes of the input
 * @len: bytes in @buf
 *
 * Returns the format's descriptor, or NULL when no format claims @buf.
 */
const struct p2d_import *p2d_import_probe(const uint8_t *buf, size_t len)
{
	const struct p2d_import *const *imp;

	for (imp = p2d_importers; *imp; imp++) {
		if ((*imp)->probe(buf, len))
			return *imp;
	}
	return NULL;
}

/**
 * p2d_import_probe_len - bytes of an input's start that every format's
 *	probe has enough with
 */
size_t p2d_import_probe_len(void)
{
	const struct p2d_import *const *imp;
	size_t len = 1;

	for (imp = p2d_importers; *imp; imp++) {
		if ((*imp)->probe_len > len)
			len = (*imp)->probe_len;
	}
	return len;
}

/**
 * p2d_import_names - the formats' names, for messages: "A", "A or B", ...
 * @buf: filled, NUL-terminated
 * @size: its size
 */
void p2d_import_names(char *buf, size_t size)
{
	const struct p2d_import *const *imp;
	size_t len = 0;
	int n;

	buf[0] = '\0';
	for (imp = p2d_importers; *imp && len < size; imp++) {
		n = snprintf(buf + len, size - len, "%s%s", imp == p2d_importers ? "" : " or ",
			     (*imp)->name);
		len += n > 0 ? (size_t)n : 0;
	}
}

/*
 * A regular file's first bytes; anything else is not opened (a FIFO would
 * block or lose its data, a device's or a terminal's open alone can act)
 */
static const struct p2d_import *probe_file(const char *path)
{
	const struct p2d_import *imp = NULL;
	uint8_t head[PROBE_MAX];
	size_t want = p2d_import_probe_len();
	ssize_t n;
	int fd;

	if (want > sizeof(head))
		want = sizeof(head);
	fd = p2d_open_named(path, NULL, 0);
	if (fd < 0)
		return NULL;
	n = pread(fd, head, want, 0);
	if (n > 0)
		imp = p2d_import_probe(head, (size_t)n);
	close(fd);
	return imp;
}

/**
 * p2d_import_probe_path - the format of the recording at @path
 * @path: a file or a directory
 * @dir: set to whether @path is a directory (may be NULL)
 *
 * A file by its first bytes; a directory by each format's probe_dir.
 *
 * Returns the format's descriptor, or NULL when @path is no recording of
 * a format the library reads.
 */
const struct p2d_import *p2d_import_probe_path(const char *path, bool *dir)
{
	const struct p2d_import *const *imp;
	struct stat st;
	bool is_dir;

	is_dir = !stat(path, &st) && S_ISDIR(st.st_mode);
	if (dir)
		*dir = is_dir;
	if (!is_dir)
		return probe_file(path);
	for (imp = p2d_importers; *imp; imp++) {
		if ((*imp)->probe_dir && (*imp)->probe_dir(path))
			return *imp;
	}
	return NULL;
}

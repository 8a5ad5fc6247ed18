// SPDX-License-Identifier: LGPL-2.1-or-later
/* Small file helpers of the library */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "p2d-local.h"

/**
 * p2d_write_all - write a whole buffer
 * @fd: descriptor
 * @buf: bytes
 * @len: count
 *
 * Returns 0 or a negative errno (-ENOSPC when the disk is full).
 */
int p2d_write_all(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	ssize_t r;

	while (len) {
		r = write(fd, p, len);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			return -ENOSPC;
		p += r;
		len -= (size_t)r;
	}
	return 0;
}

/**
 * p2d_tmpfile - create an unlinked temporary file
 * @dir: directory to create it in
 *
 * Returns a read-write descriptor or a negative errno.
 */
int p2d_tmpfile(const char *dir)
{
	char *path;
	int fd;

	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	/* file systems without O_TMPFILE: create and unlink at once */
	if (asprintf(&path, "%s/.perf2dat-XXXXXX", dir) < 0)
		return -ENOMEM;
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0) {
		fd = -errno;
	} else {
		unlink(path);
	}
	free(path);
	return fd;
}

/**
 * p2d_tmp_dir - where temporary files go: $TMPDIR, or /tmp
 */
const char *p2d_tmp_dir(void)
{
	const char *dir = getenv("TMPDIR");

	return dir && *dir ? dir : "/tmp";
}

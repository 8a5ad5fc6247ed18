// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Buffered reading of the recording: one read window for the record stream
 * (works the same on files and pipes), pread for sections of a file.
 *
 * The window is 128 KiB of plain read()s: small enough that what read()
 * copies is still in the cache when the parser gets to it (a 2 MiB window
 * made the copy alone 3.5 times as slow, bench/real). Reading a regular file
 * through an mmap()ed window instead was measured (bench/, 2 GB input) and
 * gave the same CPU time (page-table population costs what the copy costs, and the
 * parser then misses the cache), a larger resident set and a SIGBUS should
 * the file shrink, so it is not used.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"
#include "named-file.h"

#define P2D_WINDOW	(128u << 10)
#define P2D_WINDOW_MAX	(64u << 20)
#define P2D_WINDOW_MIN	4096u

static int in_open(struct p2d_input *in, const char *path, int fd, bool part)
{
	struct stat st;

	memset(in, 0, sizeof(*in));
	in->fd = -1;
	if (path && strcmp(path, "-") != 0) {
		fd = part ? p2d_open_named_own(path, NULL, 0) : open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC);
		if (fd < 0)
			return part ? fd : -errno;
		in->owns_fd = true;
		in->name = path;
		in->path = path;
	} else {
		in->name = "<stdin>";
	}
	in->fd = fd;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (S_ISREG(st.st_mode)) {
		in->seekable = true;
		in->size = (uint64_t)st.st_size;
		in->buf_off = (uint64_t)lseek(fd, 0, SEEK_CUR);
	}
	/* a small file needs no larger window than itself (it grows if need be) */
	in->cap = P2D_WINDOW;
	if (in->seekable && in->size < P2D_WINDOW)
		in->cap = ((size_t)in->size + P2D_WINDOW_MIN - 1) / P2D_WINDOW_MIN * P2D_WINDOW_MIN;
	if (!in->cap)
		in->cap = P2D_WINDOW_MIN;
	in->buf = malloc(in->cap);
	if (!in->buf)
		return -ENOMEM;
	/* what the reads will fill: all of it, or all a small file needs */
	p2d_prefault(in->buf, in->seekable && in->size - in->buf_off < in->cap ?
		     (size_t)(in->size - in->buf_off) : in->cap);
	return 0;
}

/**
 * p2d_in_open - open the input
 * @in: input to initialize
 * @path: file to open, or NULL / "-" to use @fd
 * @fd: descriptor used when @path is NULL or "-" (not closed)
 *
 * Returns 0, -EISDIR for a directory, or another negative errno.
 */
int p2d_in_open(struct p2d_input *in, const char *path, int fd)
{
	return in_open(in, path, fd, false);
}

/**
 * p2d_in_open_part - open a file of a directory recording
 * @in: input to initialize
 * @path: the file ("data", "data.N" of a perf record --threads directory)
 *
 * The user names the directory; its files are the recording's, and are
 * read only when they are regular files of their own, not links
 * (p2d_open_named_own()).
 *
 * Returns 0, -P2D_ENOTREG for a file that is not regular, or another
 * negative errno.
 */
int p2d_in_open_part(struct p2d_input *in, const char *path)
{
	return in_open(in, path, -1, true);
}

/**
 * p2d_in_close - release the input
 * @in: input (may be partly initialized)
 */
void p2d_in_close(struct p2d_input *in)
{
	if (in->owns_fd && in->fd >= 0)
		close(in->fd);
	in->fd = -1;
	free(in->buf);
	in->buf = NULL;
	free(in->own_name);
	in->own_name = NULL;
}

static int fill(struct p2d_input *in, size_t n)
{
	ssize_t r;

	if (n > in->cap) {
		size_t cap = in->cap;
		uint8_t *nb;

		if (n > P2D_WINDOW_MAX)
			return -EFBIG;
		while (cap < n)
			cap *= 2;
		nb = realloc(in->buf, cap);
		if (!nb)
			return -ENOMEM;
		in->buf = nb;
		in->cap = cap;
	}
	if (in->start) {
		memmove(in->buf, in->buf + in->start, in->end - in->start);
		in->buf_off += in->start;
		in->end -= in->start;
		in->start = 0;
	}
	while (in->end < n && !in->eof) {
		r = read(in->fd, in->buf + in->end, in->cap - in->end);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			in->eof = true;
		in->end += (size_t)r;
	}
	return in->end >= n ? 0 : -ENODATA;
}

/**
 * p2d_in_peek_slow - p2d_in_peek() when the buffer holds fewer than @n bytes
 * @in: input
 * @n: bytes needed
 * @p: set to the bytes
 *
 * Kept out of line so that the common path, inline in input.h, stays small.
 *
 * Returns 0, -ENODATA or another negative errno, as p2d_in_peek().
 */
int p2d_in_peek_slow(struct p2d_input *in, size_t n, const uint8_t **p)
{
	int ret = fill(in, n);

	if (ret)
		return ret;
	*p = in->buf + in->start;
	return 0;
}

/**
 * p2d_in_read - copy the next @n bytes out of the input
 * @in: input
 * @dst: destination
 * @n: bytes
 *
 * Returns 0, -ENODATA if the input ends first, or another negative errno.
 */
int p2d_in_read(struct p2d_input *in, void *dst, size_t n)
{
	size_t have = in->end - in->start;
	uint8_t *d = dst;
	ssize_t r;

	if (have > n)
		have = n;
	memcpy(d, in->buf + in->start, have);
	in->start += have;
	d += have;
	n -= have;
	while (n) {
		r = read(in->fd, d, n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0) {
			in->eof = true;
			return -ENODATA;
		}
		/* keep the window's idea of the position in step */
		in->buf_off += (uint64_t)r;
		d += r;
		n -= (size_t)r;
	}
	return 0;
}

/**
 * p2d_in_seek - move the read position of a seekable input
 * @in: input
 * @off: absolute offset
 *
 * Returns 0 or a negative errno (-ESPIPE on a pipe).
 */
int p2d_in_seek(struct p2d_input *in, uint64_t off)
{
	if (off >= in->buf_off && off <= in->buf_off + in->end) {
		in->start = (size_t)(off - in->buf_off);
		return 0;
	}
	if (!in->seekable)
		return -ESPIPE;
	if (lseek(in->fd, (off_t)off, SEEK_SET) == (off_t)-1)
		return -errno;
	in->buf_off = off;
	in->start = in->end = 0;
	in->eof = false;
	return 0;
}

/**
 * p2d_in_skip - advance the read position by @n bytes
 * @in: input
 * @n: bytes to skip
 *
 * Returns 0, -ENODATA if the input ends first, or another negative errno.
 */
int p2d_in_skip(struct p2d_input *in, uint64_t n)
{
	const uint8_t *p;
	size_t chunk;
	int ret;

	if (in->seekable) {
		if (n > in->size || p2d_in_pos(in) > in->size - n)
			return -ENODATA;
		return p2d_in_seek(in, p2d_in_pos(in) + n);
	}
	while (n) {
		chunk = n < P2D_WINDOW ? (size_t)n : P2D_WINDOW;
		if (in->end - in->start < chunk) {
			chunk = in->end - in->start;
			if (!chunk) {
				ret = p2d_in_peek(in, 1, &p);
				if (ret)
					return ret;
				continue;
			}
		}
		p2d_in_consume(in, chunk);
		n -= chunk;
	}
	return 0;
}

/**
 * p2d_in_pread - read bytes at an offset of a seekable input
 * @in: input
 * @off: offset
 * @dst: destination
 * @n: bytes
 *
 * Does not move the stream position. Returns 0, -ENODATA if the file ends
 * first, -ESPIPE on a pipe, or another negative errno.
 */
int p2d_in_pread(struct p2d_input *in, uint64_t off, void *dst, size_t n)
{
	uint8_t *d = dst;
	ssize_t r;

	if (!in->seekable)
		return -ESPIPE;
	if (off > in->size || n > in->size - off)
		return -ENODATA;
	while (n) {
		r = pread(in->fd, d, n, (off_t)off);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			return -ENODATA;
		d += r;
		off += (uint64_t)r;
		n -= (size_t)r;
	}
	return 0;
}

